package complexity_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/dimensions/complexity"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang"
	"github.com/agentverify/agentverify/policy"
)

// TestRenameComparesWithOldPath: a renamed file's functions are compared with the base
// content under its old path, and the finding sits at the function's name.
func TestRenameComparesWithOldPath(t *testing.T) {
	base := "package p\n\nfunc F(a, b bool) bool {\n\treturn a && b && a && b\n}\n"
	head := "package p\n\n// F moved.\nfunc F(a, b bool) bool {\n\treturn a && b && a && b && a\n}\n"
	pol := policy.Default()
	pol.Complexity = &policy.ComplexityOptions{MaxCyclomatic: 3}
	langs := lang.Registry{golang.New()}
	set := &change.Set{Root: "/r", BaseRev: "base",
		Files: []*change.File{change.NewFile("new.go", "old.go", []byte(base), []byte(head))}}
	pass := &check.Pass{Context: context.Background(), Changes: set, Policy: pol, Mode: check.Diff,
		Languages: langs, Files: check.NewFiles(langs)}
	fs, err := complexity.Dimension.Run(pass)
	if err != nil {
		t.Fatal(err)
	}
	want := check.Finding{
		Rule:       "complexity/cyclomatic",
		Location:   check.Location{File: "new.go", Line: 4, Column: 6},
		Message:    "function F has cyclomatic complexity 5 (limit 3; was 4 at base)",
		Symbol:     "F",
		Introduced: true,
	}
	if len(fs) != 1 || !reflect.DeepEqual(fs[0], want) {
		t.Fatalf("got %+v\nwant %+v", fs, want)
	}
}

// TestCanceledContext: a canceled run stops with the context's error.
func TestCanceledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	langs := lang.Registry{golang.New()}
	set := &change.Set{Root: "/r", NoBase: true,
		Files: []*change.File{change.NewFile("p.go", "", nil, []byte("package p\n"))}}
	pass := &check.Pass{Context: ctx, Changes: set, Policy: policy.Default(), Mode: check.Check,
		Languages: langs, Files: check.NewFiles(langs)}
	if _, err := complexity.Dimension.Run(pass); err == nil {
		t.Fatal("no error from a canceled run")
	}
}
