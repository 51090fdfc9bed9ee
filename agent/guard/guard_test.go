package guard

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// fataler is what *testing.T and *rapid.T have in common here.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

func mustNew(t fataler, cfg Config) *Guard {
	t.Helper()
	g, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return g
}

func TestNewRejectsBadConfig(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{MaxIterations: -1}, "max iterations -1 is negative"},
		{Config{TokenBudget: -3}, "token budget -3"},
		{Config{MaxCostUSD: math.NaN()}, "max cost NaN USD"},
		{Config{WarnFraction: 1.5}, "warn fraction 1.5"},
		{Config{Tier: 7}, "privacy tier 7"},
		{Config{AllowedHosts: []string{"https://example.com/x"}}, `allowed host "https://example.com/x"`},
		{Config{AllowedHosts: []string{"a.*.com"}}, `allowed host "a.*.com"`},
		{Config{AllowedHosts: []string{""}}, `allowed host ""`},
	} {
		_, err := New(tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "guard config: ") {
			t.Errorf("New(%+v) error = %v, want %q", tc.cfg, err, tc.want)
		}
	}
	g := mustNew(t, Config{})
	c := g.Config()
	if c.MaxIterations != 100 || c.MaxToolCalls != 200 || c.RepeatLimit != 3 || c.MaxConsecutiveMaxTokens != 5 ||
		c.WarnFraction != 0.8 || c.MaxSpawnDepth != 3 || c.MaxCostUSD != 0 || c.TokenBudget != 0 {
		t.Fatalf("defaults = %+v", c)
	}
}

func propIterationLimit(t interface {
	Fatalf(string, ...any)
}, limit, checks int) {
	g, err := New(Config{MaxIterations: limit})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	for i := 1; i <= checks; i++ {
		v := g.CheckIteration()
		if g.Iterations() != i {
			t.Fatalf("after %d checks the counter is %d", i, g.Iterations())
		}
		want := Allow
		if i > limit {
			want = CircuitBreak
		}
		if v.Kind != want || (want == CircuitBreak && v.Invariant != InvIterations) {
			t.Fatalf("limit %d, check %d: %v, want %v", limit, i, v, want)
		}
	}
}

func TestINV001IterationLimit(t *testing.T) {
	t.Run("bounded", func(t *testing.T) {
		for limit := 1; limit <= 8; limit++ {
			propIterationLimit(t, limit, limit+4)
		}
		propIterationLimit(t, 0+DefaultMaxIterations, DefaultMaxIterations+2)
		g := mustNew(t, Config{}) // zero means the default
		for range DefaultMaxIterations {
			if v := g.CheckIteration(); v.Kind != Allow {
				t.Fatalf("default limit: early %v", v)
			}
		}
		if v := g.CheckIteration(); v.Kind != CircuitBreak || !strings.Contains(v.Message, "100 iterations") {
			t.Fatalf("default limit: %v", v)
		}
	})
	t.Run("rapid", rapid.MakeCheck(func(t *rapid.T) {
		limit := rapid.IntRange(1, 300).Draw(t, "limit")
		propIterationLimit(t, limit, rapid.IntRange(0, limit+20).Draw(t, "checks"))
	}))
}

func TestINV002ToolCallLimit(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		limit := rapid.IntRange(1, 100).Draw(t, "limit")
		g := mustNew(t, Config{MaxToolCalls: limit})
		for i := 1; i <= limit+5; i++ {
			v := g.CheckToolCall("read_file", fmt.Sprintf(`{"path":"f%d"}`, i))
			if g.ToolCalls() != i {
				t.Fatalf("counter %d after %d calls", g.ToolCalls(), i)
			}
			if (v.Kind == CircuitBreak) != (i > limit) {
				t.Fatalf("limit %d, call %d: %v", limit, i, v)
			}
		}
		// The break is sticky: the loop cannot be restarted by other checks.
		if v := g.CheckIteration(); v.Kind != CircuitBreak || v.Invariant != InvToolCalls {
			t.Fatalf("after the break CheckIteration = %v", v)
		}
	})
}

// callModel is the reference for repetition detection: counts per
// canonical key and the last four keys.
type callModel struct {
	seen   map[string]int
	recent []string
}

func (m *callModel) add(key string) (count int, alternating bool) {
	m.seen[key]++
	m.recent = append(m.recent, key)
	if len(m.recent) > 4 {
		m.recent = m.recent[1:]
	}
	r := m.recent
	return m.seen[key], len(r) == 4 && r[0] == r[2] && r[1] == r[3] && r[0] != r[1]
}

// callVariants are spellings of three inputs; each group is one canonical input.
var callVariants = [][]string{
	{`{"path":"a.go"}`, `{ "path" : "a.go" }`, "\n{\"path\":\"a.go\"}\t"},
	{`{"path":"b.go","n":1}`, `{"n":1,"path":"b.go"}`},
	{`not json`, ` not json `},
}

func drawCalls(t *rapid.T) (tools []string, groups []int, inputs []string) {
	n := rapid.IntRange(1, 25).Draw(t, "n")
	for i := range n {
		tools = append(tools, rapid.SampledFrom([]string{"read_file", "list_files"}).Draw(t, fmt.Sprint("tool", i)))
		g := rapid.IntRange(0, len(callVariants)-1).Draw(t, fmt.Sprint("group", i))
		groups = append(groups, g)
		inputs = append(inputs, rapid.SampledFrom(callVariants[g]).Draw(t, fmt.Sprint("input", i)))
	}
	return
}

func TestINV003PingPong(t *testing.T) {
	t.Run("three identical calls", func(t *testing.T) {
		g := mustNew(t, Config{})
		for i, in := range []string{`{"path":"a"}`, `{"path":"a"}`, ` {"path" :"a"}`} {
			v := g.CheckToolCall("read_file", in)
			if (i < 2) != (v.Kind == Allow) {
				t.Fatalf("call %d: %v", i+1, v)
			}
			if i == 2 && (v.Kind != Block || v.Invariant != InvPingPong ||
				!strings.Contains(v.Message, "3 times with the same arguments") || !strings.Contains(v.Message, "final answer")) {
				t.Fatalf("third call: %v", v)
			}
		}
	})
	t.Run("rapid", rapid.MakeCheck(func(t *rapid.T) {
		g := mustNew(t, Config{MaxToolCalls: 1000})
		m := &callModel{seen: map[string]int{}}
		tools, groups, inputs := drawCalls(t)
		for i := range tools {
			count, _ := m.add(fmt.Sprint(tools[i], groups[i]))
			v := g.CheckToolCall(tools[i], inputs[i])
			if (v.Invariant == InvPingPong) != (count >= 3) || (count >= 3 && v.Kind != Block) {
				t.Fatalf("call %d (%s %q) seen %d times: %v", i, tools[i], inputs[i], count, v)
			}
		}
	}))
}

func TestINV004Oscillation(t *testing.T) {
	t.Run("A-B-A-B", func(t *testing.T) {
		g := mustNew(t, Config{})
		seq := []string{"read_file", "list_files", "read_file", "list_files"}
		for i, name := range seq {
			v := g.CheckToolCall(name, `{"path":"x"}`)
			if (i == 3) != (v.Kind == Block) || i == 3 && (v.Invariant != InvOscillate ||
				!strings.Contains(v.Message, `"read_file" and "list_files"`)) {
				t.Fatalf("call %d: %v", i+1, v)
			}
		}
	})
	t.Run("rapid", rapid.MakeCheck(func(t *rapid.T) {
		g := mustNew(t, Config{MaxToolCalls: 1000})
		m := &callModel{seen: map[string]int{}}
		tools, groups, inputs := drawCalls(t)
		for i := range tools {
			count, alt := m.add(fmt.Sprint(tools[i], groups[i]))
			v := g.CheckToolCall(tools[i], inputs[i])
			want := alt && count < 3 // ping-pong takes precedence
			if (v.Invariant == InvOscillate) != want || (want && v.Kind != Block) {
				t.Fatalf("call %d: alternating=%v count=%d: %v", i, alt, count, v)
			}
			if v.Kind == Allow && (alt || count >= 3) {
				t.Fatalf("call %d allowed although repeating", i)
			}
		}
	}))
}

func TestINV005CostBudget(t *testing.T) {
	t.Run("unlimited", func(t *testing.T) {
		g := mustNew(t, Config{})
		for range 50 {
			if v := g.RecordResponse("stop", 0, 1e6); v.Kind != Allow {
				t.Fatalf("unlimited cost: %v", v)
			}
		}
	})
	t.Run("rapid", rapid.MakeCheck(func(t *rapid.T) {
		budget := rapid.Float64Range(0.01, 10).Draw(t, "budget")
		g := mustNew(t, Config{MaxCostUSD: budget})
		spent, broken := 0.0, false
		for i, c := range rapid.SliceOfN(rapid.Float64Range(0, 2), 1, 30).Draw(t, "costs") {
			spent += c
			broken = broken || spent > budget
			v := g.RecordResponse("stop", 1, c)
			if (v.Kind == CircuitBreak) != broken || broken && v.Invariant != InvCost {
				t.Fatalf("response %d: spent %v of %v: %v", i, spent, budget, v)
			}
		}
		if g.CostUSD() != spent {
			t.Fatalf("CostUSD = %v, want %v", g.CostUSD(), spent)
		}
	}))
}

func propMaxTokens(t interface{ Fatalf(string, ...any) }, reasons []string) {
	g, _ := New(Config{})
	streak, broken := 0, false
	for i, r := range reasons {
		if r == "length" || r == "max_tokens" {
			streak++
		} else {
			streak = 0
		}
		broken = broken || streak >= 5
		v := g.RecordResponse(r, 1, 0)
		if (v.Kind == CircuitBreak) != broken || broken && v.Invariant != InvMaxTokens {
			t.Fatalf("response %d of %q: streak %d: %v", i, reasons, streak, v)
		}
	}
}

func TestINV006MaxTokensStreak(t *testing.T) {
	t.Run("bounded", func(t *testing.T) {
		// Every sequence of up to 8 responses, each cut or not.
		for n := 0; n <= 8; n++ {
			for bits := range 1 << n {
				reasons := make([]string, n)
				for i := range reasons {
					reasons[i] = "stop"
					if bits&(1<<i) != 0 {
						reasons[i] = "length"
					}
				}
				propMaxTokens(t, reasons)
			}
		}
	})
	t.Run("rapid", rapid.MakeCheck(func(t *rapid.T) {
		propMaxTokens(t, rapid.SliceOfN(rapid.SampledFrom([]string{"length", "max_tokens", "stop", "tool_calls", ""}), 0, 40).Draw(t, "reasons"))
	}))
}

func TestINV007TokenBudget(t *testing.T) {
	t.Run("warn at 80 percent, break above", func(t *testing.T) {
		g := mustNew(t, Config{TokenBudget: 1000})
		for _, step := range []struct {
			tokens int
			want   Kind
		}{{700, Allow}, {100, Warn}, {100, Allow}, {100, Allow}, {1, CircuitBreak}} {
			if v := g.RecordResponse("stop", step.tokens, 0); v.Kind != step.want {
				t.Fatalf("at %d tokens: %v, want %v", g.Tokens(), v, step.want)
			}
		}
	})
	t.Run("rapid", rapid.MakeCheck(func(t *rapid.T) {
		budget := rapid.IntRange(0, 5000).Draw(t, "budget")
		g := mustNew(t, Config{TokenBudget: budget})
		used, warned, broken := 0, false, false
		for i, n := range rapid.SliceOfN(rapid.IntRange(0, 1500), 1, 20).Draw(t, "tokens") {
			used += n
			want := Allow
			if budget > 0 && !warned && float64(used) >= 0.8*float64(budget) {
				warned, want = true, Warn
			}
			if budget > 0 && used > budget || broken {
				broken, want = true, CircuitBreak
			}
			if v := g.RecordResponse("stop", n, 0); v.Kind != want {
				t.Fatalf("response %d: %d of %d tokens: %v, want %v", i, used, budget, v, want)
			}
		}
	}))
}

func TestINV012Capability(t *testing.T) {
	g := mustNew(t, Config{
		Capabilities:     []string{"fs.read"},
		ToolCapabilities: map[string]string{"read_file": "fs.read", "write_file": "fs.write", "fetch": CapNetwork},
	})
	for _, tc := range []struct {
		tool string
		want Kind
	}{{"read_file", Allow}, {"finish", Allow}, {"write_file", Block}, {"fetch", Block}} {
		p := g.Permits(tc.tool)
		v := g.CheckToolCall(tc.tool, "{}")
		if v.Kind != tc.want || p.Kind != tc.want {
			t.Fatalf("%s: CheckToolCall %v, Permits %v, want %v", tc.tool, v, p, tc.want)
		}
		if tc.want == Block && (v.Invariant != InvCapability || !strings.Contains(v.Message, "capability") ||
			!strings.Contains(v.Message, "not executed")) {
			t.Fatalf("%s: message %q", tc.tool, v.Message)
		}
	}
	if g.ToolCalls() != 4 {
		t.Fatalf("Permits must not count: %d calls", g.ToolCalls())
	}
}

func TestINV013SpawnDepth(t *testing.T) {
	for limit := 1; limit <= 4; limit++ {
		g := mustNew(t, Config{MaxSpawnDepth: limit})
		for d := -1; d <= limit+2; d++ {
			v := g.CheckSpawn(d)
			if (v.Kind == Block) != (d < 0 || d > limit) || v.Kind == Block && v.Invariant != InvSpawn {
				t.Fatalf("limit %d depth %d: %v", limit, d, v)
			}
		}
	}
}

func TestINV015SovereignTier(t *testing.T) {
	g := mustNew(t, Config{
		Tier:             TierSovereign,
		Capabilities:     []string{CapNetwork, "fs.read"},
		ToolCapabilities: map[string]string{"fetch": CapNetwork, "read_file": "fs.read"},
		AllowedHosts:     []string{"*"},
	})
	if v := g.CheckToolCall("fetch", `{"url":"https://example.com"}`); v.Kind != Block || v.Invariant != InvSovereign ||
		!strings.Contains(v.Message, "even though the capability is granted") {
		t.Fatalf("network tool under sovereign tier: %v", v)
	}
	if v := g.CheckHost("example.com"); v.Kind != Block || v.Invariant != InvSovereign {
		t.Fatalf("host under sovereign tier: %v", v)
	}
	if v := g.CheckToolCall("read_file", `{}`); v.Kind != Allow {
		t.Fatalf("local tool under sovereign tier: %v", v)
	}
	std := mustNew(t, Config{Capabilities: []string{CapNetwork}, ToolCapabilities: map[string]string{"fetch": CapNetwork}})
	if v := std.CheckToolCall("fetch", `{}`); v.Kind != Allow {
		t.Fatalf("network tool under standard tier: %v", v)
	}
}

func TestINV016WarningsSurfaced(t *testing.T) {
	t.Run("warning outranked in the same check", func(t *testing.T) {
		g := mustNew(t, Config{TokenBudget: 100, MaxCostUSD: 1})
		v := g.RecordResponse("stop", 90, 2)
		if v.Kind != CircuitBreak || v.Invariant != InvCost {
			t.Fatalf("verdict %v", v)
		}
		ev := g.Events()
		if len(ev) != 2 || ev[0].Invariant != InvCost || ev[1].Kind != Warn || ev[1].Invariant != InvTokens {
			t.Fatalf("events %v", ev)
		}
	})
	t.Run("rapid", rapid.MakeCheck(func(t *rapid.T) {
		g := mustNew(t, Config{TokenBudget: 500, MaxToolCalls: 15, MaxIterations: 10, MaxCostUSD: 3,
			AllowedHosts: []string{"example.com"}, ToolCapabilities: map[string]string{"w": "fs.write"}})
		for i := range rapid.IntRange(1, 40).Draw(t, "n") {
			before := len(g.Events())
			var v Verdict
			switch rapid.IntRange(0, 4).Draw(t, fmt.Sprint("op", i)) {
			case 0:
				v = g.CheckIteration()
			case 1:
				v = g.CheckToolCall(rapid.SampledFrom([]string{"r", "w"}).Draw(t, "tool"), rapid.SampledFrom([]string{"1", "2"}).Draw(t, "in"))
			case 2:
				v = g.RecordResponse(rapid.SampledFrom([]string{"stop", "length"}).Draw(t, "why"),
					rapid.IntRange(-5, 200).Draw(t, "tok"), rapid.Float64Range(-1, 1).Draw(t, "usd"))
			case 3:
				v = g.CheckHost(rapid.SampledFrom([]string{"example.com", "evil.com"}).Draw(t, "host"))
			case 4:
				v = g.CheckSpawn(rapid.IntRange(-1, 5).Draw(t, "depth"))
			}
			ev := g.Events()
			if len(ev) < before {
				t.Fatalf("events shrank")
			}
			if v.Kind == Warn && !containsVerdict(ev[before:], v) {
				t.Fatalf("returned warning %v is not logged", v)
			}
			if _, tripped := g.Tripped(); v.Kind != Allow && !tripped && !containsVerdict(ev[before:], v) {
				t.Fatalf("verdict %v is not logged", v)
			}
		}
	}))
}

func containsVerdict(vs []Verdict, v Verdict) bool {
	for _, w := range vs {
		if w == v {
			return true
		}
	}
	return false
}

func TestCanonical(t *testing.T) {
	for in, want := range map[string]string{
		`{"b":1,"a":[1, 2.50, "x<y"]}`: `{"a":[1,2.50,"x<y"],"b":1}`,
		"  plain text \n":              "plain text",
		`{"a":1} {"b":2}`:              `{"a":1} {"b":2}`,
		`"s"`:                          `"s"`,
	} {
		if got := Canonical(in); got != want {
			t.Errorf("Canonical(%q) = %q, want %q", in, got, want)
		}
	}
}
