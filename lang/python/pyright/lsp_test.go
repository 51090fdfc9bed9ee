package pyright_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/internal/testkit/pyrighttest"
	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/lang/python/pyright"
)

// TestServersOverlay checks files through a warm language server: the content given is
// what is checked (not the disk's), and a second check of other content sees only it.
func TestServersOverlay(t *testing.T) {
	shorttest.Slow(t, "starts pyright language servers; TestServersConcurrent covers them in -short")
	tool := pyrighttest.Require(t)
	root := t.TempDir()
	write(t, root, "pkg/util.py", "def helper(x):\n    return x\n")
	write(t, root, "pkg/app.py", "from pkg.util import helper\n")
	s := pyright.NewServers()
	defer s.Close()
	ctx := context.Background()
	cases := []struct {
		src  string
		want []string // messages, in order
	}{
		{"from pkg.util import helper\nhelper(1, 2)\nimport json\njson.dumpz(1)\n",
			[]string{"Expected 1 positional argument", `"dumpz" is not a known attribute of module "json"`}},
		{"from pkg.util import helper\nhelper(1)\n", nil},
		{"from pkg.util import helpr\n", []string{`"helpr" is unknown import symbol`}},
		// The same text again is not sent again: the server's report still holds.
		{"from pkg.util import helpr\n", []string{`"helpr" is unknown import symbol`}},
		{"from pkg.util import helper\nhelper(1)\n", nil},
	}
	for i, c := range cases {
		diags, err := s.Check(ctx, tool, root, pyright.Options{}, map[string][]byte{"pkg/app.py": []byte(c.src)})
		if err != nil {
			t.Fatalf("check %d: %v", i, err)
		}
		var got []string
		for _, d := range diags {
			if d.Severity == "error" {
				got = append(got, d.Message)
			}
			if d.File != "pkg/app.py" {
				t.Errorf("check %d: diagnostic of %q, want pkg/app.py", i, d.File)
			}
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("check %d: got %q, want %q", i, got, c.want)
		}
	}
}

func write(t *testing.T, root, p, content string) {
	t.Helper()
	full := filepath.Join(root, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestServersConcurrent: checks of one project from several goroutines each get the
// diagnostics of their own content.
func TestServersConcurrent(t *testing.T) {
	tool := pyrighttest.Require(t)
	root := t.TempDir()
	write(t, root, "a.py", "x = 1\n")
	s := pyright.NewServers()
	defer s.Close()
	errs := make(chan error, 4)
	for i := range 4 {
		go func() {
			name := fmt.Sprintf("missing%d", i)
			src := fmt.Sprintf("import json\njson.%s\n", name)
			diags, err := s.Check(context.Background(), tool, root, pyright.Options{}, map[string][]byte{"a.py": []byte(src)})
			switch {
			case err != nil:
				errs <- err
			case len(diags) != 1 || !strings.Contains(diags[0].Message, name):
				errs <- fmt.Errorf("check of %s: %+v", name, diags)
			default:
				errs <- nil
			}
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestServersSeeDisk: a file changed on disk between two checks (an accepted edit, a
// checkout) is seen as it now is.
func TestServersSeeDisk(t *testing.T) {
	shorttest.Slow(t, "starts pyright language servers; TestServersConcurrent covers them in -short")
	tool := pyrighttest.Require(t)
	root := t.TempDir()
	write(t, root, "util.py", "def helper(x):\n    return x\n")
	s := pyright.NewServers()
	defer s.Close()
	app := map[string][]byte{"app.py": []byte("from util import helper\nhelper(1, 2)\n")}
	for i, want := range []int{1, 0} {
		diags, err := s.Check(context.Background(), tool, root, pyright.Options{}, app)
		if err != nil {
			t.Fatal(err)
		}
		if len(diags) != want {
			t.Errorf("check %d: %d diagnostics %+v, want %d", i, len(diags), diags, want)
		}
		write(t, root, "util.py", "def helper(x, y):\n    return x + y\n")
	}
}
