package resolve

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/lang"
)

// Real systems from Debian's cl-* packages, as SBCL loads them, resolve with no finding
// in check mode (every file new): macros that define functions, reader macros of their
// own, components for other Lisps, packages built by macros. .ci/run installs them.
func TestRealSystemsResolve(t *testing.T) {
	for dir, pkg := range map[string]string{
		"alexandria":        "cl-alexandria",
		"cl-ppcre":          "cl-ppcre",
		"fiveam":            "cl-fiveam",
		"iterate":           "cl-iterate",
		"cl-split-sequence": "cl-split-sequence",
		"bordeaux-threads":  "cl-bordeaux-threads",
		"trivial-features":  "cl-trivial-features",
		"cl-flexi-streams":  "cl-flexi-streams",
	} {
		t.Run(dir, func(t *testing.T) {
			root := filepath.Join("/usr/share/common-lisp/source", dir)
			if _, err := os.Stat(root); err != nil {
				t.Skipf("%s is not installed: apt-get install %s", dir, pkg)
			}
			ps, err := Resolver{}.Resolve(&lang.Request{Context: context.Background(), Changes: treeSet(t, root)})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range ps {
				t.Errorf("%s:%d:%d %s: %s", p.Location.File, p.Location.Line, p.Location.Column, p.Kind, p.Message)
			}
		})
	}
}

// In real systems, the resolver finds real mistakes: a call with a missing argument in
// CFFI's random tester, a benchmark calling a function its package cannot see in babel.
func TestRealSystemsMistakes(t *testing.T) {
	for _, c := range []struct{ dir, pkg, file, want string }{
		{"cl-cffi", "cl-cffi", "tests/random-tester.lisp:166:28 wrong-arity", "c-callback is called with 2 arguments but takes 3 arguments"},
		{"babel", "cl-babel", "tests/benchmarks.lisp:32:19 undefined", "undefined function read-test-file"},
	} {
		t.Run(c.dir, func(t *testing.T) {
			root := filepath.Join("/usr/share/common-lisp/source", c.dir)
			if _, err := os.Stat(root); err != nil {
				t.Skipf("%s is not installed: apt-get install %s", c.dir, c.pkg)
			}
			ps, err := Resolver{}.Resolve(&lang.Request{Context: context.Background(), Changes: treeSet(t, root)})
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, p := range ps {
				at := fmt.Sprintf("%s:%d:%d %s", p.Location.File, p.Location.Line, p.Location.Column, p.Kind)
				found = found || at == c.file && strings.Contains(p.Message, c.want)
			}
			if !found {
				t.Errorf("no %s %q among %d problems", c.file, c.want, len(ps))
			}
		})
	}
}
