package lspclient_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/agentverify/agentverify/lang/internal/lspclient"
)

// envLog names the file the scripted server appends every message it receives to; set,
// it makes the test binary that scripted server (see TestMain).
const envLog = "LSPCLIENT_TEST_LOG"

func TestMain(m *testing.M) {
	if log := os.Getenv(envLog); log != "" {
		serve(log)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// script is what a document's text tells the scripted server to do; text that is not
// JSON is an empty full report.
type script struct {
	Kind   *string           `json:"kind"`   // the report's kind; "full" when absent
	Items  []json.RawMessage `json:"items"`  // the report's diagnostics, as given
	Exit   string            `json:"exit"`   // "open", "pull": exit on receiving the document, its diagnostic request
	Config []string          `json:"config"` // ask workspace/configuration for these sections; the answer is the message of the one diagnostic
}

func parse(text string) script {
	var s script
	_ = json.Unmarshal([]byte(text), &s)
	return s
}

// scripted is a language server that logs every message it receives, keeps the open
// documents' text and answers textDocument/diagnostic as that text says.
type scripted struct {
	log  *os.File
	docs map[string]string // by URI
}

func serve(log string) {
	f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		panic(err)
	}
	h := &scripted{log: f, docs: map[string]string{}}
	stream := jsonrpc2.NewBufferedStream(stdio{}, jsonrpc2.VSCodeObjectCodec{})
	<-jsonrpc2.NewConn(context.Background(), stream, h).DisconnectNotify()
}

// Handle runs on the connection's goroutine, so the log is in the order received;
// diagnostics are answered on their own goroutine, free to call the client back.
func (h *scripted) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	line, _ := json.Marshal(message{req.Method, req.Params})
	_, _ = h.log.Write(append(line, '\n'))
	var p struct {
		TextDocument   struct{ URI, Text string }
		ContentChanges []struct{ Text string }
	}
	if req.Params != nil {
		_ = json.Unmarshal(*req.Params, &p)
	}
	uri := p.TextDocument.URI
	switch req.Method {
	case "initialize":
		_ = conn.Reply(ctx, req.ID, map[string]any{"capabilities": map[string]any{}})
	case "textDocument/didOpen":
		h.docs[uri] = p.TextDocument.Text
		if parse(p.TextDocument.Text).Exit == "open" {
			os.Exit(3)
		}
	case "textDocument/didChange":
		h.docs[uri] = p.ContentChanges[len(p.ContentChanges)-1].Text
	case "textDocument/didClose":
		delete(h.docs, uri)
	case "textDocument/diagnostic":
		go diagnose(ctx, conn, req.ID, parse(h.docs[uri]))
	default:
		if !req.Notif {
			_ = conn.Reply(ctx, req.ID, nil)
		}
	}
}

func diagnose(ctx context.Context, conn *jsonrpc2.Conn, id jsonrpc2.ID, s script) {
	if s.Exit == "pull" {
		os.Exit(3)
	}
	if s.Config != nil {
		items := []map[string]string{}
		for _, sec := range s.Config {
			items = append(items, map[string]string{"section": sec})
		}
		var got json.RawMessage
		if err := conn.Call(ctx, "workspace/configuration", map[string]any{"items": items}, &got); err != nil {
			got = json.RawMessage(fmt.Sprintf("%q", err.Error()))
		}
		d, _ := json.Marshal(map[string]any{"range": lspclient.Range{}, "severity": 1, "message": string(got)})
		s.Items = []json.RawMessage{d}
	}
	kind := "full"
	if s.Kind != nil {
		kind = *s.Kind
	}
	_ = conn.Reply(ctx, id, map[string]any{"kind": kind, "items": s.Items})
}

// stdio is the scripted server's end of the pipes.
type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error                { return os.Stdin.Close() }

// message is one message the server received.
type message struct {
	Method string           `json:"method"`
	Params *json.RawMessage `json:"params"`
}

// fixture is a project root, a pool running the scripted server on it, and the log of
// what that server (and every one started after it) received.
type fixture struct {
	cfg  lspclient.Config
	pool *lspclient.Pool
	log  string
	read int // lines of the log already returned by messages
}

func newFixture(t *testing.T) *fixture {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{pool: lspclient.NewPool(), log: filepath.Join(t.TempDir(), "log.jsonl")}
	t.Setenv(envLog, f.log) // the server inherits it
	t.Cleanup(func() { _ = f.pool.Close() })
	f.cfg = lspclient.Config{
		Name:       "scripted",
		Command:    []string{exe},
		Root:       root,
		Watched:    func(p string) bool { return strings.HasSuffix(p, ".py") },
		SkipDir:    func(_ fs.FS, p string) bool { return p == "skip" },
		LanguageID: func(string) string { return "python" },
	}
	return f
}

func (f *fixture) check(t *testing.T, files map[string]string) ([]lspclient.Diagnostic, error) {
	t.Helper()
	in := map[string][]byte{}
	for p, text := range files {
		in[p] = []byte(text)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return f.pool.Check(ctx, "key", f.cfg, in)
}

// messages returns the messages the server received since the last call, each as
// "method path [text]" with path relative to the root ("watched" events as path:type,
// sorted).
func (f *fixture) messages(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(f.log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")[f.read:]
	f.read += len(lines)
	rel := func(uri string) string { return strings.TrimPrefix(uri, "file://"+filepath.ToSlash(f.cfg.Root)+"/") }
	var out []string
	for _, line := range lines {
		var m message
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		var p struct {
			TextDocument   struct{ URI, Text string }
			ContentChanges []struct{ Text string }
			Changes        []struct {
				URI  string
				Type int
			}
		}
		if m.Params != nil {
			_ = json.Unmarshal(*m.Params, &p)
		}
		s := strings.TrimPrefix(m.Method, "textDocument/")
		switch m.Method {
		case "textDocument/didOpen":
			s += " " + rel(p.TextDocument.URI) + " " + p.TextDocument.Text
		case "textDocument/didChange":
			s += " " + rel(p.TextDocument.URI) + " " + p.ContentChanges[0].Text
		case "textDocument/didClose", "textDocument/diagnostic":
			s += " " + rel(p.TextDocument.URI)
		case "workspace/didChangeWatchedFiles":
			var cs []string
			for _, c := range p.Changes {
				cs = append(cs, fmt.Sprintf("%s:%d", rel(c.URI), c.Type))
			}
			slices.Sort(cs)
			s = "watched " + strings.Join(cs, " ")
		}
		out = append(out, s)
	}
	return out
}

func TestDiagnostics(t *testing.T) {
	f := newFixture(t)
	got, err := f.check(t, map[string]string{
		"pkg/a.py": `{"items": [
			{"range": {"start": {"line": 2, "character": 4}, "end": {"line": 2, "character": 9}}, "severity": 1, "code": "reportUndefinedVariable", "message": "\"x\" is not defined"},
			{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}}, "severity": 2, "code": 2304, "message": "second"}]}`,
		"b.py": `{"items": []}`,
		"c.py": `{"items": [{"range": {"start": {"line": 7, "character": 1}, "end": {"line": 7, "character": 3}}, "severity": 4, "message": "hint"}]}`,
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []lspclient.Diagnostic{
		{Path: "c.py", Range: lspclient.Range{Start: lspclient.Position{Line: 7, Character: 1}, End: lspclient.Position{Line: 7, Character: 3}}, Severity: 4, Message: "hint"},
		{Path: "pkg/a.py", Range: lspclient.Range{Start: lspclient.Position{Line: 2, Character: 4}, End: lspclient.Position{Line: 2, Character: 9}}, Severity: 1, Code: "reportUndefinedVariable", Message: `"x" is not defined`},
		{Path: "pkg/a.py", Range: lspclient.Range{End: lspclient.Position{Line: 1}}, Severity: 2, Code: float64(2304), Message: "second"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("diagnostics\n got %+v\nwant %+v", got, want)
	}
}

// TestDocuments checks that the server's open documents are kept exactly the checked
// ones, their text sent only when it changed.
func TestDocuments(t *testing.T) {
	f := newFixture(t)
	steps := []struct {
		files map[string]string
		want  []string
	}{
		{map[string]string{"a.py": "x = 1", "b.py": "y = 1"},
			[]string{"initialize", "initialized", "didOpen a.py x = 1", "didOpen b.py y = 1", "diagnostic a.py", "diagnostic b.py"}},
		{map[string]string{"a.py": "x = 1", "b.py": "y = 1"},
			[]string{"diagnostic a.py", "diagnostic b.py"}},
		{map[string]string{"a.py": "x = 2", "b.py": "y = 1"},
			[]string{"didChange a.py x = 2", "diagnostic a.py", "diagnostic b.py"}},
		{map[string]string{"a.py": "x = 2"},
			[]string{"didClose b.py", "diagnostic a.py"}},
		{map[string]string{"a.py": "x = 2", "b.py": "y = 1"},
			[]string{"didOpen b.py y = 1", "diagnostic a.py", "diagnostic b.py"}},
	}
	for i, st := range steps {
		if _, err := f.check(t, st.files); err != nil {
			t.Fatalf("check %d: %v", i+1, err)
		}
		if got := f.messages(t); !slices.Equal(got, st.want) {
			t.Errorf("check %d: server received\n %q\nwant\n %q", i+1, got, st.want)
		}
	}
}

// TestWatchedFiles checks that the files changed on disk between two checks are
// reported, the files not watched (or in a skipped directory) not.
func TestWatchedFiles(t *testing.T) {
	f := newFixture(t)
	write := func(p, text string) {
		t.Helper()
		p = filepath.Join(f.cfg.Root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"w.py", "same.py", "gone.py", "notes.txt", "skip/s.py"} {
		write(p, "1")
	}
	check := func(want ...string) {
		t.Helper()
		if _, err := f.check(t, map[string]string{"a.py": "x"}); err != nil {
			t.Fatal(err)
		}
		if got := f.messages(t); !slices.Equal(got, want) {
			t.Errorf("server received\n %q\nwant\n %q", got, want)
		}
	}
	check("initialize", "initialized", "didOpen a.py x", "diagnostic a.py")
	write("w.py", "22")
	write("new.py", "1")
	write("notes.txt", "22")
	write("skip/s.py", "22")
	if err := os.Remove(filepath.Join(f.cfg.Root, "gone.py")); err != nil {
		t.Fatal(err)
	}
	check("watched gone.py:3 new.py:1 w.py:2", "diagnostic a.py")
	check("diagnostic a.py") // nothing changed since
}

// TestNotFull checks that a report other than a full one fails the check: it holds no
// diagnostics, and would pass the file unchecked.
func TestNotFull(t *testing.T) {
	for _, kind := range []string{"unchanged", "", "partial"} {
		t.Run(kind, func(t *testing.T) {
			f := newFixture(t)
			got, err := f.check(t, map[string]string{
				"a.py": `{"items": []}`,
				"b.py": fmt.Sprintf(`{"kind": %q, "items": [{"message": "lost"}]}`, kind),
			})
			if err == nil || !strings.Contains(err.Error(), "b.py") {
				t.Errorf("Check = %v, %v; want an error naming b.py", got, err)
			}
		})
	}
}

// TestServerDies checks that a server that exits during a check fails it, and that the
// next check starts a new one.
func TestServerDies(t *testing.T) {
	ok := map[string]string{"ok.py": `{"items": [{"severity": 1, "message": "found"}]}`}
	for _, tc := range []struct {
		name  string
		files map[string]string
	}{
		{"on didOpen", map[string]string{"a.py": `{"exit": "open"}`}},
		{"before answering", map[string]string{"a.py": `{"exit": "pull"}`}},
		{"after the first file", map[string]string{"a.py": ok["ok.py"], "b.py": `{"exit": "pull"}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			if got, err := f.check(t, tc.files); err == nil {
				t.Fatalf("Check = %v, nil; want an error", got)
			}
			got, err := f.check(t, ok)
			if err != nil {
				t.Fatalf("Check after the server died: %v", err)
			}
			if len(got) != 1 || got[0].Message != "found" {
				t.Errorf("Check after the server died = %+v, want the one diagnostic", got)
			}
			if n := strings.Count(strings.Join(f.messages(t), "\n"), "initialized"); n != 2 {
				t.Errorf("%d servers initialised, want 2", n)
			}
		})
	}
}

// TestConfiguration checks that workspace/configuration is answered, a section at a
// time, by Config.Settings.
func TestConfiguration(t *testing.T) {
	for _, tc := range []struct {
		name     string
		settings func(string) any
		want     string
	}{
		{"nil", nil, `[{},{}]`},
		{"settings", func(s string) any { return map[string]string{"section": s} }, `[{"section":"python"},{"section":"python.analysis"}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.cfg.Settings = tc.settings
			got, err := f.check(t, map[string]string{"a.py": `{"config": ["python", "python.analysis"]}`})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].Message != tc.want {
				t.Errorf("server got configuration %+v, want %s", got, tc.want)
			}
		})
	}
}
