package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/change/editset"
	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
	"github.com/agentverify/agentverify/report"
)

// hallucinationMessages returns the hallucination violations of rep as "RULE FILE:LINE MESSAGE".
func hallucinationMessages(rep *report.Report) []string {
	var out []string
	for _, v := range rep.Violations {
		if strings.HasPrefix(v.Rule, "hallucination/") {
			out = append(out, v.Rule+" "+v.Location.File+": "+v.Message)
		}
	}
	return out
}

// A Go file git ignores is on the disk and in no commit: a change that calls a helper
// declared only there passes `go build` in the working tree and breaks the commit that
// lands. In every mode it is left out of the head, so the call is reported, saying where
// the name is declared; an ignored file nothing needs is no finding.
func TestGitIgnoredGoFiles(t *testing.T) {
	shorttest.Slow(t, "loads real modules through git-ignored files")
	ctx := context.Background()
	r := testrepo.New(t, map[string]string{
		".gitignore": "*_local.go\n",
		"go.mod":     "module example.com/m\n\ngo 1.22\n",
		"app/app.go": "// Package app runs.\npackage app\n\n// Run runs.\nfunc Run() int { return 1 }\n",
		"lib/lib.go": "// Package lib helps.\npackage lib\n\n// One is one.\nfunc One() int { return 1 }\n",
	})
	r.Write(map[string]string{
		"app/helper_local.go": "package app\n\nfunc helper() int { return 2 }\n",
		"lib/extra_local.go":  "package lib\n\n// Two is two.\nfunc Two() int { return 2 }\n",
		"app/unused_local.go": "package app\n\nfunc unused() int { return 3 }\n",
	})
	if got := r.Git("status", "--porcelain"); got != "" {
		t.Fatalf("the ignored files show in git status: %q", got)
	}
	caller := "// Package app runs.\npackage app\n\nimport \"example.com/m/lib\"\n\n// Run runs.\nfunc Run() int { return helper() + lib.Two() }\n"
	why := map[string]string{
		"helper": "; app/helper_local.go declares it, but git ignores that file: no commit has it",
		"Two":    "; lib/extra_local.go declares it, but git ignores that file: no commit has it",
	}
	want := []string{
		"hallucination/undefined app/app.go: helper is not declared in this scope" + why["helper"],
		"hallucination/unknown-symbol app/app.go: lib.Two is not declared by package example.com/m/lib" + why["Two"],
	}
	check := func(name string, req agentverify.Request) {
		t.Helper()
		rep, err := agentverify.Check(ctx, req)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := hallucinationMessages(rep); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", name, got, want)
		}
	}
	// The hook and MCP path: an edit proposed over the working tree.
	check("edit", agentverify.Request{Dir: r.Dir, Source: agentverify.Edits, Edits: []editset.Edit{{Path: "app/app.go", Content: []byte(caller)}}})
	r.Write(map[string]string{"app/app.go": caller})
	check("working tree", agentverify.Request{Dir: r.Dir, Source: agentverify.WorkingTree})
	// The index never had them (what is not staged does not exist for --staged).
	r.Git("add", "app/app.go")
	want = []string{
		"hallucination/undefined app/app.go: helper is not declared in this scope",
		"hallucination/unknown-symbol app/app.go: lib.Two is not declared by package example.com/m/lib",
	}
	check("staged", agentverify.Request{Dir: r.Dir, Source: agentverify.Staged})

	// Not calling them, the change is clean: ignored files are no finding by themselves.
	r.Write(map[string]string{"app/app.go": "// Package app runs.\npackage app\n\n// Run runs.\nfunc Run() int { return 3 }\n"})
	rep, err := agentverify.Check(ctx, agentverify.Request{Dir: r.Dir, Source: agentverify.WorkingTree})
	if err != nil {
		t.Fatal(err)
	}
	if got := hallucinationMessages(rep); len(got) != 0 {
		t.Errorf("a change that needs no ignored file: %q", got)
	}

	// A base that already needed an ignored file (generated code kept out of git): its
	// findings are the base's, whatever line the change touches.
	r.Write(map[string]string{"app/app.go": "// Package app runs.\npackage app\n\n// Run runs.\nfunc Run() int { return helper() }\n"})
	r.Commit("a base that needs the ignored helper")
	r.Write(map[string]string{"app/app.go": "// Package app runs.\npackage app\n\n// Run runs.\nfunc Run() int { return helper() }\n\n// Four is four.\nfunc Four() int { return 4 }\n"})
	rep, err = agentverify.Check(ctx, agentverify.Request{Dir: r.Dir, Source: agentverify.WorkingTree})
	if err != nil {
		t.Fatal(err)
	}
	if got := hallucinationMessages(rep); len(got) != 0 {
		t.Errorf("a base that already needed the ignored file: %q", got)
	}
}
