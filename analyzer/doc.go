// Package analyzer exports agentverify's per-file Go dimensions, complexity and style, as
// golang.org/x/tools/go/analysis analyzers, so that tools built on that framework run them:
// `go vet -vettool` (cmd/agentverify-vet), Bazel's nogo, and any analysis driver.
//
// Each analyzer verifies the files of its package through the same entry point as
// `agentverify check` (agentverify.Checker with the Paths source), under the policy found at
// the repository root, so a finding is the same message at the same place whichever way it
// was asked for. Severity comes from the policy as usual; every violation, error or warning,
// becomes a diagnostic whose category is the rule ID.
package analyzer
