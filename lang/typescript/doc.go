// Package typescript is the TypeScript and JavaScript frontend (.ts .tsx .mts .cts .js
// .jsx .mjs .cjs). Its subpackages hold the stages a verification goes through:
//
//   - syntax: tree-sitter's TypeScript and TSX grammars (TSX also reads JavaScript and
//     JSX), the tree copied into Go values with byte positions, every error recovered.
//
// The package itself is the frontend of the lang contract (Frontend): declarations,
// identifiers, comments, syntax errors, metrics and tests for the language-agnostic
// dimensions.
//
// # Declarations
//
// Top-level functions, classes (with their methods "C.m", accessors "C.get m" and fields
// "C.f"), interfaces, type aliases, enums, namespaces ("NS.f" inside) and variables are
// declarations; a variable whose value is a function or class is one. A declaration is
// exported by `export`, an export clause (`export { a as b }`), `export default`, or in
// CommonJS by `exports.f = …`, `module.exports.f = …` and `module.exports = { a, b }`;
// class members are exported with their class unless private, protected or #private.
// Declarations inside `declare module "x"` and `declare global` augment other modules
// and are not the file's. Only exported functions need a JSDoc comment (/** … */ right
// before the declaration or its export statement, decorators between allowed); one
// documented overload documents them all.
//
// Signatures are normalised for API comparisons: type parameters, parameter types in
// order without names ('?' for optional and defaulted ones, "..." for rest, "any" when
// untyped), and the written return type: "<T>(string, number?, ...T[]): void".
//
// # Metrics
//
// Every function with a body is measured on its own code, as ESLint and sonarjs report
// each function on its own: a nested function, callback or object method is a
// declaration of its own, named where it is written ("outer/<callback of items.map>").
// Cyclomatic complexity is ESLint's `complexity` rule, cognitive complexity
// eslint-plugin-sonarjs's S3776 (cyclomatic.go, cognitive.go); the parity tests compare
// both with the real ESLint on testdata/metrics.txtar and on every function rxjs ships.
// Lines are the lines strictly between the body's braces that hold code (all lines of
// an arrow's expression body); nesting counts if (an else-if chain once), loops, switch
// and try.
//
// # Tests
//
// Files named *.test.*, *.spec.*, *_test.*, or under __tests__, test, tests, spec or e2e
// hold tests (no API, no JSDoc required). describe/it/test calls (jest, vitest, mocha,
// jasmine, node:test, playwright) are test declarations named "suite > case"; it.skip,
// describe.skip, xit, test.todo, test.skipIf, a node:test { skip } option, this.skip()
// and t.skip() skip a test, and it.only, describe.only and fit skip every other: each is
// a File.Skip.
package typescript
