package python

import "github.com/agentverify/agentverify/lang/python/depcheck"

// DepChecker is the dependency stage, kept for the callers of its first home.
//
// Deprecated: use depcheck.Checker.
type DepChecker = depcheck.Checker

// NewDepChecker returns a checker that finds the environment once per verification.
//
// Deprecated: use depcheck.New.
func NewDepChecker() *DepChecker { return depcheck.New() }

// NewWarmDepChecker returns a checker for long-lived processes.
//
// Deprecated: use depcheck.NewWarm.
func NewWarmDepChecker() *DepChecker { return depcheck.NewWarm() }
