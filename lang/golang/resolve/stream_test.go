package resolve

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/change/gitchange"
	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/load"
	"github.com/agentverify/agentverify/policy"
)

// workingTree commits base in a new repository, puts head in its working tree (the
// files of base that head lacks deleted) and returns the change from the commit to the
// working tree, as `agentverify diff` builds it.
func workingTree(t *testing.T, base, head map[string]string) *change.Set {
	t.Helper()
	r := testrepo.New(t, base)
	for p := range base {
		if _, ok := head[p]; !ok {
			if err := os.Remove(filepath.Join(r.Dir, filepath.FromSlash(p))); err != nil {
				t.Fatal(err)
			}
		}
	}
	r.Write(head)
	repo, err := gitchange.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	set, err := repo.WorkingTree(context.Background(), "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// resolveWay resolves one side of set with the host builds checked the given way.
func resolveWay(t *testing.T, set *change.Set, w way) string {
	t.Helper()
	req := &lang.Request{Context: context.Background(), Changes: set, Policy: policy.Default()}
	ps, err := Resolver{way: w}.Resolve(req)
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "%s:%d:%d %s %s | %s | %s | %s | fix=%v related=%v\n", p.Location.File, p.Location.Line, p.Location.Column,
			p.Kind, p.Message, p.Suggestion, p.Symbol, p.Key, p.Fix != nil, p.Related)
	}
	if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
	}
	return b.String()
}

// compareWays checks that the per-package load and the stream report the same for the
// head of set and for its base view.
func compareWays(t *testing.T, set *change.Set) (head string) {
	t.Helper()
	for _, side := range []struct {
		name string
		set  *change.Set
	}{{"head", set}, {"base view", set.BaseView()}} {
		want, got := resolveWay(t, side.set, perPackage), resolveWay(t, side.set, streamed)
		if want != got {
			t.Errorf("%s: the two loads differ\nper package:\n%s\nstreamed:\n%s", side.name, want, got)
		}
		if side.name == "head" {
			head = want
		}
	}
	return head
}

// TestDiffWaysAgree verifies every Go diff case of the hallucination testdata both
// ways — the per-package load and the stream of the module — and compares what the
// resolver reports, message for message, for the head and for the base view that
// settles the findings the head has. With -short it compares one case in eight; the
// full suite (CI) all of them.
func TestDiffWaysAgree(t *testing.T) {
	t.Parallel()
	cases, _ := filepath.Glob("../../../dimensions/hallucination/testdata/*.txtar")
	n := 0
	for _, path := range cases {
		base, head, ok := diffCase(t, path)
		if !ok {
			continue
		}
		n++
		if !shorttest.Runs(n-1, 8) {
			continue
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			compareWays(t, workingTree(t, base, head))
		})
	}
	if n < 20 {
		t.Fatalf("only %d Go diff cases found", n)
	}
}

// diffCase reads the base and head trees of a Go diff case of the checktest format;
// ok is false for other cases and for those that need their module proxy.
func diffCase(t *testing.T, path string) (base, head map[string]string, ok bool) {
	t.Helper()
	name := filepath.Base(path)
	if strings.HasPrefix(name, "lisp_") || strings.HasPrefix(name, "py_") {
		return nil, nil, false
	}
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	base, head = map[string]string{}, map[string]string{}
	diff := false
	for _, f := range ar.Files {
		switch {
		case strings.HasPrefix(f.Name, "proxy/") || strings.Contains(string(f.Data), "{{"):
			return nil, nil, false // the case needs checktest's module proxy or templates
		case f.Name == "policy":
		case strings.HasPrefix(f.Name, "base/"):
			base[strings.TrimPrefix(f.Name, "base/")], diff = string(f.Data), true
		case strings.HasPrefix(f.Name, "head/"):
			head[strings.TrimPrefix(f.Name, "head/")] = string(f.Data)
		default:
			base[f.Name], head[f.Name] = string(f.Data), string(f.Data)
		}
	}
	_, mod := head["go.mod"]
	return base, head, diff && mod
}

// spread is a module of a chain of packages, each importing the next, and a change
// that edits most of them: new problems, old ones (a deprecated use the base has too)
// and go vet's.
func spread() (base, head map[string]string) {
	base = map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n"}
	const n = 6
	for i := range n {
		imp, use := "", ""
		if i+1 < n {
			imp = fmt.Sprintf("import \"example.com/m/p%d\"\n\n", i+1)
			use = fmt.Sprintf("\tp%d.F%d(s)\n", i+1, i+1)
		}
		base[fmt.Sprintf("p%d/p.go", i)] = fmt.Sprintf("package p%d\n\n%simport \"io/ioutil\"\n\n// F%d does it.\nfunc F%d(s string) {\n%s\t_, _ = ioutil.ReadFile(s)\n}\n", i, imp, i, i, use)
		base[fmt.Sprintf("p%d/p_test.go", i)] = fmt.Sprintf("package p%d\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) { F%d(\"x\") }\n", i, i)
	}
	base["p0/x_test.go"] = "package p0_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/p3\"\n)\n\nfunc TestX(t *testing.T) { p3.F3(\"x\") }\n"
	head = map[string]string{}
	for p, c := range base {
		head[p] = c
	}
	head["p1/p.go"] += "\nfunc g() { undefinedThing() }\n"
	head["p2/p.go"] = strings.Replace(head["p2/p.go"], "p3.F3(s)", "p3.F3(s, 1)", 1)
	head["p3/p.go"] += "\nfunc h(s string) string { return fmt.Sprintf(\"%d\", s) }\n"
	head["p3/p.go"] = strings.Replace(head["p3/p.go"], "import \"io/ioutil\"", "import (\n\t\"fmt\"\n\t\"io/ioutil\"\n)", 1)
	head["p5/p.go"] += "\nfunc k() { _ = strings.TrimSpace }\n"
	return base, head
}

// TestDiffWaysAgreeSpread compares the two loads on a change spread over a chain of
// packages, where the per-package load has to compile the packages between the changed
// ones, and checks that the cost estimate chooses the stream there and not for a
// change of one package.
func TestDiffWaysAgreeSpread(t *testing.T) {
	t.Parallel()
	base, head := spread()
	set := workingTree(t, base, head)
	got := compareWays(t, set)
	for _, want := range []string{
		"p1/p.go:", "undefinedThing",
		"p2/p.go:", "too many arguments in call to p3.F3",
		"p3/p.go:", "Sprintf format %d has arg s of wrong type string",
		"p5/p.go:", "package strings is not imported",
		"ioutil.ReadFile is deprecated",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the head's problems lack %q:\n%s", want, got)
		}
	}

	var costs []load.Cost
	l := load.New(load.Options{})
	req := load.Request{Dir: set.Root, Choose: func(c load.Cost) bool { costs = append(costs, c); return false }}
	for _, f := range set.Files {
		req.Files = append(req.Files, filepath.Join(set.Root, filepath.FromSlash(f.Path)))
	}
	if handled, err := l.CheckEach(context.Background(), req, func(*load.Result) error { return nil }); handled || err != nil || len(costs) != 1 {
		t.Fatalf("CheckEach with a Choose that declines = %v, %v after %d costs; want declined", handled, err, len(costs))
	}
	if c := costs[0]; !c.StreamCheaper() || c.Through == 0 {
		t.Errorf("spread change: cost %+v, stream chosen %v; want chosen, with packages through", c, c.StreamCheaper())
	}
	one := load.Request{Dir: set.Root, Files: []string{filepath.Join(set.Root, "p0", "p.go")}, Choose: req.Choose}
	costs = nil
	if _, err := l.CheckEach(context.Background(), one, func(*load.Result) error { return nil }); err != nil || len(costs) != 1 {
		t.Fatalf("CheckEach of p0 = %v after %d costs", err, len(costs))
	}
	if c := costs[0]; c.StreamCheaper() {
		t.Errorf("change of the top package: cost %+v, stream chosen; want the per-package load", c)
	}
}
