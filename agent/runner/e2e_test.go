package runner_test

import (
	"net/http"
	"os"
	"sync/atomic"
	"time"

	"github.com/agentverify/agentverify/agent/llm"
	"github.com/agentverify/agentverify/agent/toolout"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/agent/runner"
	"github.com/agentverify/agentverify/internal/testkit/shorttest"
)

const (
	hallucinated = "package m\n\nimport \"strings\"\n\n// Rev reverses s.\nfunc Rev(s string) string { return strings.Reverse(s) }\n"
	corrected    = "package m\n\nimport \"slices\"\n\n// Rev reverses s.\nfunc Rev(s string) string {\n\tr := []rune(s)\n\tslices.Reverse(r)\n\treturn string(r)\n}\n"
)

// A hallucinated write is rejected and never reaches the disk; the model sees the
// violation, repairs it, and the corrected write lands. The audit log holds every
// decision but never the API key, and replaying it reproduces every decision.
func TestHallucinatedWriteRejectedThenCorrected(t *testing.T) {
	dir := newRepo(t, nil)
	const key = "sk-test-SECRET-0123456789"
	t.Setenv("AGENT_TEST_KEY", key)
	s := newServer(t,
		call("write_file", map[string]string{"path": "rev.go", "content": hallucinated}),
		call("write_file", map[string]string{"path": "rev.go", "content": corrected}),
		call("verify", map[string]string{}),
		answer("Added Rev. (the key was "+key+")"),
	)
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	o := agent(t, runArgs(s, dir, "--task", "add a Rev function", "--api-key-env", "AGENT_TEST_KEY", "--audit", audit)...)
	if o.code != 0 {
		t.Fatalf("want exit 0, got %s", o)
	}
	if !strings.HasPrefix(o.stdout, "Added Rev.") || strings.Contains(o.stdout+o.stderr, key) {
		t.Errorf("stdout must be the answer with the key redacted: %s", o)
	}
	rejected := s.lastTool(t, 1)
	for _, want := range []string{"NOT written", "hallucination/unknown-symbol rev.go:6: strings.Reverse is not declared by package strings (", "slices.Reverse"} {
		if !strings.Contains(rejected, want) {
			t.Errorf("tool result of the hallucinated write lacks %q:\n%s", want, rejected)
		}
	}
	if got := s.lastTool(t, 2); !strings.HasPrefix(got, "wrote rev.go") {
		t.Errorf("corrected write: %s", got)
	}
	if got := s.lastTool(t, 3); !strings.HasPrefix(got, "verification passed (1 files changed)") {
		t.Errorf("verify: %s", got)
	}
	if got, _ := readFile(t, filepath.Join(dir, "rev.go")); got != corrected {
		t.Errorf("rev.go on disk = %q, want the corrected content", got)
	}
	for i, a := range s.auth {
		if a != "Bearer "+key {
			t.Errorf("request %d: Authorization %q", i, a)
		}
	}
	if !strings.Contains(o.stderr, "final verification passed") {
		t.Errorf("stderr lacks the final verdict:\n%s", o.stderr)
	}
	data, _ := os.ReadFile(audit)
	if strings.Contains(string(data), key) {
		t.Fatal("the audit log contains the API key")
	}
	recs := readAudit(t, audit)
	var kinds []string
	for _, r := range recs {
		k := r.Kind
		if r.Tool != "" {
			k += ":" + r.Tool + ":" + r.Outcome + ":" + string(r.Verdict)
		}
		kinds = append(kinds, k)
	}
	want := "start model tool_call:write_file:invoke:failed model tool_call:write_file:invoke:passed model tool_call:verify:invoke:passed model final_answer stop"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("audit decisions:\n got %s\nwant %s", got, want)
	}
	r := agent(t, "replay", audit)
	if r.code != 0 || !strings.Contains(r.stdout, "replayed identically") {
		t.Errorf("replay: %s", r)
	}
	// The tree the run left is the one a fresh verification passes.
	if st := gitCmd(t, dir, "status", "--porcelain"); strings.TrimSpace(st) != "?? rev.go" {
		t.Errorf("git status: %q", st)
	}
}

// A path the policy forbids is refused by the scope dimension, and the policy file itself
// can never be written; neither reaches the disk.
func TestForbiddenPathRefused(t *testing.T) {
	pol := "version: 1\nname: test\nscope:\n  forbidden_paths: [\"vendor/**\"]\nhallucination: {}\n"
	dir := newRepo(t, map[string]string{".agentverify.yaml": pol})
	s := newServer(t,
		call("write_file", map[string]string{"path": "vendor/x/x.go", "content": "package x\n"}),
		call("write_file", map[string]string{"path": ".agentverify.yaml", "content": "version: 1\n"}),
		answer("gave up"),
	)
	o := agent(t, runArgs(s, dir, "--task", "t")...)
	if o.code != 0 {
		t.Fatalf("%s", o)
	}
	if got := s.lastTool(t, 1); !strings.Contains(got, "scope/forbidden-path vendor/x/x.go:1:") || !strings.Contains(got, "NOT written") {
		t.Errorf("forbidden write: %s", got)
	}
	if _, ok := readFile(t, filepath.Join(dir, "vendor/x/x.go")); ok {
		t.Error("vendor/x/x.go was written")
	}
	if got := s.lastTool(t, 2); !strings.Contains(got, "must not change its own gate") {
		t.Errorf("policy write: %s", got)
	}
	if got, _ := readFile(t, filepath.Join(dir, ".agentverify.yaml")); got != pol {
		t.Error("the policy was changed")
	}
}

// Paths that leave the working directory — "..", absolute, through a symbolic link, into
// .git — are refused for reading and writing, and nothing outside is touched.
func TestPathEscapeRefused(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("top secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := newRepo(t, nil)
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ tool, path string }{
		{"read_file", "../secret.txt"},
		{"read_file", filepath.Join(outside, "secret.txt")},
		{"read_file", "link/secret.txt"},
		{"read_file", ".git/config"},
		{"write_file", "../escape.go"},
		{"write_file", filepath.Join(outside, "escape.go")},
		{"write_file", "link/escape.go"},
		{"write_file", ".git/hooks/pre-commit"},
		{"edit_file", "link/secret.txt"},
		{"list_files", "link"},
		{"list_files", ".."},
	}
	var script []turn
	for _, c := range cases {
		args := map[string]string{"path": c.path}
		switch c.tool {
		case "write_file":
			args["content"] = "package m\n"
		case "edit_file":
			args["old_string"], args["new_string"] = "top", "bottom"
		}
		script = append(script, call(c.tool, args))
	}
	script = append(script, answer("done"))
	s := newServer(t, script...)
	o := agent(t, runArgs(s, dir, "--task", "t", "--max-steps", "50")...)
	if o.code != 0 {
		t.Fatalf("%s", o)
	}
	for i, c := range cases {
		got := s.lastTool(t, i+1)
		if !strings.HasPrefix(got, "error: ") || strings.Contains(got, "top secret") {
			t.Errorf("%s %s: not refused: %s", c.tool, c.path, got)
		}
	}
	entries, _ := os.ReadDir(outside)
	if len(entries) != 1 {
		t.Errorf("something was written outside: %v", entries)
	}
	if got, _ := readFile(t, filepath.Join(outside, "secret.txt")); got != "top secret" {
		t.Error("the file outside was changed")
	}
}

// Three identical calls: the third is blocked by the loop guard (INV-003), and the
// model is told so; the run goes on.
func TestThreeIdenticalCallsBlocked(t *testing.T) {
	dir := newRepo(t, nil)
	s := newServer(t,
		call("read_file", `{"path":"m.go"}`),
		call("read_file", `{"path": "m.go"}`),
		call("read_file", `{ "path" : "m.go" }`),
		answer("done"),
	)
	audit := filepath.Join(t.TempDir(), "a.jsonl")
	o := agent(t, runArgs(s, dir, "--task", "t", "--audit", audit)...)
	if o.code != 0 {
		t.Fatalf("%s", o)
	}
	if got := s.lastTool(t, 2); !strings.Contains(got, "Hello says hello") {
		t.Errorf("second read must run: %s", got)
	}
	if got := s.lastTool(t, 3); !strings.Contains(got, "blocked by the loop guard (INV-003)") {
		t.Errorf("third read: %s", got)
	}
	var blocked int
	for _, r := range readAudit(t, audit) {
		if r.Outcome == "blocked" {
			blocked++
			if len(r.Guard) == 0 || r.Guard[0].Invariant != "INV-003" {
				t.Errorf("blocked record without the guard verdict: %+v", r)
			}
		}
	}
	if blocked != 1 {
		t.Errorf("%d blocked decisions, want 1", blocked)
	}
}

// Budgets and the step limit stop the run with exit 1 and say why.
func TestBudgetsStopRun(t *testing.T) {
	dir := newRepo(t, nil)
	cases := []struct {
		name   string
		flags  []string
		slow   bool
		reason string
	}{
		{"max steps", []string{"--max-steps", "3"}, false, "max steps reached (3)"},
		{"token budget", []string{"--token-budget", "250"}, false, "token budget"},
		{"time budget", []string{"--time-budget", "300ms"}, true, "time budget exhausted"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newServer(t)
			var n atomic.Int64
			s.fallback = func(w http.ResponseWriter, req *llm.Request) {
				if c.slow {
					time.Sleep(120 * time.Millisecond)
				}
				// Distinct calls, so that the guard's repetition check stays out of it.
				call("read_file", map[string]any{"path": "m.go", "n": n.Add(1)})(w, req)
			}
			o := agent(t, runArgs(s, dir, append([]string{"--task", "loop forever"}, c.flags...)...)...)
			if o.code != 1 || !strings.Contains(o.stderr, "stopped: "+c.reason) {
				t.Errorf("want exit 1 and %q: %s", c.reason, o)
			}
			if o.stdout != "" {
				t.Errorf("no answer expected on stdout: %q", o.stdout)
			}
		})
	}
}

// Server failures — a 500, a malformed body, malformed tool arguments — are survived: the
// first two are retried, the third is reported to the model as a tool error.
func TestServerErrorsSurvived(t *testing.T) {
	dir := newRepo(t, nil)
	s := newServer(t,
		status(500, `{"error":{"message":"model overloaded"}}`),
		status(200, `{"choices": [`),
		call("read_file", `{"path": "m.go"`),
		call("read_file", `{"path": "m.go", "bogus": 1}`),
		call("no_such_tool", `{}`),
		answer("survived"),
	)
	audit := filepath.Join(t.TempDir(), "a.jsonl")
	o := agent(t, runArgs(s, dir, "--task", "t", "--audit", audit)...)
	if o.code != 0 || o.stdout != "survived\n" {
		t.Fatalf("%s", o)
	}
	if got := s.lastTool(t, 3); !strings.Contains(got, "invalid arguments") {
		t.Errorf("malformed arguments: %s", got)
	}
	if got := s.lastTool(t, 4); !strings.Contains(got, `unknown field "bogus"`) {
		t.Errorf("unknown argument: %s", got)
	}
	if got := s.lastTool(t, 5); !strings.Contains(got, `refused: unknown tool "no_such_tool"`) {
		t.Errorf("unknown tool: %s", got)
	}
	if !strings.Contains(o.stderr, "model overloaded (retrying)") {
		t.Errorf("stderr lacks the server's message:\n%s", o.stderr)
	}
	if r := agent(t, "replay", audit); r.code != 0 {
		t.Errorf("replay: %s", r)
	}

	// A server that keeps failing stops the run with its message; a 4xx is not retried.
	for _, c := range []struct {
		name     string
		turn     turn
		requests int
	}{
		{"500", status(500, `{"error":{"message":"model overloaded"}}`), 3},
		{"401", status(401, `{"error":"bad key"}`), 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newServer(t)
			s.fallback = c.turn
			o := agent(t, runArgs(s, dir, "--task", "t")...)
			if o.code != 1 || !strings.Contains(o.stderr, "stopped: tool-error: model:") {
				t.Errorf("%s", o)
			}
			if n := s.count(); n != c.requests {
				t.Errorf("%d requests, want %d", n, c.requests)
			}
		})
	}
}

// Tools the grant does not allow are not offered, and refused if called anyway.
func TestUngrantedToolsNotOfferedAndRefused(t *testing.T) {
	dir := newRepo(t, nil)
	s := newServer(t,
		call("write_file", map[string]string{"path": "x.go", "content": "package m\n"}),
		call("run_command", map[string]any{"command": "touch y.go"}),
		answer("done"),
	)
	o := agent(t, runArgs(s, dir, "--task", "t", "--access", "read")...)
	if o.code != 0 {
		t.Fatalf("%s", o)
	}
	var offered []string
	for _, tl := range s.request(t, 0).Tools {
		offered = append(offered, tl.Function.Name)
	}
	if got := strings.Join(offered, " "); got != "read_file list_files verify finish" {
		t.Errorf("offered %s", got)
	}
	if got := s.lastTool(t, 1); !strings.Contains(got, "refused: tool \"write_file\" needs write access; granted read") {
		t.Errorf("write: %s", got)
	}
	if got := s.lastTool(t, 2); !strings.Contains(got, "execution is not allowed") {
		t.Errorf("run_command: %s", got)
	}
	for _, f := range []string{"x.go", "y.go"} {
		if _, ok := readFile(t, filepath.Join(dir, f)); ok {
			t.Errorf("%s was written", f)
		}
	}
}

// A tampered recording is caught: a replay whose decisions differ exits 1 and names them.
func TestReplayDetectsDivergence(t *testing.T) {
	dir := newRepo(t, nil)
	s := newServer(t,
		call("write_file", map[string]string{"path": "rev.go", "content": corrected}),
		answer("done"),
	)
	audit := filepath.Join(t.TempDir(), "a.jsonl")
	if o := agent(t, runArgs(s, dir, "--task", "t", "--audit", audit)...); o.code != 0 {
		t.Fatalf("%s", o)
	}
	data, err := os.ReadFile(audit)
	if err != nil {
		t.Fatal(err)
	}
	tampered := strings.Replace(string(data), `"access":"write"`, `"access":"read"`, 1)
	if tampered == string(data) {
		t.Fatal("no access setting in the audit log")
	}
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte(tampered), 0o644)
	o := agent(t, "replay", bad)
	if o.code != 1 || !strings.Contains(o.stdout, `outcome recorded "invoke", replayed "denied"`) {
		t.Errorf("%s", o)
	}
	if o := agent(t, "replay", filepath.Join(dir, "m.go")); o.code != 2 {
		t.Errorf("replaying a non-audit file: %s", o)
	}
	_ = runner.KindStart
}

// --dir may be a subdirectory of a repository (paths stay relative to it) or a directory
// outside any repository (the final verification checks the written files as they are).
func TestDirSubdirectoryAndNoRepository(t *testing.T) {
	shorttest.Slow(t, "runs the agent loop over real repositories and Go loads")
	repo := newRepo(t, map[string]string{"sub/s.go": "package sub\n"})
	plain := t.TempDir()
	os.WriteFile(filepath.Join(plain, "go.mod"), []byte("module example.com/p\n\ngo 1.22\n"), 0o644)
	for _, c := range []struct {
		name, dir, file, final string
	}{
		{"subdirectory", filepath.Join(repo, "sub"), filepath.Join(repo, "sub", "rev.go"), "final verification passed (1 files changed)"},
		{"no repository", plain, filepath.Join(plain, "rev.go"), "not in a git repository"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newServer(t,
				call("write_file", map[string]string{"path": "rev.go", "content": strings.Replace(hallucinated, "package m", "package sub", 1)}),
				call("write_file", map[string]string{"path": "rev.go", "content": strings.Replace(corrected, "package m", "package sub", 1)}),
				answer("ok"),
			)
			o := agent(t, runArgs(s, c.dir, "--task", "t")...)
			if o.code != 0 || !strings.Contains(o.stderr, c.final) {
				t.Fatalf("%s", o)
			}
			if got := s.lastTool(t, 1); !strings.Contains(got, "hallucination/unknown-symbol rev.go:6:") {
				t.Errorf("rejection: %s", got)
			}
			if got, _ := readFile(t, c.file); !strings.Contains(got, "slices.Reverse") {
				t.Errorf("%s: %q", c.file, got)
			}
		})
	}
}

// The conversation sent to the model stays within its window: old turns are dropped, the
// system prompt with the task is always kept, and long tool output is truncated.
func TestContextStaysInWindow(t *testing.T) {
	big := strings.Repeat("// padding line of a large file\n", 2000)
	dir := newRepo(t, map[string]string{"big.go": "package m\n" + big})
	var script []turn
	for i := 0; i < 6; i++ {
		script = append(script, call("read_file", map[string]any{"path": []string{"big.go", "./big.go", "m.go"}[i%3]}))
	}
	script = append(script, answer("read"))
	s := newServer(t, script...)
	o := agent(t, runArgs(s, dir, "--task", "remember TASK-MARKER-42", "--context-tokens", "4000")...)
	if o.code != 0 {
		t.Fatalf("%s", o)
	}
	for i := 0; i < s.count(); i++ {
		req := s.request(t, i)
		var chars int
		for _, m := range req.Messages {
			chars += len(m.Content)
			for _, tc := range m.ToolCalls {
				chars += len(tc.Function.Arguments) + len(tc.Function.Name)
			}
		}
		if est := chars / 4; est > 4000 {
			t.Errorf("request %d: ~%d tokens, window 4000", i, est)
		}
		if req.Messages[0].Role != "system" || !strings.Contains(req.Messages[0].Content, "TASK-MARKER-42") {
			t.Errorf("request %d lost the task", i)
		}
	}
	if got := s.lastTool(t, 1); len(got) > toolout.DefaultOutputLimit+100 || !strings.HasPrefix(got, "package m\n") {
		t.Errorf("tool output not truncated to its head and tail: %d characters", len(got))
	}
}
