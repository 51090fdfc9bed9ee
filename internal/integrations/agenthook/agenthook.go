// Package agenthook is the one adapter layer between coding agents' hook protocols and
// the gate. Every protocol is a Codec: it decodes the agent's payload into a Proposal —
// the files the tool call will write, each computed from the tool's input exactly as the
// agent applies it (old/new strings, SEARCH/REPLACE blocks, a Codex patch), refusing what
// the agent refuses — and encodes the gate's Verdict in the agent's own answer format.
// Run is the only path from a payload to a verdict, so an agent is an entry in Agents and
// a codec, never a new path, and every guarantee proven for one hook holds for all.
//
// It fails closed: unreadable, oversized or malformed input, a tool input the agent would
// refuse, a path the gate cannot place, an internal error, a verification that did not
// finish — each is a deny with its reason, in the agent's deny format.
package agenthook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/agentverify/agentverify/change/editset"
	"github.com/agentverify/agentverify/report"
)

// MaxInput bounds the payload read from stdin.
const MaxInput = 64 << 20

// MaxReason bounds the reason shown to the model (Claude Code truncates long ones; the
// others show what they get, and a model needs the first findings, not all of them).
const MaxReason = 10000

// Proposal is what one tool call proposes: whole files with their new content.
type Proposal struct {
	// Dir is the directory the agent runs in: relative paths resolve against it, and the
	// repository containing it is verified. Empty means the hook's own directory.
	Dir string
	// Edits are the files the tool writes, absolute or relative to Dir.
	Edits []editset.Edit
}

// ErrNotEdit is returned by a codec for a tool call that writes no file (a read, a shell
// command) from an agent whose hooks fire for every tool: it is allowed unverified.
var ErrNotEdit = errors.New("not a file edit")

// errNoTool is a payload that names no tool: not one the agent sends.
var errNoTool = errors.New("the payload names no tool")

// Kind is the gate's decision.
type Kind int

// Decisions.
const (
	Allow Kind = iota // passed: nothing to say
	Warn              // passed with warnings the model should read
	Deny              // failed, or could not be verified
)

// Verdict is the decision with the text the model reads.
type Verdict struct {
	Kind Kind
	// Reason is the whole message for the model: why, and the findings one per line.
	Reason string
	// Findings are the violations alone, one per line (for a short stderr).
	Findings string
}

// Result is what the hook process prints and its exit code.
type Result struct {
	Stdout []byte
	Stderr string
	Exit   int
}

// Codec is one agent's hook protocol.
type Codec interface {
	// Decode reads one payload (already bounded and read whole) into a proposal.
	Decode(payload []byte) (Proposal, error)
	// Encode writes a verdict in the agent's answer format.
	Encode(v Verdict) Result
}

// Verify checks proposed edits in the repository containing dir.
type Verify func(ctx context.Context, dir string, edits []editset.Edit) (*report.Report, error)

// Run reads one payload from r, decodes it with c, verifies the proposal and answers.
func Run(ctx context.Context, c Codec, r io.Reader, verify Verify) Result {
	data, err := io.ReadAll(io.LimitReader(r, MaxInput+1))
	switch {
	case err != nil:
		return c.Encode(denied("agentverify could not read the hook input: " + err.Error()))
	case len(data) > MaxInput:
		return c.Encode(denied("agentverify: hook input larger than 64 MiB"))
	}
	p, err := c.Decode(data)
	if errors.Is(err, ErrNotEdit) {
		return c.Encode(Verdict{Kind: Allow})
	}
	if err != nil {
		return c.Encode(denied("agentverify: " + err.Error()))
	}
	if len(p.Edits) == 0 {
		return c.Encode(denied("agentverify: the tool call writes no file"))
	}
	rep, err := verify(ctx, p.Dir, p.Edits)
	if err != nil {
		return c.Encode(denied("agentverify could not verify the edit: " + err.Error()))
	}
	return c.Encode(VerdictOf(rep))
}

// VerdictOf maps a report to a verdict. Any status but passed, warnings and failed — a
// report that could not verify the change — denies, with every line it has.
func VerdictOf(rep *report.Report) Verdict {
	text := Summary(rep)
	switch rep.Status {
	case report.Passed:
		return Verdict{Kind: Allow}
	case report.Warnings:
		return Verdict{Kind: Warn, Reason: "agentverify warnings for this edit:\n" + text, Findings: text}
	case report.Failed:
		return Verdict{Kind: Deny, Reason: "agentverify rejected this edit; fix these and try again:\n" + text, Findings: text}
	case report.Errored: // fail closed, with what the user must fix
		return Verdict{Kind: Deny, Reason: "agentverify could not verify this edit, so it is denied: " + report.Escape(rep.Error) + "\n" + text, Findings: text}
	}
	return Verdict{Kind: Deny, Reason: fmt.Sprintf("agentverify could not verify this edit (status %q), so it is denied:\n%s", rep.Status, text), Findings: text}
}

func denied(reason string) Verdict { return Verdict{Kind: Deny, Reason: reason} }

// Summary lists the violations one per line, as the model needs them to repair the edit.
func Summary(rep *report.Report) string {
	var b strings.Builder
	for _, v := range rep.Violations {
		b.WriteString(v.ModelLine() + "\n")
	}
	return b.String()
}

// Clip keeps a reason under MaxReason bytes without splitting a UTF-8 sequence.
func Clip(s string) string {
	if len(s) <= MaxReason {
		return s
	}
	const marker = "\n… (truncated)"
	cut := MaxReason - len(marker)
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + marker
}

// jsonLine encodes v as one line of JSON.
func jsonLine(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil { // only plain structs and strings are encoded
		panic(err)
	}
	return append(b, '\n')
}

// strictUnmarshal decodes one JSON value and rejects trailing data.
func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}

// nonEmpty makes sure a deny reason on stderr is never empty: Codex and Gemini read an
// exit 2 with empty stderr as a failed hook, and let the tool run.
func nonEmpty(s string) string {
	if strings.TrimSpace(s) == "" {
		return "agentverify denied this edit"
	}
	return s
}
