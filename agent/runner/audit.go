package runner

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/agentverify/agentverify/agent/guard"
	"github.com/agentverify/agentverify/agent/llm"
	"github.com/agentverify/agentverify/report"
)

// Record kinds of the audit log.
const (
	KindStart      = "start"       // the run's configuration; the first line
	KindModel      = "model"       // one model reply (the decision to call the model)
	KindModelError = "model_error" // one failed exchange with the server
	KindToolCall   = "tool_call"   // one tool call and what became of it
	KindAnswer     = "final_answer"
	KindNone       = "none" // a reply with neither tool call nor answer
	KindStop       = "stop" // the end of the run; the last line
)

// AuditVersion is the version of the audit format.
const AuditVersion = 1

// GuardVerdict is a non-Allow verdict of the loop guard.
type GuardVerdict struct {
	Kind      string `json:"kind"`
	Invariant string `json:"invariant,omitempty"`
	Message   string `json:"message"`
}

// Record is one line of the audit log: one decision of the loop.
type Record struct {
	Kind string `json:"kind"`
	Turn int    `json:"turn,omitempty"`
	// Step is the agent's step counter after the decision.
	Step int `json:"step"`

	// start
	Version  int       `json:"version,omitempty"`
	Settings *Settings `json:"settings,omitempty"`

	// model and model_error
	Reply        *llm.Message `json:"reply,omitempty"`
	FinishReason string       `json:"finish_reason,omitempty"`
	Usage        *llm.Usage   `json:"usage,omitempty"`
	Tokens       int          `json:"tokens,omitempty"` // tokens charged for the turn
	Status       int          `json:"status,omitempty"` // HTTP status of a model error
	Error        string       `json:"error,omitempty"`
	Retry        bool         `json:"retry,omitempty"`

	// tool_call, final_answer
	CallID      string        `json:"call_id,omitempty"`
	Tool        string        `json:"tool,omitempty"`
	Input       string        `json:"input,omitempty"`
	Outcome     string        `json:"outcome,omitempty"` // core.Outcome, or "blocked"
	Verdict     report.Status `json:"verdict,omitempty"`
	Observation string        `json:"observation,omitempty"`
	Answer      string        `json:"answer,omitempty"`

	Guard     []GuardVerdict `json:"guard,omitempty"`
	ElapsedNS int64          `json:"elapsed_ns,omitempty"`
	// Budgets left after the decision.
	TokenBudget  int   `json:"token_budget"`
	TimeBudgetNS int64 `json:"time_budget_ns"`

	// stop
	Reason string `json:"reason,omitempty"`
	Done   bool   `json:"done,omitempty"`
}

// Settings is what a replay needs to rebuild the run: everything but the server's
// address and key.
type Settings struct {
	Task          string   `json:"task"`
	Model         string   `json:"model"`
	Dir           string   `json:"dir"`
	Base          string   `json:"base,omitempty"`
	MaxSteps      int      `json:"max_steps"`
	TokenBudget   int      `json:"token_budget"`
	TimeBudgetNS  int64    `json:"time_budget_ns"`
	ContextTokens int      `json:"context_tokens"`
	Access        string   `json:"access"`
	AllowExec     bool     `json:"allow_exec"`
	Retries       int      `json:"retries"`
	Tools         []string `json:"tools"`
}

func verdicts(vs []guard.Verdict) []GuardVerdict {
	var out []GuardVerdict
	for _, v := range vs {
		out = append(out, GuardVerdict{Kind: v.Kind.String(), Invariant: v.Invariant, Message: v.Message})
	}
	return out
}

// Audit writes records as JSON lines. It is safe for concurrent use.
type Audit struct {
	mu      sync.Mutex
	w       io.Writer
	err     error
	secrets []string
	records []Record // kept when Keep is set
	keep    bool
}

// NewAudit returns an audit log writing to w (nil: keep the records in memory only).
// Every string in secrets is replaced by [REDACTED] before a line is written.
func NewAudit(w io.Writer, secrets ...string) *Audit {
	return &Audit{w: w, secrets: secrets, keep: w == nil}
}

// Write appends one record.
func (a *Audit) Write(r Record) {
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.keep {
		a.records = append(a.records, r)
	}
	if a.w == nil || a.err != nil {
		return
	}
	data, err := json.Marshal(redactRecord(r, a.secrets))
	if err != nil {
		a.err = err
		return
	}
	data = redact(data, a.secrets)
	data = append(data, '\n')
	_, a.err = a.w.Write(data)
}

// Err is the first error writing the log.
func (a *Audit) Err() error {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.err
}

// Records returns the records kept in memory.
func (a *Audit) Records() []Record {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]Record(nil), a.records...)
}

// ReadAudit reads an audit log. name is used in errors.
func ReadAudit(r io.Reader, name string) ([]Record, error) {
	var out []Record
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 256<<20)
	line := 0
	for sc.Scan() {
		line++
		if len(sc.Bytes()) == 0 {
			continue
		}
		var rec Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return nil, fmt.Errorf("%s:%d: not an audit record: %v", name, line, err)
		}
		out = append(out, rec)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(out) == 0 || out[0].Kind != KindStart || out[0].Settings == nil {
		return nil, fmt.Errorf("%s:1: an audit log starts with a %q record", name, KindStart)
	}
	if out[0].Version != AuditVersion {
		return nil, fmt.Errorf("%s:1: audit version %d, want %d", name, out[0].Version, AuditVersion)
	}
	return out, nil
}

// redactRecord replaces the secrets in every text a record carries.
func redactRecord(r Record, secrets []string) Record {
	if len(secrets) == 0 {
		return r
	}
	red := func(s string) string { return redactString(s, secrets) }
	r.Input, r.Observation, r.Answer, r.Error, r.Reason = red(r.Input), red(r.Observation), red(r.Answer), red(r.Error), red(r.Reason)
	if r.Reply != nil {
		m := *r.Reply
		m.Content = red(m.Content)
		m.ToolCalls = append([]llm.ToolCall(nil), m.ToolCalls...)
		for i := range m.ToolCalls {
			m.ToolCalls[i].Function.Arguments = red(m.ToolCalls[i].Function.Arguments)
		}
		r.Reply = &m
	}
	if r.Settings != nil {
		st := *r.Settings
		st.Task = red(st.Task)
		r.Settings = &st
	}
	return r
}

// redactString replaces each secret in s, also in its JSON-escaped form (tool
// arguments are JSON text).
func redactString(s string, secrets []string) string {
	for _, sec := range secrets {
		if sec == "" {
			continue
		}
		s = strings.ReplaceAll(s, sec, "[REDACTED]")
		if q, err := json.Marshal(sec); err == nil && string(q[1:len(q)-1]) != sec {
			s = strings.ReplaceAll(s, string(q[1:len(q)-1]), "[REDACTED]")
		}
	}
	return s
}
