// Package resolve is the TypeScript frontend's resolver (lang.Resolver): it checks that
// what a change's TypeScript and JavaScript files refer to exists, with the TypeScript
// compiler as the oracle. Its steps, in order:
//
//   - syntax: the errors tree-sitter recovers from (a file that does not parse gets
//     nothing else: the compiler's own syntax errors would repeat them);
//   - tsc: the compiler over each project that owns a changed file (tsconfig.Owner),
//     in batch (a configuration that extends the project's, in place when the disk holds
//     the head, else over a mirror of the head tree with node_modules linked in) or,
//     for long-lived processes, through a TypeScript 7 language server with the changed
//     files overlaid; its errors become problems (classify.go).
//
// Suppressions the change adds (// @ts-ignore, // @ts-expect-error, // @ts-nocheck)
// suppress nothing: they are defused in the content the compiler reads (the gated party
// never controls its own verification), and style reports them.
package resolve
