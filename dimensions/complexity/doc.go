// Package complexity is the complexity dimension: it keeps changed functions small and
// simple. Its rules compare each function's metrics, computed by the language frontend
// (lang.Metrics), with the limits of the policy in force for the file:
//
//   - complexity/function-length: body lines (non-blank, non-comment, between the
//     braces) over max_function_lines (P16);
//   - complexity/nesting-depth: control-structure nesting over max_nesting_depth (P17);
//   - complexity/cyclomatic: cyclomatic complexity (gocyclo's number) over
//     max_cyclomatic (P18);
//   - complexity/cognitive: cognitive complexity (gocognit's number) over
//     max_cognitive.
//
// A limit of 0 turns its rule off. In check mode, or when the change has no base, every
// function over a limit is reported. In diff mode a function is reported only when it is
// over the limit and new or worse than at the base, where functions are matched by name
// ("T.Method" for methods) in the file's base version (its old path for a rename); such
// findings are marked Introduced, so they survive the diff filter even when the
// function's name line did not change. With --all (All mode) every function over a limit
// in a changed file is reported. Messages give the value, the limit and the base value:
//
//	function Parse has cyclomatic complexity 22 (limit 15; was 14 at base)
//	function Parse has cyclomatic complexity 22 (limit 15; new function)
//
// Files with syntax errors are skipped: hallucination/syntax-error reports them, and
// metrics of a partial tree would mislead.
package complexity
