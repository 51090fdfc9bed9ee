package attacks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentverify/agentverify/internal/cli"
)

// run executes `run ...`: the command line in-process, an MCP tool over the stdio server,
// or one request to the MCP HTTP server. It also checks that the run wrote nothing.
func (r *runner) run(st step) {
	before := r.snapshot()
	var o outcome
	switch st.args[0] {
	case "mcp-tool":
		o = r.timed(func(ctx context.Context) outcome { return r.mcpTool(ctx, st.args[1], st.rest(3)) })
	case "mcp-http":
		o = r.timed(func(ctx context.Context) outcome { return r.mcpHTTP(ctx, st.args[1:]) })
	case "git", "git-served", "av-served":
		args := r.gitArgs(st.args)
		o = r.timed(func(ctx context.Context) outcome { return r.gitRun(ctx, args) })
	default:
		args := make([]string, len(st.args))
		for i, a := range st.args {
			args[i] = r.expand(a)
		}
		o = r.timed(func(ctx context.Context) outcome { return r.cli(ctx, args) })
	}
	o.cmd = strings.TrimSpace(st.rest(1))
	r.last = &o
	r.trace = append(r.trace, fmt.Sprintf("%s -> exit %d http %d: %s", o.cmd, o.exit, o.http, oneLine(o.out)))
	if o.hung {
		r.fails = append(r.fails, fmt.Sprintf("%s: hung (no answer within %v)", o.cmd, r.timeout))
		return
	}
	after := r.snapshot()
	for p, v := range after {
		if before[p] != v {
			r.fails = append(r.fails, fmt.Sprintf("%s: wrote %s", o.cmd, p))
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			r.fails = append(r.fails, fmt.Sprintf("%s: removed %s", o.cmd, p))
		}
	}
}

// cli runs agentverify's command line in the repository.
func (r *runner) cli(ctx context.Context, args []string) outcome {
	var out, errb bytes.Buffer
	env := &cli.Env{Stdin: strings.NewReader(r.stdin), Stdout: &out, Stderr: &errb, Dir: r.root, Getenv: func(string) string { return "" }}
	code := cli.Main(ctx, args, env)
	return outcome{exit: code, out: out.String() + errb.String()}
}

// mcpTool starts `agentverify mcp` on pipes, calls one tool and maps the result to an exit
// code: 2 for a tool error, 1 for a failed report, 0 otherwise.
func (r *runner) mcpTool(ctx context.Context, tool, argsJSON string) outcome {
	var args map[string]any
	if err := json.Unmarshal([]byte(r.expand(argsJSON)), &args); err != nil {
		return outcome{exit: -1, out: "bad tool arguments in the script: " + err.Error()}
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		env := &cli.Env{Stdin: inR, Stdout: outW, Stderr: &errb, Dir: r.root, Getenv: func(string) string { return "" }}
		done <- cli.Main(ctx, []string{"mcp"}, env)
		outW.Close()
	}()
	defer func() { inW.Close(); <-done }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "attacker", Version: "1"}, nil).Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		return outcome{exit: 2, out: "connect: " + err.Error()}
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return outcome{exit: 2, out: "protocol error: " + err.Error()}
	}
	return toolOutcome(res)
}

func toolOutcome(res *mcp.CallToolResult) outcome {
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	o := outcome{out: text.String()}
	var rep struct{ Status string }
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &rep)
	switch {
	case res.IsError:
		o.exit = 2
	case rep.Status == "failed":
		o.exit = 1
	}
	return o
}

// syncBuffer is a buffer the HTTP server's goroutine writes while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var servingRE = regexp.MustCompile(`serving http://(\S+?)/`)

// mcpHTTP starts `agentverify mcp --http 127.0.0.1:0` and sends one initialize request
// with the Origin args[0] ("-" for none) and, if given, the Host header args[1].
func (r *runner) mcpHTTP(ctx context.Context, args []string) outcome {
	ctx, cancel := context.WithCancel(ctx)
	var errb syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- cli.Main(ctx, []string{"mcp", "--http", "127.0.0.1:0"}, &cli.Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &errb, Dir: r.root, Getenv: func(string) string { return "" }})
	}()
	defer func() { cancel(); <-done }()
	var addr string
	for addr == "" {
		select {
		case code := <-done:
			done <- code
			return outcome{exit: code, out: errb.String()}
		case <-ctx.Done():
			return outcome{exit: 2, out: errb.String()}
		case <-time.After(20 * time.Millisecond):
		}
		if m := servingRE.FindStringSubmatch(errb.String()); m != nil {
			addr = m[1]
		}
	}
	return initialize(ctx, addr, args)
}

func initialize(ctx context.Context, addr string, args []string) outcome {
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"attacker","version":"1"}}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+addr+"/", strings.NewReader(body))
	if err != nil {
		return outcome{exit: 2, out: err.Error()}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if len(args) > 0 && args[0] != "-" {
		req.Header.Set("Origin", args[0])
	}
	if len(args) > 1 {
		req.Host = args[1]
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return outcome{exit: 2, out: err.Error()}
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	return outcome{http: resp.StatusCode, out: string(b)}
}

// want checks the last run against one expectation.
func (r *runner) want(st step) error {
	if r.last == nil {
		return fmt.Errorf("want before any run")
	}
	if r.last.hung || len(st.args) == 0 {
		return nil // a hang is already reported
	}
	if problem := check(r.last, st); problem != "" {
		r.fails = append(r.fails, fmt.Sprintf("%s: %s, got exit %d:\n%s", r.last.cmd, problem, r.last.exit, clip(r.last.out)))
	}
	return nil
}

// check returns what is wrong with o under the expectation st, or "".
func check(o *outcome, st step) string {
	arg := st.rest(2)
	alts := strings.Split(arg, "|")
	switch st.args[0] {
	case "exit":
		if !slices.Contains(alts, strconv.Itoa(o.exit)) {
			return "want exit " + arg
		}
	case "http":
		if !slices.Contains(alts, strconv.Itoa(o.http)) {
			return fmt.Sprintf("want HTTP status %s, got %d", arg, o.http)
		}
	case "rule":
		if !slices.ContainsFunc(alts, func(a string) bool { return reports(o.out, a) }) {
			return "want rule " + arg + " reported"
		}
	case "!rule":
		if reports(o.out, arg) {
			return "want no " + arg
		}
	case "out":
		if !slices.ContainsFunc(alts, func(a string) bool { return strings.Contains(o.out, a) }) {
			return fmt.Sprintf("want %q in the output", arg)
		}
	case "denied":
		if len(st.args) > 1 { // want denied AGENT: the agent's own deny format
			if !deniedBy(st.args[1], o) {
				return "want the edit denied as " + st.args[1] + " reads a deny"
			}
			return ""
		}
		if o.exit != 2 || !strings.Contains(o.out, `"permissionDecision":"deny"`) {
			return "want the edit denied (exit 2, permissionDecision deny)"
		}
	default:
		return "unknown expectation " + st.args[0]
	}
	return ""
}

// deniedBy reports whether o is a deny as agent reads it (hook AGENT's output is stdout
// followed by stderr): Codex, Gemini CLI and Windsurf need exit 2 and a reason on stderr,
// the others their JSON decision.
func deniedBy(agent string, o *outcome) bool {
	has := func(s string) bool { return strings.Contains(o.out, s) }
	switch agent {
	case "codex", "gemini", "windsurf":
		return o.exit == 2 && strings.TrimSpace(o.out) != ""
	case "cursor":
		return has(`"permission":"deny"`)
	case "copilot":
		return has(`"permissionDecision":"deny"`)
	case "cline":
		return has(`"cancel":true`)
	case "opencode":
		return o.exit == 2 && has(`"decision":"deny"`)
	}
	return o.exit == 2 && has(`"permissionDecision":"deny"`)
}

// reports tells whether out reports rule as a finding — its tag in text ("[rule]"), its
// field in JSON — and not merely a message that mentions it (a suppression comment names the
// rule it tries to silence).
func reports(out, rule string) bool {
	return regexp.MustCompile(`(?:^|\n|\\n|\[|"rule": ?"|\\"rule\\":\\")` + regexp.QuoteMeta(rule) + `(?:\]| |"|\\")`).MatchString(out)
}

func clip(s string) string {
	const max = 1500
	if len(s) > max {
		return s[:max] + "…"
	}
	return s
}

// oneLine shortens output to one line for the trace of a held attack.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 240 {
		s = s[:240] + "…"
	}
	return s
}

// TestReportsMatchesFindingsOnly: a rule counts as reported only as a finding's tag or
// field, never because a message names it.
func TestReportsMatchesFindingsOnly(t *testing.T) {
	for out, want := range map[string]bool{
		"m.go:8:1: error: x is undefined [hallucination/undefined]":                        true,
		`{"rule":"hallucination/undefined","severity":"error"}`:                            true,
		`{"rule": "hallucination/undefined"}`:                                              true,
		"hallucination/undefined m.go:8: error: x is undefined":                            true,
		`"reason":"fix these:\nhallucination/undefined m.go:8: error"`:                     true,
		"m.go:8:51: warning: suppression //agentverify:ignore hallucination/undefined why": false,
		"m.go:8:1: error: x [hallucination/undefined-ish]":                                 false,
	} {
		if got := reports(out, "hallucination/undefined"); got != want {
			t.Errorf("reports(%q) = %v, want %v", out, got, want)
		}
	}
}
