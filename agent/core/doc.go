// Package core holds the agent's State and the pure functions that decide
// what the agent may do next. The model and the tools are untrusted oracles;
// these functions are the part whose behaviour is proven, each theorem a
// test named after it (see agent/contracts/agent-loop.yaml).
//
// Every function takes and returns values: a transition never mutates its
// argument, so a caller can keep the state before a step for audit and
// replay.
package core
