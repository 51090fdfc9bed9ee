// Package agent is the root of agentverify's own coding agent: a ReAct loop
// whose model and tools are untrusted oracles but whose decisions are
// checked. The package itself holds no code; it maps the subpackages.
//
//   - core: the agent State, actions and the pure decision functions
//     (ToolPermitted, MustRespond, ShouldContinue, ReactStep …). Every
//     theorem about them is a named test, exhaustive over a bounded domain
//     and property-based over the full one.
//   - guard: the loop Guard (INV-001…INV-016 except the pool and sanitiser
//     invariants): iteration, tool-call, repetition, cost, token, capability,
//     spawn-depth and network-host limits, as Verdicts.
//   - fanout: Pool accounting for running several agents at once
//     (INV-008 capacity, INV-009 fan-out count, INV-010 every result
//     collected) and Run, a bounded parallel map built on it.
//   - window: the context manager — token estimates and TruncateToFit,
//     which keeps the conversation within the model's window.
//   - toolout: what a tool's output goes through before the model sees it:
//     TruncateOutput (head and tail) and Sanitize (INV-011).
//   - contracts: agent-loop.yaml, every invariant and theorem with its
//     statement and the tests that bind it; a test keeps the bindings honest.
//
// None of these packages performs I/O; the runner (a later package) wires
// them to a model server, the file system and the verification engine.
package agent
