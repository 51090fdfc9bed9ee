package python_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/internal/testkit/pyrighttest"
	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python"
	"github.com/agentverify/agentverify/lang/python/pyright"
	"github.com/agentverify/agentverify/policy"
	"golang.org/x/tools/txtar"
)

// TestCorpus counts the library mistakes of testdata/corpus.txtar that agentverify
// catches and those pyright alone catches, and the idiomatic files each wrongly flags:
// agentverify must catch strictly more, every one of them, and flag no idiomatic file.
func TestCorpus(t *testing.T) {
	shorttest.Slow(t, "starts pyright over a real project or corpus; the sampled cases of hallucination cover pyright in -short")
	tool := pyrighttest.Require(t)
	ar, err := txtar.ParseFile("testdata/corpus.txtar")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	set := &change.Set{NoBase: true, OnDisk: true}
	var pyFiles []string
	for _, f := range ar.Files {
		files[f.Name] = string(f.Data)
		if strings.HasSuffix(f.Name, ".py") {
			pyFiles = append(pyFiles, f.Name)
			set.Files = append(set.Files, change.NewFile(f.Name, "", nil, f.Data))
		}
	}
	root := tree(t, files)
	set.Root, set.HeadFS = root, os.DirFS(root)
	set.Sort()
	sort.Strings(pyFiles)

	ours := map[string]map[int]bool{}
	ps, err := python.New().(lang.Resolver).Resolve(&lang.Request{Context: context.Background(), Changes: set, Policy: policy.Default()})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		mark(ours, p.Location.File, p.Location.Line)
	}
	proj, err := pyright.ReadProject(set.HeadFS)
	if err != nil {
		t.Fatal(err)
	}
	diags, err := tool.Check(context.Background(), root, pyFiles, proj.Options(root))
	if err != nil {
		t.Fatal(err)
	}
	alone := map[string]map[int]bool{}
	for _, d := range diags {
		if d.Severity == "error" {
			rel, _ := filepath.Rel(root, d.File)
			mark(alone, filepath.ToSlash(rel), d.Range.Start.Line+1)
		}
	}

	c := tally(t, ar, ours, alone)
	t.Logf("%d mistakes: agentverify catches %d, pyright alone %d; false alarms on idiomatic files: agentverify %d, pyright alone %d",
		c.mistakes, c.ours, c.alone, c.falseOurs, c.falseAlone)
	if c.ours <= c.alone {
		t.Errorf("agentverify catches %d, pyright alone %d: want strictly more", c.ours, c.alone)
	}
}

// counts are a corpus run's results.
type counts struct{ mistakes, ours, alone, falseOurs, falseAlone int }

// tally counts the marked lines each verifier flags, reporting each mistake agentverify
// misses and each idiomatic file it flags.
func tally(t *testing.T, ar *txtar.Archive, ours, alone map[string]map[int]bool) counts {
	var c counts
	for _, f := range ar.Files {
		if !strings.HasSuffix(f.Name, ".py") {
			continue
		}
		line, idiomatic := markedLine(string(f.Data))
		switch {
		case idiomatic:
			if len(ours[f.Name]) > 0 {
				c.falseOurs++
				t.Errorf("%s: idiomatic code flagged by agentverify", f.Name)
			}
			if len(alone[f.Name]) > 0 {
				c.falseAlone++
			}
			continue
		case ours[f.Name][line]:
			c.ours++
		default:
			t.Errorf("%s:%d: agentverify misses the mistake", f.Name, line)
		}
		c.mistakes++
		if alone[f.Name][line] {
			c.alone++
		}
	}
	return c
}

func mark(m map[string]map[int]bool, file string, line int) {
	if m[file] == nil {
		m[file] = map[int]bool{}
	}
	m[file][line] = true
}

// markedLine returns the line marked "# mistake", or reports a file marked idiomatic.
func markedLine(src string) (int, bool) {
	for i, l := range strings.Split(src, "\n") {
		if strings.Contains(l, "# mistake") {
			return i + 1, false
		}
		if strings.Contains(l, "# idiomatic") {
			return 0, true
		}
	}
	return 0, true
}
