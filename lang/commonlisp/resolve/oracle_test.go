package resolve

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/agentverify/agentverify/lang"
)

// sbclWarning matches the warnings of SBCL's compiler that the resolver's kinds stand
// for: undefined functions, argument counts and unknown keywords.
var sbclWarning = regexp.MustCompile(`^AVWARN: (undefined function: .*|The function .* is called with .*|.* is not a known argument keyword\.)$`)

// TestSBCLAgrees compiles corpus cases of the hallucination dimension with SBCL and
// checks that the resolver reports exactly as many undefined functions, wrong argument
// counts and unknown keywords as SBCL warns about, and the same undefined names: nothing
// on the idiomatic corpus, every planted mistake on the other.
func TestSBCLAgrees(t *testing.T) {
	if testing.Short() {
		t.Skip("starting SBCL and compiling the corpus takes seconds; skipped in -short")
	}
	if _, err := exec.LookPath("sbcl"); err != nil {
		t.Skip("sbcl is not installed: apt-get install sbcl")
	}
	needAlexandria(t)
	cache := t.TempDir() // alexandria's fasls, compiled once
	for _, c := range []struct{ file, system string }{
		{"lisp_ok_idioms.txtar", "ok"},
		{"lisp_ok_stdlib.txtar", "tool"},
		{"lisp_undefined.txtar", "demo"},
	} {
		t.Run(c.system, func(t *testing.T) {
			dir := writeCase(t, filepath.Join("..", "..", "..", "dimensions", "hallucination", "testdata", c.file))
			ps, err := Resolver{}.Resolve(&lang.Request{Context: context.Background(), Changes: treeSet(t, dir)})
			if err != nil {
				t.Fatal(err)
			}
			var ours, undefined []string
			for _, p := range ps {
				switch p.Kind {
				case lang.Undefined, lang.WrongArity, lang.UnknownKeyword:
					ours = append(ours, p.Message)
				}
				if p.Kind == lang.Undefined {
					undefined = append(undefined, p.Symbol)
				}
			}
			theirs, theirUndefined := sbclWarnings(t, dir, c.system, cache)
			slices.Sort(undefined)
			if len(ours) != len(theirs) || !slices.Equal(undefined, theirUndefined) {
				t.Errorf("resolver:\n  %s\nSBCL:\n  %s", strings.Join(ours, "\n  "), strings.Join(theirs, "\n  "))
			}
		})
	}
}

// writeCase writes the head side of a txtar case into a new directory.
func writeCase(t *testing.T, file string) string {
	t.Helper()
	a, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range a.Files {
		if strings.HasPrefix(f.Name, "base/") {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(f.Name, "head/")))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// sbclWarnings loads system from dir with SBCL and ASDF (fasls in cache), and returns the relevant
// warnings and the undefined function names (lower case, without package).
func sbclWarnings(t *testing.T, dir, system, cache string) (warnings, undefined []string) {
	t.Helper()
	script := `(progn (push #p"` + dir + `/" asdf:*central-registry*)
  (asdf:load-system "alexandria")
  (setf asdf:*compile-file-failure-behaviour* :ignore asdf:*compile-file-warnings-behaviour* :ignore)
  (handler-bind ((warning (lambda (w) (format t "~&AVWARN: ~a~%" (substitute #\Space #\Newline (princ-to-string w))))))
    (asdf:load-system "` + system + `" :force (list "` + system + `"))))`
	cmd := exec.Command("sbcl", "--non-interactive", "--no-sysinit", "--no-userinit", "--eval", "(require :asdf)", "--eval", script)
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cache)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sbcl: %v\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if !sbclWarning.MatchString(line) {
			continue
		}
		warnings = append(warnings, line)
		if name, ok := strings.CutPrefix(line, "AVWARN: undefined function: "); ok {
			undefined = append(undefined, strings.ToLower(name[strings.LastIndexByte(name, ':')+1:]))
		}
	}
	slices.Sort(undefined)
	return warnings, undefined
}
