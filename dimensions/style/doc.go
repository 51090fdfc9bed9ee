// Package style is the style dimension: it checks the changed files of a language the
// frontends know against the project's conventions, with options from the policy in
// force for each file (style.naming, style.require_docs, style.max_line_length).
//
//   - style/naming: a declared identifier breaks the naming convention. For "go" the
//     rules are golint's and revive's var-naming: MixedCaps, no underscores (except
//     in test, fuzz, benchmark and example function names of _test.go files, and a
//     trailing one after a Go keyword, as in type_), no ALL_CAPS, no leading k, and the common initialisms (ID, URL, HTTP, JSON, API, …;
//     revive's list) in one case: userId should be userID, HttpServer HTTPServer. A
//     package name has no underscores (but for an _test suffix) and no upper case.
//     "lisp-case" wants lower-case words joined by '-' (earmuffs and +constants+ kept),
//     "snake_case" lower-case words joined by '_' (types may be PascalCase, constants
//     UPPER_SNAKE), "camelCase" no '_' or '-' between words (PascalCase allowed),
//     "typescript" PascalCase types, camelCase (or PascalCase) functions, camelCase
//     methods and parameters, camelCase, PascalCase or UPPER_CASE variables and
//     properties, and
//     "detect" the convention of the file's language frontend. Each finding suggests
//     the conforming name.
//   - style/missing-doc: with require_docs: exported, an exported function, method,
//     type, var or const has no doc comment (P11). As revive's exported rule: test
//     files and package main are exempt, so are methods on unexported types (the
//     frontend does not count them as exported) and struct fields; a doc comment on a
//     parenthesised group documents its members.
//   - style/line-length: a line is longer than max_line_length runes (0 = off). Tabs
//     count as one rune.
//   - style/suppression-added: a comment suppresses a linter or this gate: //nolint,
//     //lint:ignore, //agentverify:ignore, #nosec, //revive:disable,
//     //gocognit:ignore, NOSONAR, eslint-disable, oxlint-disable, biome-ignore, and
//     Deno's lint ignore, @ts-ignore, @ts-expect-error, @ts-nocheck, # noqa, # type:
//     ignore, pylint: disable.
//
// Findings are per line and not marked Introduced, so in a diff the engine keeps only
// those on lines the change added or modified; the exception is a missing doc comment
// that the change removed from a declaration documented at the base, which is
// reported even when the declaration's own line is unchanged.
//
// Files with syntax errors are skipped (hallucination/syntax-error reports them). In check
// mode, in generated files (a "// Code generated ... DO NOT EDIT." comment before the
// package clause) only suppressions are checked. A change gets no such exemption: the
// header is written by whoever writes the file, so a file the change creates or edits is
// checked whatever its header says.
package style
