// Package runner is agentverify's own coding agent: a ReAct loop (perceive → reason →
// act) against any OpenAI-compatible chat-completions server, whose every write is
// verified by the verification engine in memory before it touches the disk.
//
// The model and the tools are untrusted oracles; what the runner may do is decided by
// agent/core (ReactStep: permission and budgets) and agent/guard (iteration and tool-call
// limits, repetition, oscillation, token budget), the conversation is kept within the
// model's window by agent/window, and tool output passes through agent/toolout.
//
// Every decision can be written to an audit log (one JSON line each, never the API key),
// and Replay re-runs the recorded model replies and tool observations through the same
// loop without a server, checking that every decision comes out the same.
//
// The change the run made is measured against a snapshot of the working tree taken at
// the start (a commit object written with a temporary index, so neither the index nor
// the working tree is touched): the verify tool and the final verification compare the
// working tree with it, so edits that were already in a dirty tree are not blamed on
// the agent. Outside a git repository the files the run wrote are verified as they are.
//
// Command is the CLI: "agentverify agent run" and "agentverify agent replay".
package runner
