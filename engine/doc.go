// Package engine runs the enabled dimensions of a policy in parallel over one change and
// turns their findings into violations through an ordered list of processors, in the manner
// of golangci-lint's result processors:
//
//  1. internal errors: a dimension that returned an error, panicked or timed out becomes one
//     <dim>/internal-error violation (always an error, and the run's status is error: the
//     gate fails closed, P1); messages are made repository-relative (paths.go);
//  2. suppressions: "//agentverify:ignore RULE reason" in a real comment (the frontend's
//     parsed comments) on the line or the line above (a reason is required; scope,
//     internal-error and style/suppression-added findings cannot be suppressed). With a
//     base, only a suppression the trusted base has over the same line content counts,
//     unless the policy says suppressions.allow_new;
//  3. severity: the policy's severity for the rule and file; "off" drops the finding;
//  4. diff filter: in diff mode only what the change introduced (design.md §3);
//  5. dedupe: one violation per rule, place and message;
//  6. sort: by file, line, column, rule, message (report.Sort).
//
// Between Run and Process, ConfirmAtBase settles in diff mode the findings the diff filter
// would drop (not marked Introduced, not on a changed line): a dimension that has any runs
// again over the base view of the change, and those of its findings the base does not
// have (matched by rule, file, symbol and message, not by line) are marked Introduced.
// So a change that breaks an unchanged line or another file is reported where it breaks.
//
// Dimensions are independent: each sees the same immutable Pass, and one failing never
// hides another's findings (P1).
package engine
