package guard

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
)

// Invariant IDs of the verdicts the guard produces.
const (
	InvIterations = "INV-001"
	InvToolCalls  = "INV-002"
	InvPingPong   = "INV-003"
	InvOscillate  = "INV-004"
	InvCost       = "INV-005"
	InvMaxTokens  = "INV-006"
	InvTokens     = "INV-007"
	InvCapability = "INV-012"
	InvSpawn      = "INV-013"
	InvHost       = "INV-014"
	InvSovereign  = "INV-015"
	InvWarnings   = "INV-016"
)

// Guard keeps the counters of one agent run. Create it with New.
type Guard struct {
	cfg     Config
	granted map[string]bool

	iterations  int
	toolCalls   int
	seen        map[string]int // canonical call key → times called
	recent      []string       // the last four call keys, oldest first
	maxTokenRun int            // consecutive max-tokens responses
	tokens      int
	costUSD     float64
	tokenWarned bool

	tripped *Verdict
	events  []Verdict
}

// New returns a guard for cfg, or an error naming every bad field.
func New(cfg Config) (*Guard, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	g := &Guard{cfg: c, granted: make(map[string]bool), seen: make(map[string]int)}
	for _, name := range c.Capabilities {
		g.granted[name] = true
	}
	return g, nil
}

// Config returns the configuration in force, defaults applied.
func (g *Guard) Config() Config { return g.cfg }

// Iterations is the number of CheckIteration calls so far.
func (g *Guard) Iterations() int { return g.iterations }

// ToolCalls is the number of CheckToolCall calls so far.
func (g *Guard) ToolCalls() int { return g.toolCalls }

// Tokens is the sum of the tokens recorded so far.
func (g *Guard) Tokens() int { return g.tokens }

// CostUSD is the sum of the costs recorded so far.
func (g *Guard) CostUSD() float64 { return g.costUSD }

// Tripped returns the circuit break, once one happened.
func (g *Guard) Tripped() (Verdict, bool) {
	if g.tripped == nil {
		return Verdict{}, false
	}
	return *g.tripped, true
}

// Events returns every non-Allow verdict the guard produced, in order; a
// warning outranked by a harsher verdict in the same check is here too
// (INV-016). The runner logs them.
func (g *Guard) Events() []Verdict { return slices.Clone(g.events) }

// decide logs every non-Allow verdict of one check and returns the most
// severe one (the first of equal severity), or the standing circuit break.
func (g *Guard) decide(vs ...Verdict) Verdict {
	out := Allowed
	for _, v := range vs {
		if v.Kind == Allow {
			continue
		}
		g.events = append(g.events, v)
		if v.Kind > out.Kind {
			out = v
		}
	}
	if g.tripped != nil {
		return *g.tripped
	}
	if out.Kind == CircuitBreak {
		g.tripped = &out
	}
	return out
}

// CheckIteration is called once before every model turn. The counter goes
// up by exactly one per call; the first MaxIterations calls are allowed and
// every later one circuit-breaks (INV-001).
func (g *Guard) CheckIteration() Verdict {
	if g.iterations < math.MaxInt {
		g.iterations++
	}
	if g.iterations > g.cfg.MaxIterations {
		return g.decide(verdict(CircuitBreak, InvIterations,
			"iteration limit reached: %d iterations allowed", g.cfg.MaxIterations))
	}
	return g.decide()
}

// Permits reports, without counting anything, whether the run may ever
// call the tool: its capability is granted and the privacy tier allows it.
// The runner uses it to decide which tools to offer the model.
func (g *Guard) Permits(name string) Verdict {
	need := g.cfg.ToolCapabilities[name]
	switch {
	case need == "":
		return Allowed
	case need == CapNetwork && g.cfg.Tier == TierSovereign:
		return verdict(Block, InvSovereign,
			"tool %q needs the network, which the sovereign privacy tier forbids even though the capability is granted; the tool was not executed", name)
	case !g.granted[need]:
		return verdict(Block, InvCapability,
			"tool %q needs capability %q, which this run does not grant; the tool was not executed", name, need)
	}
	return Allowed
}

// CheckToolCall is called before every tool call. It counts the call
// (INV-002), checks the capability (INV-012) and privacy tier (INV-015),
// and blocks a call identical to RepeatLimit−1 earlier ones (INV-003) or
// completing an A-B-A-B alternation (INV-004). Inputs are compared in
// canonical form: JSON with sorted keys and no insignificant space.
func (g *Guard) CheckToolCall(name, input string) Verdict {
	if g.toolCalls < math.MaxInt {
		g.toolCalls++
	}
	if g.toolCalls > g.cfg.MaxToolCalls {
		return g.decide(verdict(CircuitBreak, InvToolCalls,
			"tool-call limit reached: %d tool calls allowed", g.cfg.MaxToolCalls))
	}
	if v := g.Permits(name); v.Kind != Allow {
		return g.decide(v)
	}
	key := name + "\x00" + Canonical(input)
	g.seen[key]++
	g.recent = append(g.recent, key)
	if len(g.recent) > 4 {
		g.recent = g.recent[1:]
	}
	if n := g.seen[key]; n >= g.cfg.RepeatLimit {
		return g.decide(verdict(Block, InvPingPong,
			"tool %q was called %d times with the same arguments; the result will not change. "+
				"Use the output you already have, call it with different arguments or another tool, or give your final answer", name, n))
	}
	if r := g.recent; len(r) == 4 && r[0] == r[2] && r[1] == r[3] && r[0] != r[1] {
		a, _, _ := strings.Cut(r[0], "\x00")
		return g.decide(verdict(Block, InvOscillate,
			"calls are alternating between %q and %q with the same arguments without progress; "+
				"change your approach or give your final answer", a, name))
	}
	return g.decide()
}

// Canonical returns input as canonical JSON (sorted keys, compact, numbers
// kept as written) when it is JSON, else input with surrounding space trimmed.
func Canonical(input string) string {
	dec := json.NewDecoder(strings.NewReader(input))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return strings.TrimSpace(input)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return strings.TrimSpace(input)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// isMaxTokens reports whether a finish reason says the reply was cut at
// the output limit ("length" in the OpenAI protocol).
func isMaxTokens(reason string) bool {
	switch strings.ToLower(reason) {
	case "length", "max_tokens", "max-tokens":
		return true
	}
	return false
}

// RecordResponse is called after every model response with its finish
// reason, the tokens it used and what it cost. MaxConsecutiveMaxTokens
// responses in a row cut at the output limit circuit-break, any other
// response resets the streak (INV-006); spending above MaxCostUSD
// (INV-005) or TokenBudget (INV-007) circuit-breaks, and reaching
// WarnFraction of the token budget warns once. Negative or non-finite
// amounts count as zero and are reported with a warning.
func (g *Guard) RecordResponse(finishReason string, tokens int, costUSD float64) Verdict {
	var vs []Verdict
	if tokens < 0 {
		vs = append(vs, verdict(Warn, InvTokens, "ignored a negative token count %d", tokens))
		tokens = 0
	}
	if costUSD < 0 || math.IsNaN(costUSD) || math.IsInf(costUSD, 0) {
		vs = append(vs, verdict(Warn, InvCost, "ignored an invalid cost %v USD", costUSD))
		costUSD = 0
	}
	if tokens > math.MaxInt-g.tokens {
		g.tokens = math.MaxInt
	} else {
		g.tokens += tokens
	}
	g.costUSD += costUSD

	if isMaxTokens(finishReason) {
		g.maxTokenRun++
	} else {
		g.maxTokenRun = 0
	}
	if g.maxTokenRun >= g.cfg.MaxConsecutiveMaxTokens {
		vs = append(vs, verdict(CircuitBreak, InvMaxTokens,
			"%d consecutive responses were cut at the output token limit", g.maxTokenRun))
	}
	if g.cfg.MaxCostUSD > 0 && g.costUSD > g.cfg.MaxCostUSD {
		vs = append(vs, verdict(CircuitBreak, InvCost,
			"cost budget exceeded: %.4f USD spent of %.4f USD", g.costUSD, g.cfg.MaxCostUSD))
	}
	if b := g.cfg.TokenBudget; b > 0 {
		if g.tokens > b {
			vs = append(vs, verdict(CircuitBreak, InvTokens, "token budget exceeded: %d tokens used of %d", g.tokens, b))
		}
		if !g.tokenWarned && float64(g.tokens) >= g.cfg.WarnFraction*float64(b) {
			g.tokenWarned = true
			vs = append(vs, verdict(Warn, InvTokens, "%d tokens used of %d (%.0f%% of the budget)",
				g.tokens, b, 100*float64(g.tokens)/float64(b)))
		}
	}
	return g.decide(vs...)
}

// CheckSpawn is called before starting a sub-agent at depth (the top-level
// agent is depth 0); depths beyond MaxSpawnDepth are blocked (INV-013).
func (g *Guard) CheckSpawn(depth int) Verdict {
	if depth > g.cfg.MaxSpawnDepth || depth < 0 {
		return g.decide(verdict(Block, InvSpawn, "spawn depth %d is outside the limit 0…%d", depth, g.cfg.MaxSpawnDepth))
	}
	return g.decide()
}
