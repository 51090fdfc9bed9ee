package api

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/load"
)

// compareBoth compares set with warm and with a new cold Comparer, fails unless both give
// the same changes at the same places, and returns the changes' messages.
func compareBoth(t *testing.T, warm *Comparer, set *change.Set) string {
	t.Helper()
	ctx := context.Background()
	got, err := warm.CompareAPI(ctx, set)
	if err != nil {
		t.Fatal(err)
	}
	want, err := New(load.New(load.Options{})).CompareAPI(ctx, set)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := dump(got), dump(want); g != w {
		t.Fatalf("warm comparison:\n%s\ncold comparison:\n%s", g, w)
	}
	return messages(got)
}

func dump(cs []lang.APIChange) string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "%+v\n", c)
	}
	return b.String()
}

const (
	modelV1 = "package model\n\n// User is a user.\ntype User struct{ ID int }\n"
	modelV2 = "package model\n\n// User is a user.\ntype User struct{ ID int64 }\n"
	baseV1  = "package api\n\nimport (\n\t\"strings\"\n\n\t\"example.com/m/model\"\n)\n\n// Find finds.\nfunc Find(b *strings.Builder) model.User { return model.User{} }\n\n// Name names.\nfunc Name() string { return \"\" }\n"
	// baseV2 is a new base commit: Name returns an int.
	baseV2 = "package api\n\nimport (\n\t\"strings\"\n\n\t\"example.com/m/model\"\n)\n\n// Find finds.\nfunc Find(b *strings.Builder) model.User { return model.User{} }\n\n// Name names.\nfunc Name() int { return 0 }\n"
)

// head returns baseV1 with Find's result and Name's declaration replaced.
func head(find, name string) string {
	return "package api\n\nimport (\n\t\"strings\"\n\n\t\"example.com/m/model\"\n)\n\n// Find finds.\nfunc Find(b *strings.Builder) " + find + "\n\n// Name names.\n" + name + "\n"
}

func files(model string) map[string]string {
	return map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "model/model.go": model}
}

// TestBasesReused: a second comparison against the same base, with another head (the
// next commit of a pre-commit hook), reuses the base side instead of type-checking it
// again, and answers as a cold comparison does.
func TestBasesReused(t *testing.T) {
	bases := &Bases{}
	warm := NewWarm(load.New(load.Options{}), bases)
	root := t.TempDir()
	first := compareBoth(t, warm, changeOf(t, root, files(modelV1), baseV1, head("model.User { return model.User{} }", "func Name() int { return 0 }")))
	if first != "Name: changed from func() string to func() int" {
		t.Fatalf("first comparison: %q", first)
	}
	second := compareBoth(t, warm, changeOf(t, root, files(modelV1), baseV1, head("*model.User { return nil }", "func Name() string { return \"\" }\n\n// Extra is new.\nfunc Extra() {}")))
	if second != "Find: changed from func(*strings.Builder) example.com/m/model.User to func(*strings.Builder) *example.com/m/model.User" {
		t.Fatalf("second comparison: %q", second)
	}
	if n := bases.BaseChecks(); n != 1 {
		t.Errorf("the base was type-checked %d times for two comparisons against it, want once", n)
	}
}

// TestBasesNotStale: a kept base side is never reused for a base whose changed packages
// differ (a new base commit) or whose dependencies the head now loads anew (a changed
// in-module package the base imports); each such comparison answers as a cold one.
func TestBasesNotStale(t *testing.T) {
	bases := &Bases{}
	warm := NewWarm(load.New(load.Options{}), bases)
	root := t.TempDir()
	h := head("model.User { return model.User{} }", "func Name() int { return 0 }")
	if got := compareBoth(t, warm, changeOf(t, root, files(modelV1), baseV1, h)); got != "Name: changed from func() string to func() int" {
		t.Fatalf("first comparison: %q", got)
	}
	// A new base commit in which Name already returns an int: the head only names
	// Find's result (compatible); the first base, reused, would report Name again.
	h2 := head("(u model.User) { return }", "func Name() int { return 0 }")
	if got := compareBoth(t, warm, changeOf(t, root, files(modelV1), baseV2, h2)); got != "" {
		t.Fatalf("against the new base: %q, want no change", got)
	}
	if n := bases.BaseChecks(); n != 2 {
		t.Errorf("base checks after a new base: %d, want 2", n)
	}
	// Back to the first base, but model (which the base imports) changed on both sides.
	if got := compareBoth(t, warm, changeOf(t, root, files(modelV2), baseV1, h)); got != "Name: changed from func() string to func() int" {
		t.Fatalf("with a changed dependency: %q", got)
	}
	if n := bases.BaseChecks(); n != 3 {
		t.Errorf("base checks after a changed dependency: %d, want 3 (the first base's entry holds the old model)", n)
	}
}

// TestBasesConcurrent: comparisons against one base that run at once (an MCP session's
// calls) share the kept base safely and each answer as a cold comparison does.
func TestBasesConcurrent(t *testing.T) {
	warm := NewWarm(load.New(load.Options{}), &Bases{})
	set := changeOf(t, t.TempDir(), files(modelV1), baseV1, head("model.User { return model.User{} }", "func Name() int { return 0 }"))
	want := compareBoth(t, warm, set)
	var wg sync.WaitGroup
	got := make([]string, 4)
	errs := make([]error, 4)
	for i := range got {
		wg.Go(func() {
			cs, err := warm.CompareAPI(context.Background(), set)
			got[i], errs[i] = messages(cs), err
		})
	}
	wg.Wait()
	for i := range got {
		if errs[i] != nil || got[i] != want {
			t.Errorf("comparison %d: %q, %v; want %q", i, got[i], errs[i], want)
		}
	}
}

// TestBaseKey: the key of a base changes with each non-test Go file of a changed package,
// built or not, and not with its test files.
func TestBaseKey(t *testing.T) {
	const a, b = "package p\n\nfunc A() {}\n", "package p\n\nfunc B() {}\n"
	m := &module{dir: ".", pkgDirs: map[string]bool{"p": true}, basePath: "example.com/m"}
	key := func(files map[string]string) string {
		fsys := fstest.MapFS{}
		for p, c := range files {
			fsys[p] = &fstest.MapFile{Data: []byte(c)}
		}
		return baseKey(fsys, m, "go1.22")
	}
	base := map[string]string{"p/a.go": a, "p/a_test.go": a, "p/w_windows.go": a, "p/README": a}
	k := key(base)
	with := func(p, c string) map[string]string {
		out := maps.Clone(base)
		out[p] = c
		return out
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		same  bool
	}{
		{"a test file", with("p/a_test.go", b), true},
		{"a new test file", with("p/b_test.go", b), true},
		{"not Go", with("p/README", b), true},
		{"another package's file", with("q/a.go", b), true},
		{"a file", with("p/a.go", b), false},
		{"a new file", with("p/b.go", b), false},
		{"a file of another platform", with("p/w_windows.go", b), false},
	} {
		if got := key(tc.files) == k; got != tc.same {
			t.Errorf("%s: same key %v, want %v", tc.name, got, tc.same)
		}
	}
}
