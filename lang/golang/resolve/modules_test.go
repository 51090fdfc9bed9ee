package resolve

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/internal/testkit/modproxy"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/policy"
)

func TestModuleCandidates(t *testing.T) {
	for ipath, want := range map[string][]string{
		"github.com/foo/bar/baz/qux": {"github.com/foo/bar/baz/qux", "github.com/foo/bar/baz", "github.com/foo/bar"},
		"github.com/foo/bar":         {"github.com/foo/bar"},
		"example.com/a/b":            {"example.com/a/b", "example.com/a"},
		"gopkg.in/yaml.v3":           {"gopkg.in/yaml.v3"},
		"example.com/a/b/c/d/e/f":    {"example.com/a/b/c/d/e/f", "example.com/a/b/c/d/e", "example.com/a/b/c/d", "example.com/a/b/c"},
	} {
		if got := moduleCandidates(ipath); !slices.Equal(got, want) {
			t.Errorf("moduleCandidates(%q) = %q, want %q", ipath, got, want)
		}
	}
}

// TestClosestModules: did-you-mean for a module path compares paths on the same host.
func TestClosestModules(t *testing.T) {
	used := []string{"example.com/app", "example.com/lib", "example.com/other", "github.com/spf13/cobra", "github.com/spf13/pflag"}
	for path, want := range map[string][]string{
		"example.com/libb":       {"example.com/lib"},
		"github.com/spf13/cobar": {"github.com/spf13/cobra"},
		"gitlab.com/spf13/cobra": nil,
		"example.com/zzzzzzzz":   nil,
	} {
		if got := closestModules(path, used); !slices.Equal(got, want) {
			t.Errorf("closestModules(%q) = %q, want %q", path, got, want)
		}
	}
}

// checkRequest is a check-mode request over the module in dir, every Go file in it.
func checkRequest(t *testing.T, dir string) *lang.Request {
	t.Helper()
	set := &change.Set{Root: dir, HeadFS: os.DirFS(dir), NoBase: true, OnDisk: true}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".go") || d.Name() == "go.mod") && !strings.Contains(p, "/vendor/") {
			rel, _ := filepath.Rel(dir, p)
			data, _ := os.ReadFile(p)
			set.Files = append(set.Files, change.NewFile(filepath.ToSlash(rel), "", nil, data))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	set.Sort()
	return &lang.Request{Context: context.Background(), Changes: set, Policy: policy.Default()}
}

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestModulesMissingHereFailClosed: a module the trusted go.mod requires that cannot be
// had here — offline with an empty module cache, or absent from the vendor directory — is
// a setup error naming the command that fixes it, never a finding per import.
func TestModulesMissingHereFailClosed(t *testing.T) {
	p := modproxy.New(t, modproxy.Module{Path: "example.com/lib", Version: "v1.0.0", Files: map[string]string{"lib.go": "package lib\n\nfunc Hello() string { return \"hi\" }\n"}})
	app := "package app\n\nimport \"example.com/lib\"\n\nvar _ = lib.Hello()\n"
	gomod := "module example.com/app\n\ngo 1.22\n\nrequire example.com/lib v1.0.0\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		env   []string
		want  string
	}{
		{"offline", map[string]string{"go.mod": gomod, "go.sum": p.GoSum("example.com/lib@v1.0.0"), "app/app.go": app},
			[]string{"GOPROXY=off"}, "run `go mod download` in "},
		{"vendor directory lacks the module", map[string]string{"go.mod": gomod, "app/app.go": app,
			"vendor/modules.txt": "# example.com/lib v1.0.0\n## explicit; go 1.21\nexample.com/lib\n"},
			[]string{"GOPROXY=" + p.URL}, "run `go mod vendor` in "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, kv := range append(modproxy.FreshEnv(t), tc.env...) {
				k, v, _ := strings.Cut(kv, "=")
				t.Setenv(k, v)
			}
			dir := writeTree(t, tc.files)
			out, err := Resolver{}.Resolve(checkRequest(t, dir))
			var se *lang.SetupError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want+dir) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("Resolve = %v, %v; want a one-line setup error with %q", out, err, tc.want+dir)
			}
		})
	}
}

// TestSetupFix names the command for load failures that lie in the environment.
func TestSetupFix(t *testing.T) {
	for msg, want := range map[string]string{
		"go: inconsistent vendoring in /x: example.com/a@v1.0.0: is explicitly required in go.mod, but not marked as explicit in vendor/modules.txt": "run `go mod vendor` in DIR",
		"go: example.com/a@v1.0.0: module lookup disabled by GOPROXY=off":                                                                            "run `go mod download` in DIR",
		"go: go.mod requires go >= 1.99 (running go 1.26.8; GOTOOLCHAIN=local)":                                                                      "install the Go release go.mod names",
		"go list: some other trouble": "",
	} {
		if got := setupFix(msg); !strings.HasPrefix(got, want) || (want == "") != (got == "") {
			t.Errorf("setupFix(%q) = %q, want %q…", msg, got, want)
		}
	}
}
