package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/agentverify/agentverify/agent/core"
	"github.com/agentverify/agentverify/agent/guard"
	"github.com/agentverify/agentverify/agent/llm"
	"github.com/agentverify/agentverify/agent/runner/tools"
	"github.com/agentverify/agentverify/agent/toolout"
	"github.com/agentverify/agentverify/agent/window"
	"github.com/agentverify/agentverify/report"
)

// Model is a chat-completions server; *llm.Client is one.
type Model interface {
	Complete(ctx context.Context, req *llm.Request) (*llm.Response, error)
}

// Executor runs the tools; *tools.Box is one.
type Executor interface {
	Run(ctx context.Context, name, args string) tools.Result
	Final(ctx context.Context) tools.Result
}

// Defaults of the runner. The token budget counts every token the server reports
// (prompt and completion, every turn), so it is far above core.DefaultTokenBudget,
// which would end a real run after two or three turns.
const (
	DefaultTokenBudget = 200_000
	DefaultRetries     = 2
	DefaultRetryDelay  = time.Second
)

// Config is one run.
type Config struct {
	Task  string
	Model string
	// Dir and Base are recorded in the audit log; the Executor works in Dir.
	Dir  string
	Base string

	MaxSteps      int           // default core.DefaultMaxSteps
	TokenBudget   int           // default DefaultTokenBudget
	TimeBudget    time.Duration // default core.DefaultTimeBudget
	ContextTokens int           // the model's window; default core.DefaultMaxContextTokens
	Access        core.Access
	AllowExec     bool

	// Retries is how often a failed exchange with the server (connection, 5xx, 429,
	// malformed response) is retried before the run stops with a tool error; a negative
	// value means none. RetryDelay is the first pause, doubled each time.
	Retries    int
	RetryDelay time.Duration

	// Progress receives one line per decision (nil: discarded).
	Progress io.Writer
	// Audit receives one record per decision (nil: none).
	Audit *Audit
	// Secrets never appear in messages, progress or the audit log.
	Secrets []string
}

func (c Config) withDefaults() Config {
	if c.MaxSteps <= 0 {
		c.MaxSteps = core.DefaultMaxSteps
	}
	if c.TokenBudget <= 0 {
		c.TokenBudget = DefaultTokenBudget
	}
	if c.TimeBudget <= 0 {
		c.TimeBudget = core.DefaultTimeBudget
	}
	if c.ContextTokens <= 0 {
		c.ContextTokens = core.DefaultMaxContextTokens
	}
	if c.Retries == 0 {
		c.Retries = DefaultRetries
	}
	if c.Retries < 0 {
		c.Retries = 0
	}
	if c.Progress == nil {
		c.Progress = io.Discard
	}
	return c
}

// Result is how a run ended.
type Result struct {
	Answer string
	// Done says the model gave its final answer within its budgets.
	Done bool
	// Reason says why the run stopped ("done" when Done).
	Reason string
	// Final is the closing verification of the whole change.
	Final tools.Result
	Steps int
	// Tokens is the number of tokens the server reported (or the runner estimated).
	Tokens int
}

// OK reports whether the run succeeded: a final answer and a final verdict that is
// neither failed nor unverified. The CLI exits 0 exactly then.
func (r Result) OK() bool {
	return r.Done && (r.Final.Verdict == "" || r.Final.Verdict.OK()) // "": no executor, nothing verified to fail
}

// loop is one run in progress.
type loop struct {
	cfg     Config
	model   Model
	exec    Executor
	s       core.State
	g       *guard.Guard
	tools   core.Tools
	offered []string
	defs    []llm.Tool
	turn    int
	events  int // guard events already logged
	tokens  int
	answer  string
	stop    string // set when a guard circuit break or the loop ends the run
	// elapsed returns the wall-clock time since its previous call (the first call: since
	// the run started), so the deductions add up to the run's whole duration; replay
	// substitutes the recorded durations. sleep pauses between retries.
	elapsed func() time.Duration
	sleep   func(ctx context.Context, d time.Duration)
}

// Run runs the agent until it answers or a decision stops it, then verifies the whole
// change with exec.Final.
func Run(ctx context.Context, cfg Config, model Model, exec Executor) (Result, error) {
	l, err := newLoop(cfg, model, exec)
	if err != nil {
		return Result{}, err
	}
	return l.run(ctx), nil
}

func newLoop(cfg Config, model Model, exec Executor) (*loop, error) {
	cfg = cfg.withDefaults()
	caps := []string{}
	if cfg.Access >= core.AccessRead {
		caps = append(caps, tools.CapRead)
	}
	if cfg.Access >= core.AccessWrite {
		caps = append(caps, tools.CapWrite)
	}
	if cfg.AllowExec {
		caps = append(caps, tools.CapExec)
	}
	g, err := guard.New(guard.Config{
		MaxIterations:    cfg.MaxSteps,
		MaxToolCalls:     cfg.MaxSteps,
		TokenBudget:      cfg.TokenBudget,
		Capabilities:     caps,
		ToolCapabilities: tools.Capabilities(),
		Tier:             guard.TierSovereign, // the runner's tools never reach the network
	})
	if err != nil {
		return nil, fmt.Errorf("runner: %w", err)
	}
	l := &loop{cfg: cfg, model: model, exec: exec, g: g, tools: tools.Core(),
		sleep: sleepCtx}
	last := time.Now()
	l.elapsed = func() time.Duration {
		now := time.Now()
		d := now.Sub(last)
		last = now
		return d
	}
	s := core.NewState("")
	s.MaxSteps = cfg.MaxSteps
	s.TokenBudget = cfg.TokenBudget
	s.TimeBudget = cfg.TimeBudget
	s.MaxContextTokens = cfg.ContextTokens
	s.FileAccess = cfg.Access
	s.ExecuteAllowed = cfg.AllowExec
	for _, t := range l.tools {
		if core.ToolPermitted(s, t) && g.Permits(t.Name).Kind == guard.Allow {
			l.offered = append(l.offered, t.Name)
		}
	}
	l.defs = tools.Definitions(l.offered)
	// The task lives in the system prompt, which the context manager always keeps; the
	// oldest messages are the first it drops.
	s.SystemPrompt = systemPrompt(l.offered) + "\n\nThe task:\n" + cfg.Task
	l.s = core.AddMessage(s, core.Message{Role: core.RoleUser, Content: "Do the task."})
	return l, nil
}

func systemPrompt(offered []string) string {
	return "You are a careful coding agent working in a software repository through tools. " +
		"All paths are relative to the working directory; nothing outside it can be read or written. " +
		"Every write_file and edit_file is verified by agentverify before it touches the disk: " +
		"when verification fails, NOTHING was written, and the result lists each violation as " +
		"RULE file:line: message (suggestion) — fix them and write again. Use only APIs that exist. " +
		"When the task is done, call finish with a short answer, or reply without a tool call. " +
		"Tools available: " + strings.Join(offered, ", ") + "."
}

func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

func (l *loop) settings() *Settings {
	return &Settings{Task: l.cfg.Task, Model: l.cfg.Model, Dir: l.cfg.Dir, Base: l.cfg.Base,
		MaxSteps: l.cfg.MaxSteps, TokenBudget: l.cfg.TokenBudget, TimeBudgetNS: int64(l.cfg.TimeBudget),
		ContextTokens: l.cfg.ContextTokens, Access: l.cfg.Access.String(), AllowExec: l.cfg.AllowExec,
		Retries: l.cfg.Retries, Tools: l.offered}
}

// record fills in the state-derived fields and the new guard events, and logs r.
func (l *loop) record(r Record) {
	r.Turn = l.turn
	r.Step = l.s.Step
	r.TokenBudget = l.s.TokenBudget
	r.TimeBudgetNS = int64(l.s.TimeBudget)
	ev := l.g.Events()
	r.Guard = verdicts(ev[l.events:])
	l.events = len(ev)
	l.cfg.Audit.Write(r)
}

func (l *loop) progress(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintln(l.cfg.Progress, l.redact(msg))
}

func (l *loop) redact(s string) string { return redactString(s, l.cfg.Secrets) }

func (l *loop) run(parent context.Context) Result {
	l.record(Record{Kind: KindStart, Version: AuditVersion, Settings: l.settings()})
	l.progress("agent: model %s, access %s, tools %s; at most %d steps, %d tokens, %s",
		l.cfg.Model, l.cfg.Access, strings.Join(l.offered, " "), l.cfg.MaxSteps, l.cfg.TokenBudget, l.cfg.TimeBudget)
	ctx, cancel := context.WithTimeout(parent, l.cfg.TimeBudget)
	defer cancel()
	for l.stop == "" {
		if core.MustRespond(l.s) {
			l.stop = core.StopReason(l.s)
			break
		}
		if v := l.g.CheckIteration(); v.Kind == guard.CircuitBreak {
			l.stop = v.String()
			break
		}
		l.turn++
		l.step(ctx)
	}
	res := Result{Answer: l.answer, Done: l.s.Done && l.stop == "done", Reason: l.stop,
		Steps: l.s.Step, Tokens: l.tokens}
	if l.exec != nil {
		res.Final = l.exec.Final(parent)
	}
	switch {
	case res.Done && res.Final.Verdict == report.Errored:
		res.Reason = "final verification could not be made"
	case res.Done && res.Final.Verdict != "" && !res.Final.Verdict.OK():
		res.Reason = "final verification failed"
	}
	l.progress("stop: %s", res.Reason)
	l.record(Record{Kind: KindStop, Reason: res.Reason, Done: res.Done, Answer: res.Answer,
		Verdict: res.Final.Verdict, Observation: res.Final.Observation})
	return res
}

func orNone(s report.Status) string {
	if s == "" {
		return "not run"
	}
	return string(s)
}

// step is one turn: ask the model, then act on its reply.
func (l *loop) step(ctx context.Context) {
	sent := window.ForState(l.s)
	req := &llm.Request{Model: l.cfg.Model, Messages: toLLM(sent), Tools: l.defs}
	resp, elapsed, err := l.complete(ctx, req)
	if err != nil {
		// A budget that ran out during the exchange is the reason to stop, not the
		// error it caused.
		if !core.MustRespond(l.s) {
			l.s = core.SetError(l.s, core.ToolError("model", l.redact(err.Error())))
		}
		return
	}
	choice := resp.Choices[0]
	reply := choice.Message
	reply.Role = string(core.RoleAssistant)
	for i := range reply.ToolCalls {
		if reply.ToolCalls[i].ID == "" {
			reply.ToolCalls[i].ID = fmt.Sprintf("call_%d_%d", l.turn, i+1)
		}
		reply.ToolCalls[i].Type = "function"
	}
	tokens := resp.Usage.TotalTokens
	if tokens <= 0 {
		tokens = resp.Usage.PromptTokens + resp.Usage.CompletionTokens
	}
	if tokens <= 0 {
		tokens = window.Tokens(sent) + window.MessageTokens(fromLLM(reply))
	}
	l.tokens += tokens
	l.s = core.DeductUsage(l.s, tokens, elapsed)
	gv := l.g.RecordResponse(choice.FinishReason, tokens, 0)
	l.s = core.AddMessage(l.s, fromLLM(reply))
	usage := resp.Usage
	l.record(Record{Kind: KindModel, Reply: &reply, FinishReason: choice.FinishReason, Usage: &usage,
		Tokens: tokens, ElapsedNS: int64(elapsed)})
	l.progress("turn %d: %d tool call(s), %d tokens, finish_reason %q", l.turn, len(reply.ToolCalls), tokens, choice.FinishReason)
	if gv.Kind == guard.CircuitBreak && !core.MustRespond(l.s) {
		l.stop = gv.String() // else the core's reason (a budget) is the clearer one
		return
	}
	if len(reply.ToolCalls) == 0 {
		l.reply(reply.Content)
		return
	}
	for _, tc := range reply.ToolCalls {
		if l.stop != "" || l.s.Done {
			return
		}
		if core.MustRespond(l.s) {
			return
		}
		l.call(ctx, tc)
	}
}

// reply handles a model turn without tool calls: the final answer, or nothing.
func (l *loop) reply(content string) {
	act := core.FinalAnswer(content)
	kind := KindAnswer
	if strings.TrimSpace(content) == "" {
		act, kind = core.NoAction(), KindNone
	}
	var res core.StepResult
	l.s, res = core.ReactStep(l.s, act, l.tools)
	switch res.Outcome {
	case core.Answered:
		l.answer, l.stop = l.redact(content), "done"
		l.progress("step %d: final answer", l.s.Step)
	case core.Idle:
		l.s = core.AddMessage(l.s, core.Message{Role: core.RoleUser,
			Content: "Your reply had neither a tool call nor an answer. Call a tool, or answer if the task is done."})
		l.progress("step %d: empty reply", l.s.Step)
	case core.Refused:
		l.answer = l.redact(content)
		l.stop = core.StopReason(l.s)
		l.progress("step %d: answer refused: %s", l.s.Step, l.stop)
	}
	l.record(Record{Kind: kind, Outcome: res.Outcome.String(), Answer: content})
}

// call acts on one tool call: the core decides whether it may run, the guard whether
// it is a repetition, and only then the executor runs it.
func (l *loop) call(ctx context.Context, tc llm.ToolCall) {
	name, args := tc.Function.Name, tc.Function.Arguments
	act := core.CallTool(name, args)
	if name == tools.Finish {
		var a struct {
			Answer *string `json:"answer"`
		}
		if json.Unmarshal([]byte(args), &a) == nil && a.Answer != nil {
			act = core.FinalAnswer(*a.Answer)
		}
	}
	rec := Record{Kind: KindToolCall, CallID: tc.ID, Tool: name, Input: args}
	var res core.StepResult
	l.s, res = core.ReactStep(l.s, act, l.tools)
	rec.Outcome = res.Outcome.String()
	var obs string
	failed := false
	switch res.Outcome {
	case core.Answered:
		l.answer, l.stop = l.redact(act.Answer), "done"
		rec.Answer = act.Answer
		obs = "finished"
	case core.Denied:
		obs = "refused: " + res.Err.Reason
	case core.Exhausted:
		obs = "refused: " + res.Err.String()
	case core.Refused:
		obs = "refused: " + core.StopReason(l.s)
	case core.Invoke:
		if v := l.g.CheckToolCall(name, args); v.Stops() {
			rec.Outcome = "blocked"
			obs = fmt.Sprintf("blocked by the loop guard (%s): %s", v.Invariant, v.Message)
			if v.Kind == guard.CircuitBreak {
				l.stop = v.String()
			}
			break
		}
		r := l.exec.Run(ctx, name, args)
		el := l.elapsed()
		l.s = core.DeductUsage(l.s, 0, el)
		rec.ElapsedNS = int64(el)
		rec.Verdict = r.Verdict
		obs = r.Observation
		failed = r.Failed
	}
	obs = toolout.Sanitize(l.redact(obs))
	l.s = core.AddMessage(l.s, core.Message{Role: core.RoleTool, ToolCallID: tc.ID, Content: obs})
	rec.Observation = obs
	l.record(rec)
	detail := rec.Outcome
	switch {
	case rec.Outcome == core.Invoke.String() && failed:
		detail = "failed"
	case rec.Outcome == core.Invoke.String():
		detail = "ok"
	}
	if rec.Verdict != "" {
		detail += ", verification " + string(rec.Verdict)
	}
	l.progress("step %d: %s %s → %s", l.s.Step, name, brief(args), detail)
}

// brief shortens tool arguments for a progress line.
func brief(args string) string {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) == nil {
		for _, k := range []string{"path", "command"} {
			if s, ok := m[k].(string); ok {
				return s
			}
		}
	}
	if len(args) > 60 {
		return args[:60] + "…"
	}
	return args
}

// complete asks the model, retrying transient failures. Each failure is a decision of
// its own in the audit log.
func (l *loop) complete(ctx context.Context, req *llm.Request) (*llm.Response, time.Duration, error) {
	delay := l.cfg.RetryDelay
	if delay <= 0 {
		delay = DefaultRetryDelay
	}
	for attempt := 0; ; attempt++ {
		resp, err := l.model.Complete(ctx, req)
		el := l.elapsed()
		if err == nil && len(resp.Choices) == 0 {
			err = &llm.Error{Status: 200, Message: "response has no choices"}
		}
		if err == nil {
			return resp, el, nil
		}
		l.s = core.DeductUsage(l.s, 0, el)
		rec := Record{Kind: KindModelError, Error: err.Error(), ElapsedNS: int64(el)}
		var le *llm.Error
		if errors.As(err, &le) {
			rec.Status, rec.Error = le.Status, le.Message
		}
		rec.Retry = attempt < l.cfg.Retries && retryable(err) && !core.MustRespond(l.s) && ctx.Err() == nil
		l.record(rec)
		l.progress("turn %d: %s%s", l.turn, l.redact(err.Error()), map[bool]string{true: " (retrying)"}[rec.Retry])
		if !rec.Retry {
			return nil, 0, err
		}
		l.sleep(ctx, delay<<attempt)
	}
}

// retryable says whether a failed exchange may succeed when tried again: no answer,
// a server error, rate limiting, or a malformed successful response.
func retryable(err error) bool {
	var le *llm.Error
	if !errors.As(err, &le) {
		return false
	}
	return le.Status == 0 || le.Status == 429 || le.Status >= 500 || le.Status/100 == 2
}

func toLLM(ms []core.Message) []llm.Message {
	out := make([]llm.Message, len(ms))
	for i, m := range ms {
		lm := llm.Message{Role: string(m.Role), Content: m.Content, ToolCallID: m.ToolCallID}
		for _, tc := range m.ToolCalls {
			lm.ToolCalls = append(lm.ToolCalls, llm.ToolCall{ID: tc.ID, Type: "function",
				Function: llm.FunctionCall{Name: tc.Name, Arguments: tc.Arguments}})
		}
		out[i] = lm
	}
	return out
}

func fromLLM(m llm.Message) core.Message {
	cm := core.Message{Role: core.Role(m.Role), Content: m.Content, ToolCallID: m.ToolCallID}
	for _, tc := range m.ToolCalls {
		cm.ToolCalls = append(cm.ToolCalls, core.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	return cm
}

// redact replaces each secret in a JSON line, raw and JSON-escaped.
func redact(data []byte, secrets []string) []byte {
	for _, s := range secrets {
		if s == "" {
			continue
		}
		data = bytes.ReplaceAll(data, []byte(s), []byte("[REDACTED]"))
		if q, err := json.Marshal(s); err == nil {
			data = bytes.ReplaceAll(data, q[1:len(q)-1], []byte("[REDACTED]"))
		}
	}
	return data
}
