// Package guard is the loop guard of the agent runner: a stateful
// bookkeeper, with no I/O, that the ReAct loop consults before each
// iteration, each tool call and each network request, and informs after
// each model response. It answers with a Verdict — Allow, Warn, Block (refuse
// this one action, tell the model why, go on) or CircuitBreak (stop the run).
//
// The guarantees are invariants of the agent-loop contract
// (agent/contracts/agent-loop.yaml):
//
//	INV-001 iteration limit        INV-007 token budget
//	INV-002 tool-call limit        INV-012 capability check
//	INV-003 ping-pong repetition   INV-013 spawn depth
//	INV-004 A-B-A-B oscillation    INV-014 network host allowlist, redirects
//	INV-005 cost budget            INV-015 sovereign privacy tier
//	INV-006 max-tokens streak      INV-016 warnings are never dropped
//
// A circuit break is sticky: once tripped, every later check answers with
// the same CircuitBreak. A Guard is not safe for concurrent use; give each
// agent its own.
package guard
