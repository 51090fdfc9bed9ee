package runner_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/agent/llm"
	"github.com/agentverify/agentverify/agent/runner"
)

// checker is one engine shared by the tests, as a long-lived runner would keep it.
var checker = agentverify.NewChecker()

// newRepo makes a git repository with a Go module and one committed file.
func newRepo(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	all := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"m.go":   "package m\n\n// Hello says hello.\nfunc Hello() string { return \"hi\" }\n",
	}
	for k, v := range files {
		all[k] = v
	}
	for name, content := range all {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitCmd(t, dir, "init", "-q")
	gitCmd(t, dir, "add", "-A")
	gitCmd(t, dir, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init")
	return dir
}

func gitCmd(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// turn is one scripted answer of the fake model server.
type turn func(w http.ResponseWriter, req *llm.Request)

// reply answers with an assistant message.
func reply(msg llm.Message, usage int) turn {
	return func(w http.ResponseWriter, _ *llm.Request) {
		finish := "stop"
		if len(msg.ToolCalls) > 0 {
			finish = "tool_calls"
		}
		msg.Role = "assistant"
		json.NewEncoder(w).Encode(llm.Response{ID: "x", Model: "scripted",
			Choices: []llm.Choice{{Message: msg, FinishReason: finish}},
			Usage:   llm.Usage{PromptTokens: usage / 2, CompletionTokens: usage - usage/2, TotalTokens: usage}})
	}
}

// call asks for one tool call; args are marshalled unless they are a string.
func call(name string, args any) turn {
	s, ok := args.(string)
	if !ok {
		data, _ := json.Marshal(args)
		s = string(data)
	}
	return reply(llm.Message{ToolCalls: []llm.ToolCall{{ID: "", Type: "function",
		Function: llm.FunctionCall{Name: name, Arguments: s}}}}, 100)
}

func answer(text string) turn { return reply(llm.Message{Content: text}, 100) }

func status(code int, body string) turn {
	return func(w http.ResponseWriter, _ *llm.Request) {
		w.WriteHeader(code)
		io.WriteString(w, body)
	}
}

// server is a scripted OpenAI-compatible chat-completions server on 127.0.0.1.
type server struct {
	*httptest.Server
	mu       sync.Mutex
	script   []turn
	requests []*llm.Request
	auth     []string
	fallback turn // answers once the script is used up
}

func newServer(t testing.TB, script ...turn) *server {
	s := &server{script: script}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		var req llm.Request
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		s.mu.Lock()
		s.requests = append(s.requests, &req)
		s.auth = append(s.auth, r.Header.Get("Authorization"))
		var next turn
		if len(s.script) > 0 {
			next, s.script = s.script[0], s.script[1:]
		} else {
			next = s.fallback
		}
		s.mu.Unlock()
		if next == nil {
			status(500, `{"error":{"message":"script exhausted"}}`)(w, &req)
			return
		}
		next(w, &req)
	}))
	t.Cleanup(s.Close)
	return s
}

// count is the number of requests received.
func (s *server) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

func (s *server) url() string { return s.URL + "/v1" }

// request returns the i-th request the server received.
func (s *server) request(t *testing.T, i int) *llm.Request {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if i >= len(s.requests) {
		t.Fatalf("server received %d requests, want more than %d", len(s.requests), i)
	}
	return s.requests[i]
}

// lastTool returns the content of the last tool message of the i-th request.
func (s *server) lastTool(t *testing.T, i int) string {
	t.Helper()
	req := s.request(t, i)
	for j := len(req.Messages) - 1; j >= 0; j-- {
		if req.Messages[j].Role == "tool" {
			return req.Messages[j].Content
		}
	}
	t.Fatalf("request %d has no tool message", i)
	return ""
}

type outcome struct {
	code           int
	stdout, stderr string
}

// agent runs "agentverify agent ARGS..." with the shared checker.
func agent(t testing.TB, args ...string) outcome {
	t.Helper()
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	code := runner.Command(ctx, args, strings.NewReader(""), &out, &errb, checker)
	return outcome{code, out.String(), errb.String()}
}

// runArgs are the flags of a run against s in dir.
func runArgs(s *server, dir string, extra ...string) []string {
	return append([]string{"run", "--base-url", s.url(), "--model", "scripted", "--dir", dir,
		"--retry-delay", "1ms"}, extra...)
}

func readFile(t *testing.T, path string) (string, bool) {
	t.Helper()
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(data), true
}

func readAudit(t *testing.T, path string) []runner.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := runner.ReadAudit(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func (o outcome) String() string {
	return fmt.Sprintf("exit %d\nstdout:\n%s\nstderr:\n%s", o.code, o.stdout, o.stderr)
}
