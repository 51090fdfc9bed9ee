package python_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/internal/testkit/pathenv"
	"github.com/agentverify/agentverify/internal/testkit/pyrighttest"
	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python"
	"github.com/agentverify/agentverify/lang/python/pyright"
	"github.com/agentverify/agentverify/policy"
)

// tree writes files under a new directory and returns it.
func tree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// proposal is a change that edits files of the tree at root in memory (as the MCP server
// and the hooks verify an edit before it is written): the disk keeps the old content.
func proposal(root string, edits map[string]string) *lang.Request {
	set := &change.Set{Root: root, HeadFS: overlayFS{os.DirFS(root), edits}, OnDisk: true, NoBase: true}
	for p, c := range edits {
		set.Files = append(set.Files, change.NewFile(p, "", nil, []byte(c)))
	}
	set.Sort()
	return &lang.Request{Context: context.Background(), Changes: set, Policy: policy.Default()}
}

func resolve(t testing.TB, fe lang.Frontend, req *lang.Request) []string {
	t.Helper()
	ps, err := fe.(lang.Resolver).Resolve(req)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range ps {
		out = append(out, fmt.Sprintf("%s:%d:%d %s %s", p.Location.File, p.Location.Line, p.Location.Column, p.Kind, p.Suggestion))
	}
	return out
}

// TestResolveProposedEdit verifies an edit that is not on disk, cold (pyright over a
// mirror of the head) and warm (the language server with the edit overlaid): both see
// the edit, not the disk, and agree.
func TestResolveProposedEdit(t *testing.T) {
	shorttest.Slow(t, "starts pyright over a real project or corpus; the sampled cases of hallucination cover pyright in -short")
	pyrighttest.Require(t)
	root := tree(t, map[string]string{
		"pkg/__init__.py": "",
		"pkg/util.py":     "def helper(x):\n    return x\n",
		"pkg/app.py":      "from pkg.util import helper\n\nhelper(1)\n",
	})
	edits := map[string]string{"pkg/app.py": "from pkg.util import helper\nimport json\n\nhelper(1, 2)\njson.dumpz({})\n"}
	want := "pkg/app.py:4:11 wrong-arity |pkg/app.py:5:6 unknown-symbol did you mean dumps, dump?"
	cold := resolve(t, python.New(), proposal(root, edits))
	if got := strings.Join(cold, "|"); got != want {
		t.Errorf("cold:\n got %s\nwant %s", got, want)
	}
	servers := pyright.NewServers()
	defer servers.Close()
	warm := python.NewWarm(servers)
	for i := 0; i < 2; i++ {
		if got := strings.Join(resolve(t, warm, proposal(root, edits)), "|"); got != want {
			t.Errorf("warm, check %d:\n got %s\nwant %s", i, got, want)
		}
	}
	// The disk's content draws nothing: the warm server forgot the edit.
	if got := resolve(t, warm, proposal(root, map[string]string{"pkg/app.py": "from pkg.util import helper\n\nhelper(1)\n"})); len(got) != 0 {
		t.Errorf("warm, the disk's content: %q", got)
	}
}

// TestResolveNeedsPyright: Python code without pyright is an error with the install
// advice, never a pass; a change without Python files needs no pyright, and a file that
// does not parse gets its syntax errors.
func TestResolveNeedsPyright(t *testing.T) {
	t.Setenv(pyright.EnvVar, "")
	pathenv.Hide(t, "pyright")
	root := tree(t, map[string]string{"a.py": "x = 1\n"})
	_, err := python.New().(lang.Resolver).Resolve(proposal(root, map[string]string{"a.py": "import json\n"}))
	if err == nil || !strings.Contains(err.Error(), "npm install -g pyright@") {
		t.Fatalf("Resolve without pyright: %v; want the install advice", err)
	}
	if got := resolve(t, python.New(), proposal(root, map[string]string{"notes.txt": "x"})); len(got) != 0 {
		t.Errorf("no Python files: %q", got)
	}
	got := resolve(t, python.New(), proposal(root, map[string]string{"a.py": "def f(:\n    pass\n"}))
	if len(got) == 0 || !strings.Contains(got[0], "a.py:1:") || !strings.Contains(got[0], "syntax-error") {
		t.Errorf("a broken file: %q, want its syntax errors", got)
	}
}
