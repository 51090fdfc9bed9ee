package index

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/lang/commonlisp/lambdalist"
	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

// macroMade reports whether alexandria defines name through one of its own macros
// (a macrolet DEF, DEFINE-ALIST-GET, a FROB for the numeric types), which the index
// does not expand.
func macroMade(name string) bool {
	switch name {
	case "LASTCAR", "PROPER-LIST-LENGTH", "ASSOC-VALUE", "RASSOC-VALUE":
		return true
	}
	return strings.Contains(name, "POSITIVE") || strings.Contains(name, "NEGATIVE")
}

// sbclExternals runs testdata/exports.lisp: name → [kind, lambda list].
func sbclExternals(t *testing.T) map[string][2]string {
	cmd := exec.Command("sbcl", "--script", "testdata/exports.lisp")
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sbcl --script testdata/exports.lisp: %v\n%s", err, out)
	}
	_, body, found := bytes.Cut(out, []byte("BEGIN\n"))
	if !found {
		t.Fatalf("no BEGIN in SBCL's output:\n%s", out)
	}
	ext := map[string][2]string{}
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), "\t", 3)
		if len(parts) == 3 {
			ext[parts[0]] = [2]string{parts[1], parts[2]}
		}
	}
	return ext
}

// alexandriaIndex indexes the alexandria system's sources as SBCL loads them.
func alexandriaIndex(t *testing.T) (map[string]Definition, map[string]bool) {
	files, _ := filepath.Glob("/usr/share/common-lisp/source/alexandria/alexandria-[12]/*.lisp")
	opts := reader.Options{Features: append(reader.DefaultFeatures(), "ALEXANDRIA::SEQUENCE-EMPTYP")}
	defs, exports := map[string]Definition{}, map[string]bool{}
	for _, p := range files {
		if filepath.Base(p) == "tests.lisp" {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		ix := Build(reader.Read(src, opts))
		for _, d := range ix.Definitions {
			prev, seen := defs[d.Name]
			if d.Package == "ALEXANDRIA" && !d.Setf && (d.Kind.Callable() && d.Kind != Method || !seen) ||
				seen && !prev.Kind.Callable() && d.Kind.Callable() {
				defs[d.Name] = d
			}
		}
		for _, pkg := range ix.Packages {
			for _, e := range pkg.Export {
				if pkg.Name == "ALEXANDRIA" {
					exports[e.Name] = true
				}
			}
		}
	}
	return defs, exports
}

// TestSBCLOracle compares the index of alexandria's sources with what SBCL knows after
// loading it: the same external symbols, the same kind (macro or function) and the
// same lambda list for every one the index finds a definition for.
func TestSBCLOracle(t *testing.T) {
	if _, err := exec.LookPath("sbcl"); err != nil {
		t.Skip("sbcl is not on PATH; install sbcl: apt-get install sbcl")
	}
	if _, err := os.Stat("/usr/share/common-lisp/source/alexandria"); err != nil {
		t.Skip("cl-alexandria is not installed: apt-get install -y cl-alexandria")
	}
	if testing.Short() {
		t.Skip("loading alexandria into SBCL takes seconds; skipped in -short")
	}
	ext := sbclExternals(t)
	defs, exports := alexandriaIndex(t)
	var names []string
	for n := range ext {
		names = append(names, n)
		if !exports[n] {
			t.Errorf("SBCL exports ALEXANDRIA:%s, the index's defpackage does not", n)
		}
	}
	if len(exports) != len(ext) {
		t.Errorf("the index has %d exports, SBCL %d", len(exports), len(ext))
	}
	sort.Strings(names)
	compared := 0
	for _, n := range names {
		if compareDefinition(t, n, ext[n], defs) {
			compared++
		}
	}
	if compared < 100 {
		t.Errorf("only %d lambda lists compared", compared)
	}
}

// compareDefinition checks one external symbol and reports whether it compared a
// lambda list.
func compareDefinition(t *testing.T, name string, sb [2]string, defs map[string]Definition) bool {
	d, ok := defs[name]
	switch {
	case !ok && !macroMade(name):
		t.Errorf("%s: SBCL has it (%s), the index has no definition", name, sb[0])
		return false
	case !ok || sb[0] == "none":
		return false
	case (sb[0] == "macro") != (d.Kind == Macro):
		t.Errorf("%s: SBCL says %s, the index %s", name, sb[0], d.Kind)
		return false
	}
	if d.Lambda == nil && strings.HasPrefix(d.Via, "setf ") {
		return false // (setf (symbol-function 'x) …): no lambda list to compare
	}
	rf := reader.Read([]byte(sb[1]), reader.Options{})
	mode := lambdalist.Ordinary
	if sb[0] == "macro" {
		mode = lambdalist.Macro
	}
	want, err := lambdalist.Parse(rf.Forms[0], mode)
	if err != nil || d.Lambda == nil {
		t.Errorf("%s: SBCL's %s (%v) or the index's %v does not parse", name, sb[1], err, d.Lambda)
		return false
	}
	if d.Lambda.String() != want.String() {
		t.Errorf("%s: lambda list %s, SBCL %s", name, d.Lambda, want)
	}
	return true
}
