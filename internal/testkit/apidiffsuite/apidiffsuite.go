// Package apidiffsuite reads the test cases of golang.org/x/exp/apidiff (copied into
// dimensions/semantic/testdata/apidiff, see its README) for the tests that run them
// through the semantics dimension and through a whole 'agentverify diff'.
package apidiffsuite

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Case is one file of apidiff's testdata split into its old and new package, with the
// changes apidiff expects, in its words ("B: changed from int to string").
type Case struct {
	Name                     string
	Old, New                 string
	Incompatible, Compatible []string
}

// Dir is the directory of the copied testdata.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "dimensions", "semantic", "testdata", "apidiff")
}

// Cases reads every case of Dir, in file name order.
func Cases(t testing.TB) []*Case {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(Dir(), "*.go.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no apidiff testdata in %s (err %v)", Dir(), err)
	}
	var out []*Case
	for _, f := range files {
		out = append(out, split(t, f))
	}
	return out
}

// split splits a testdata file as apidiff's own test does: lines after "// old" go to the
// old package, after "// new" to the new one, after "// both" (and before any marker) to
// both; "// i MSG" and "// c MSG" are expectations and go nowhere.
func split(t testing.TB, file string) *Case {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := &Case{Name: strings.TrimSuffix(filepath.Base(file), ".go.txt")}
	var old, new strings.Builder
	toOld, toNew := true, true
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := s.Text()
		switch tl := strings.TrimSpace(line); {
		case tl == "// old":
			toOld, toNew = true, false
		case tl == "// new":
			toOld, toNew = false, true
		case tl == "// both":
			toOld, toNew = true, true
		case strings.HasPrefix(tl, "// i "):
			c.Incompatible = append(c.Incompatible, strings.TrimSpace(tl[4:]))
		case strings.HasPrefix(tl, "// c "):
			c.Compatible = append(c.Compatible, strings.TrimSpace(tl[4:]))
		default:
			if toOld {
				old.WriteString(line + "\n")
			}
			if toNew {
				new.WriteString(line + "\n")
			}
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	c.Old, c.New = old.String(), new.String()
	return c
}
