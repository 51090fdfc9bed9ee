package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/agentverify/agentverify/agent/core"
	"github.com/agentverify/agentverify/agent/llm"
	"github.com/agentverify/agentverify/agent/runner/tools"
)

// Sessions splits an audit log into runs: each starts at a start record (a log written
// with --audit is appended to, so it may hold several).
func Sessions(records []Record) [][]Record {
	var out [][]Record
	for _, r := range records {
		if r.Kind == KindStart || len(out) == 0 {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], r)
	}
	return out
}

// Replay re-runs one recorded session through the loop without a server: the model's
// replies and failures, the tools' observations and the measured durations come from
// the records, and the loop makes every decision anew. It returns the differences
// between the recorded and the replayed decisions, empty when every decision came out
// the same.
func Replay(ctx context.Context, session []Record) (Result, []string, error) {
	if len(session) == 0 || session[0].Kind != KindStart || session[0].Settings == nil {
		return Result{}, nil, fmt.Errorf("replay: a session starts with a %q record", KindStart)
	}
	st := session[0].Settings
	access, err := core.ParseAccess(st.Access)
	if err != nil {
		return Result{}, nil, fmt.Errorf("replay: %w", err)
	}
	retries := st.Retries
	if retries == 0 {
		retries = -1 // recorded after defaults: zero means none
	}
	audit := NewAudit(nil)
	cfg := Config{Task: st.Task, Model: st.Model, Dir: st.Dir, Base: st.Base, MaxSteps: st.MaxSteps,
		TokenBudget: st.TokenBudget, TimeBudget: time.Duration(st.TimeBudgetNS), ContextTokens: st.ContextTokens,
		Access: access, AllowExec: st.AllowExec, Retries: retries, Audit: audit}
	src := &recording{}
	for _, r := range session {
		switch {
		case r.Kind == KindModel || r.Kind == KindModelError:
			src.replies = append(src.replies, r)
			src.durations = append(src.durations, time.Duration(r.ElapsedNS))
		case r.Kind == KindToolCall && r.Outcome == "invoke":
			src.calls = append(src.calls, r)
			src.durations = append(src.durations, time.Duration(r.ElapsedNS))
		case r.Kind == KindStop:
			src.final = tools.Result{Verdict: r.Verdict, Observation: r.Observation}
		}
	}
	l, err := newLoop(cfg, src, src)
	if err != nil {
		return Result{}, nil, err
	}
	l.elapsed = src.elapsed
	l.sleep = func(context.Context, time.Duration) {}
	res := l.run(ctx)
	diffs := src.problems
	if !slices.Equal(l.offered, st.Tools) {
		diffs = append(diffs, fmt.Sprintf("tools offered: recorded %v, replayed %v", st.Tools, l.offered))
	}
	diffs = append(diffs, compare(session, audit.Records())...)
	return res, diffs, nil
}

// recording plays the model, the tools and the clock back from a session.
type recording struct {
	replies, calls []Record
	durations      []time.Duration
	final          tools.Result
	problems       []string
}

func (r *recording) Complete(_ context.Context, _ *llm.Request) (*llm.Response, error) {
	if len(r.replies) == 0 {
		r.problems = append(r.problems, "the loop asked the model more often than recorded")
		return nil, &llm.Error{Message: "replay: no recorded reply left"}
	}
	rec := r.replies[0]
	r.replies = r.replies[1:]
	if rec.Kind == KindModelError {
		return nil, &llm.Error{Status: rec.Status, Message: rec.Error}
	}
	resp := &llm.Response{}
	if rec.Usage != nil {
		resp.Usage = *rec.Usage
	}
	var msg llm.Message
	if rec.Reply != nil {
		msg = *rec.Reply
	}
	resp.Choices = []llm.Choice{{Message: msg, FinishReason: rec.FinishReason}}
	return resp, nil
}

func (r *recording) Run(_ context.Context, name, args string) tools.Result {
	if len(r.calls) == 0 {
		r.problems = append(r.problems, fmt.Sprintf("the loop ran %s, which the recording never ran", name))
		return tools.Result{Observation: "replay: no recorded tool result left", Failed: true}
	}
	rec := r.calls[0]
	r.calls = r.calls[1:]
	if rec.Tool != name || rec.Input != args {
		r.problems = append(r.problems, fmt.Sprintf("tool call %s: recorded %s(%s), replayed %s(%s)", rec.CallID, rec.Tool, rec.Input, name, args))
	}
	return tools.Result{Observation: rec.Observation, Verdict: rec.Verdict}
}

func (r *recording) Final(context.Context) tools.Result { return r.final }

func (r *recording) elapsed() time.Duration {
	if len(r.durations) == 0 {
		return 0
	}
	d := r.durations[0]
	r.durations = r.durations[1:]
	return d
}

// compare lists, decision by decision, the fields that differ between the recorded and
// the replayed records.
func compare(recorded, replayed []Record) []string {
	var diffs []string
	for i := 0; i < max(len(recorded), len(replayed)); i++ {
		switch {
		case i >= len(recorded):
			diffs = append(diffs, fmt.Sprintf("decision %d: replay made an extra %s decision", i, replayed[i].Kind))
			continue
		case i >= len(replayed):
			diffs = append(diffs, fmt.Sprintf("decision %d: recorded %s decision was not made in the replay", i, recorded[i].Kind))
			continue
		}
		a, b := fields(recorded[i]), fields(replayed[i])
		var keys []string
		for k := range a {
			keys = append(keys, k)
		}
		for k := range b {
			if _, ok := a[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		var d []string
		for _, k := range keys {
			if !reflect.DeepEqual(a[k], b[k]) {
				d = append(d, fmt.Sprintf("%s recorded %s, replayed %s", k, show(a[k]), show(b[k])))
			}
		}
		if len(d) > 0 {
			diffs = append(diffs, fmt.Sprintf("decision %d (%s, step %d): %s", i, recorded[i].Kind, recorded[i].Step, strings.Join(d, "; ")))
		}
	}
	return diffs
}

func fields(r Record) map[string]any {
	data, _ := json.Marshal(r)
	var m map[string]any
	_ = json.Unmarshal(data, &m)
	return m
}

func show(v any) string {
	if v == nil {
		return "nothing"
	}
	data, _ := json.Marshal(v)
	s := string(data)
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
