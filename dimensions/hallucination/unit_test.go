package hallucination

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/change/editset"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/internal/testkit/pathenv"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/commonlisp"
	"github.com/agentverify/agentverify/lang/golang"
	"github.com/agentverify/agentverify/lang/golang/load"
	"github.com/agentverify/agentverify/lang/python"
	"github.com/agentverify/agentverify/lang/typescript"
	"github.com/agentverify/agentverify/policy"
)

// writeTree writes a module for the tests below.
func writeTree(t *testing.T, files map[string]string) string {
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

func passFor(t *testing.T, root string, edits []editset.Edit) *check.Pass {
	t.Helper()
	set, err := editset.Build(root, edits)
	if err != nil {
		t.Fatal(err)
	}
	return &check.Pass{Context: context.Background(), Changes: set, Policy: policy.Default(), Mode: check.Diff, Languages: languages}
}

// An in-memory edit is checked as proposed, not as on disk, and a second edit of the same
// package through a shared loader takes the warm path.
func TestInMemoryEditAndWarmPath(t *testing.T) {
	root := writeTree(t, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.22\n",
		"app/app.go": "package app\n\nimport \"os\"\n\nfunc Home() string { return os.Getenv(\"HOME\") }\n",
	})
	l := load.New(load.Options{})
	dim := Dimension
	for i, name := range []string{"GetEnv", "Getenvv"} {
		src := "package app\n\nimport \"os\"\n\nfunc Home() string { return os." + name + "(\"HOME\") }\n"
		pass := passFor(t, root, []editset.Edit{{Path: "app/app.go", Content: []byte(src)}})
		pass.Languages = lang.Registry{golang.NewWarm(l)}
		fs, err := dim.Run(pass)
		if err != nil {
			t.Fatal(err)
		}
		if len(fs) != 1 || fs[0].Rule != RuleUnknownSymbol || fs[0].Location != (check.Location{File: "app/app.go", Line: 5, Column: 32, EndLine: 5, EndColumn: 32 + len(name)}) {
			t.Fatalf("edit %d: findings %+v", i, fs)
		}
		if !strings.Contains(fs[0].Suggestion, "os.Getenv") {
			t.Fatalf("edit %d: suggestion %q", i, fs[0].Suggestion)
		}
	}
	// The first edit loads the disk state cold and re-checks the edit on the warm path;
	// the second edit is warm only.
	if cold, warm := l.Stats(); cold != 1 || warm != 2 {
		t.Fatalf("cold=%d warm=%d, want 1 and 2", cold, warm)
	}
}

// A go.mod that is broken at the base and not touched by the change is no finding of the
// change: the dimension fails (the engine reports hallucination/internal-error).
func TestBrokenBaseGoModFailsClosed(t *testing.T) {
	root := writeTree(t, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.22\n\nrequire (\n",
		"app/app.go": "package app\n",
	})
	_, err := Dimension.Run(passFor(t, root, []editset.Edit{{Path: "app/app.go", Content: []byte("package app\n\nfunc A() {}\n")}}))
	if err == nil || !strings.Contains(err.Error(), "go.mod") {
		t.Fatalf("err = %v, want a go list error about go.mod", err)
	}
}

func TestNoToolchainFailsClosed(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go toolchain")
	}
	root := writeTree(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "app/app.go": "package app\n"})
	pathenv.Hide(t, "go")
	_, err := Dimension.Run(passFor(t, root, []editset.Edit{{Path: "app/app.go", Content: []byte("package app\n\nfunc A() {}\n")}}))
	if err == nil {
		t.Fatal("ran without a Go toolchain and reported nothing")
	}
}

// In a go.work workspace, a change spanning two modules is checked as the change has
// it, not as the disk has it: module a sees what the change adds to module b.
func TestWorkspaceChangeSpanningModules(t *testing.T) {
	root := writeTree(t, map[string]string{
		"go.work":  "go 1.22\n\nuse (\n\t./a\n\t./b\n)\n",
		"a/go.mod": "module example.com/a\n\ngo 1.22\n",
		"a/a.go":   "package a\n",
		"b/go.mod": "module example.com/b\n\ngo 1.22\n",
		"b/b.go":   "package b\n\n// Old is old.\nfunc Old() int { return 1 }\n",
	})
	edits := []editset.Edit{
		{Path: "b/b.go", Content: []byte("package b\n\n// Old is old.\nfunc Old() int { return 1 }\n\n// New is new.\nfunc New() int { return 2 }\n")},
		{Path: "a/a.go", Content: []byte("package a\n\nimport \"example.com/b\"\n\nfunc Use() int { return b.Old() + b.New() + b.Nwe() }\n")},
	}
	fs, err := Dimension.Run(passFor(t, root, edits))
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 1 || fs[0].Rule != RuleUnknownSymbol || fs[0].Symbol != "b.Nwe" || !strings.Contains(fs[0].Suggestion, "b.New") {
		t.Fatalf("findings %+v, want only b.Nwe with b.New suggested", fs)
	}
}

// languages are the frontends the tests verify with, as the default registry has them.
var languages = lang.Registry{golang.New(), python.New(), commonlisp.New(), typescript.New()}
