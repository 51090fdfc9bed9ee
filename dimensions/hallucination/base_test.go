package hallucination

import (
	"context"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/lang/golang/load"

	"github.com/agentverify/agentverify/change/gitchange"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/engine"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
	"github.com/agentverify/agentverify/policy"
)

// TestBaseViewIsWarm: settling findings at the base re-checks only the packages with
// findings to settle, with the go/types warm path of the head's loader, never a second go
// list — whether the change modified, created or deleted files of the package.
func TestBaseViewIsWarm(t *testing.T) {
	const goMod = "module example.com/m\n\ngo 1.22\n"
	const use = "package app\n\nfunc Double() int { return count * 2 }\n\nvar _ int = \"old\"\n"
	cases := []struct {
		name   string
		change map[string]string // written over the base; "" deletes
		want   []string          // messages of the settled findings
	}{
		{"modified file", map[string]string{"app/count.go": "package app\n\nvar count = \"one\"\n"}, []string{"mismatched types string and untyped int"}},
		{"deleted file", map[string]string{"app/count.go": ""}, []string{"count is not declared"}},
		{"created file", map[string]string{"app/more.go": "package app\n\nvar _ = count + 1\n"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := testrepo.New(t, map[string]string{"go.mod": goMod, "app/count.go": "package app\n\nvar count = 1\n", "app/use.go": use, "other/o.go": "package other\n"})
			for p, s := range c.change {
				if s == "" {
					r.Git("rm", "-q", p)
				} else {
					r.Write(map[string]string{p: s})
				}
			}
			pass := workingTreePass(t, r.Dir)
			dims := []*check.Dimension{Dimension}
			out := engine.ConfirmAtBase(pass.Context, pass, dims, engine.Run(pass.Context, pass, dims, engine.Options{}), engine.Options{}, nil)
			var got []string
			for _, f := range out[0].Findings {
				if pass.Keep(f) {
					got = append(got, f.Location.File+": "+f.Message)
				}
			}
			if len(got) != len(c.want) {
				t.Fatalf("kept %q, want %q", got, c.want)
			}
			for i, w := range c.want {
				if !strings.HasPrefix(got[i], "app/use.go: ") || !strings.Contains(got[i], w) {
					t.Errorf("kept %q, want %q in app/use.go", got[i], w)
				}
			}
			loader := pass.Memo.Get(load.MemoKey, func() any { return nil })
			if cold, warm := loader.(interface{ Stats() (int, int) }).Stats(); cold != 1 || warm != 1 {
				t.Errorf("loader ran %d cold and %d warm checks, want 1 and 1", cold, warm)
			}
		})
	}
}

// A finding on an unchanged line that needs the facts of another changed package (a
// printf wrapper) is settled at the base: the base-view pass re-checks the package of
// the finding and the changed packages it imports, and nothing else.
func TestBaseViewKeepsImportedFacts(t *testing.T) {
	const goMod = "module example.com/m\n\ngo 1.22\n"
	logx := "package logx\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\n// Debugf logs.\nfunc Debugf(format string, args ...any) { fmt.Fprintf(os.Stderr, format, args...) }\n"
	app := "package app\n\nimport \"example.com/m/logx\"\n\n// Run runs.\nfunc Run(op string) { logx.Debugf(\"%d\", op) }\n"
	r := testrepo.New(t, map[string]string{"go.mod": goMod, "logx/logx.go": logx, "app/app.go": app, "other/o.go": "package other\n"})
	r.Write(map[string]string{
		"logx/logx.go": logx + "\n// Infof logs too.\nfunc Infof(format string, args ...any) { Debugf(format, args...) }\n",
		"app/app.go":   app + "\n// Stop stops.\nfunc Stop() {}\n",
		"other/o.go":   "package other\n\n// X is new.\nvar X = 1\n",
	})
	pass := workingTreePass(t, r.Dir)
	dims := []*check.Dimension{Dimension}
	head := engine.Run(pass.Context, pass, dims, engine.Options{})
	if len(head[0].Findings) != 1 || head[0].Findings[0].Rule != "hallucination/vet-printf" {
		t.Fatalf("head findings: %+v", head[0].Findings)
	}
	out := engine.ConfirmAtBase(pass.Context, pass, dims, head, engine.Options{}, nil)
	for _, f := range out[0].Findings {
		if pass.Keep(f) {
			t.Errorf("a finding the base has is reported as new: %s %s", f.Location.File, f.Message)
		}
	}
}

// workingTreePass is the diff-mode pass of the working tree of the repository at dir.
func workingTreePass(t *testing.T, dir string) *check.Pass {
	t.Helper()
	repo, err := gitchange.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	set, err := repo.WorkingTree(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	return &check.Pass{Context: context.Background(), Changes: set, Policy: policy.Default(), Mode: check.Diff,
		Languages: languages, Files: check.NewFiles(languages), Memo: check.NewMemo()}
}
