// Package attacks holds agentverify's adversarial suite: one txtar script per attempt the
// gated agent could make to get a bad change past the gate (testdata/*.txtar), run by
// TestAttacks against the real command line in real git repositories. The threat model and
// what each attack proves are in docs/security.md.
package attacks
