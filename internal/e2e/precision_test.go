package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	modv "golang.org/x/mod/module"
	"golang.org/x/mod/zip"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
)

// A real commit's shape (docs/precision.md): the tree before it, the files it writes
// ("" deletes), and the hallucination rules `diff --base PARENT` must report (none for a
// commit that builds). skipped, when set, is a parent commit left out: the commit's
// change is applied onto the tree before that parent, as a change written against a
// stale tree would be, and verified against it.
type commitShape struct {
	name    string
	base    map[string]string
	skipped map[string]string
	commit  map[string]string
	want    []string
	cgo     bool // needs cgo on the host
}

// flagModule is a dependency served by the test's module proxy, as spf13/pflag is to
// cobra.
var flagModule = map[string]string{
	"go.mod":  "module example.com/flag\n\ngo 1.12\n",
	"flag.go": "// Package flag parses flags.\npackage flag\n\n// FlagSet is a set of flags.\ntype FlagSet struct{ Name string }\n\n// NewFlagSet returns a named flag set.\nfunc NewFlagSet(name string) *FlagSet { return &FlagSet{Name: name} }\n",
}

const cobraMod = "module example.com/cobra\n\ngo 1.15\n\nrequire example.com/flag v1.0.5\n"

const cobraGo = `// Package cobra runs commands.
package cobra

import "example.com/flag"

// Command is a command.
type Command struct{ flags *flag.FlagSet }

// Flags returns the command's flags.
func (c *Command) Flags() *flag.FlagSet {
	if c.flags == nil {
		c.flags = flag.NewFlagSet("cmd")
	}
	return c.flags
}
`

const spewCgo = `//go:build cgo && testcgo
// +build cgo,testcgo

package testdata

/*
char *cp = "test";
*/
import "C"

// GetCgoCharPointer returns a char pointer via cgo.
func GetCgoCharPointer() interface{} { return C.cp }
`

const spewCgoTest = `//go:build cgo && testcgo
// +build cgo,testcgo

package spew_test

import (
	"fmt"

	"example.com/testify/internal/spew/testdata"
)

func addCgoDumpTests() { fmt.Println(testdata.GetCgoCharPointer()) }
`

const zapCore = `// Package zapcore logs entries.
package zapcore

// Entry is a log entry.
type Entry struct{ Message string }

// Core writes entries.
type Core interface{ Write(Entry) error }
`

const zapObserver = `// Package observer records entries for tests.
package observer

import "example.com/zap/zapcore"

// Logs is a zapcore.Core that keeps what it writes.
type Logs struct{ All []zapcore.Entry }

// Write keeps e.
func (l *Logs) Write(e zapcore.Entry) error { l.All = append(l.All, e); return nil }

// New returns an empty recorder.
func New() (zapcore.Core, *Logs) { l := &Logs{}; return l, l }
`

const zapLazyTest = `package zapcore_test

import (
	"testing"

	"example.com/zap/observer"
	"example.com/zap/zapcore"
)

func TestLazy(t *testing.T) {
	core, logs := observer.New()
	var c zapcore.Core = core
	if err := c.Write(zapcore.Entry{Message: "m"}); err != nil {
		t.Fatal(err)
	}
	want := []zapcore.Entry{{Message: "m"}}
	_ = want
	logs.All = append(logs.All, zapcore.Entry{Message: "n"})
}
`

// commitShapes reproduces the false alarms and breaks measured on real repositories.
var commitShapes = []commitShape{{
	// spf13/cobra 611e16c (go 1.15): new tests call os.WriteFile (go1.16); the shape also has io.ReadAll,
	// os.MkdirTemp (other commits). Before go 1.21 the go line was no minimum version: api-too-new.
	name: "cobra-611e16c-api-under-go1.15",
	base: map[string]string{"go.mod": cobraMod, "cobra.go": cobraGo,
		"cobra_test.go": "package cobra\n\nimport (\n\t\"io/ioutil\"\n\t\"testing\"\n)\n\nfunc TestWrite(t *testing.T) {\n\tif err := ioutil.WriteFile(t.TempDir()+\"/x\", nil, 0o644); err != nil {\n\t\tt.Fatal(err)\n\t}\n}\n"},
	commit: map[string]string{"cobra_test.go": "package cobra\n\nimport (\n\t\"io\"\n\t\"os\"\n\t\"strings\"\n\t\"testing\"\n)\n\nfunc TestWrite(t *testing.T) {\n\tdir, err := os.MkdirTemp(\"\", \"cobra\")\n\tif err != nil {\n\t\tt.Fatal(err)\n\t}\n\tdefer os.RemoveAll(dir)\n\tif err := os.WriteFile(dir+\"/x\", nil, 0o644); err != nil {\n\t\tt.Fatal(err)\n\t}\n\tb, _ := io.ReadAll(strings.NewReader(\"x\"))\n\t_ = b\n}\n"},
}, {
	// spf13/cobra d1e9d85 (go 1.15): testing.Testing() on go1.21 and later, a fallback for
	// older releases (//go:build !go1.21) that no build of the installed toolchain has:
	// unverified-file.
	name: "cobra-d1e9d85-fallback-before-go1.21",
	base: map[string]string{"go.mod": cobraMod, "cobra.go": cobraGo},
	commit: map[string]string{
		"command_go120.go": "//go:build !go1.21\n// +build !go1.21\n\npackage cobra\n\nimport (\n\t\"os\"\n\t\"strings\"\n)\n\nvar inTest = len(os.Args) > 0 && strings.HasSuffix(strings.TrimSuffix(os.Args[0], \".exe\"), \".test\")\n\nfunc isTesting() bool { return inTest }\n",
		"command_go121.go": "//go:build go1.21\n// +build go1.21\n\npackage cobra\n\nimport \"testing\"\n\nfunc isTesting() bool { return testing.Testing() }\n",
		"args.go":          "package cobra\n\n// Args returns the arguments to parse.\nfunc (c *Command) Args(args []string) []string {\n\tif args == nil && !isTesting() {\n\t\treturn []string{}\n\t}\n\treturn args\n}\n",
	},
}, {
	// stretchr/testify 3987752: the vendored go-spew's cgo test (//go:build cgo && testcgo)
	// imports a testdata package using cgo. The loader turned cgo off in the configuration
	// chosen to include the file: unverified-file.
	name: "testify-3987752-cgo-tagged-test",
	base: map[string]string{"go.mod": "module example.com/testify\n\ngo 1.17\n",
		"internal/spew/spew.go": "// Package spew dumps values.\npackage spew\n\n// Sdump dumps v.\nfunc Sdump(v interface{}) string { return \"\" }\n"},
	commit: map[string]string{
		"internal/spew/testdata/dumpcgo.go": spewCgo,
		"internal/spew/dumpcgo_test.go":     spewCgoTest,
	},
	cgo: true,
}, {
	// stretchr/testify 3dce331: go fmt over the tree, a testdata fixture included. go list
	// of the testdata directory failed ("build constraints exclude all Go files in
	// /abs/…/testdata"), reported as a type error on an unrelated changed file.
	name: "testify-3dce331-testdata-fixture",
	base: map[string]string{"go.mod": "module example.com/testify\n\ngo 1.17\n",
		"internal/spew/spew.go":             "// Package spew dumps values.\npackage spew\n\n// Sdump dumps v.\nfunc Sdump(v interface{}) string {   return \"\" }\n",
		"internal/spew/testdata/dumpcgo.go": strings.Replace(spewCgo, "{ return C.cp }", "{return C.cp}", 1),
	},
	commit: map[string]string{
		"internal/spew/spew.go":             "// Package spew dumps values.\npackage spew\n\n// Sdump dumps v.\nfunc Sdump(v interface{}) string { return \"\" }\n",
		"internal/spew/testdata/dumpcgo.go": spewCgo,
	},
}, {
	// uber-go/zap d6b395b (also 7c80d7b, 5786471): zapcore's external test imports
	// zaptest/observer, which imports zapcore, so go list recompiles observer against
	// zapcore's test variant ("observer [zapcore.test]"). The warm re-check made a new
	// zapcore test variant while observer's types named the cold load's: "cannot use
	// zapcore.Entry{…} (value of struct type zapcore.Entry) as zapcore.Entry value".
	name: "zap-d6b395b-recompiled-for-test",
	base: map[string]string{"go.mod": "module example.com/zap\n\ngo 1.19\n",
		"zapcore/core.go":      zapCore,
		"zapcore/core_test.go": "package zapcore\n\nimport \"testing\"\n\nfunc TestEntry(t *testing.T) { _ = Entry{Message: \"m\"} }\n",
		"observer/observer.go": zapObserver,
		"zapcore/lazy_test.go": strings.Replace(zapLazyTest, "\tlogs.All = append(logs.All, zapcore.Entry{Message: \"n\"})\n", "", 1),
	},
	commit: map[string]string{
		"zapcore/core.go":      strings.Replace(zapCore, "Message string", "Message, Caller string", 1),
		"zapcore/lazy_test.go": zapLazyTest,
	},
}, {
	// A break made by skipping a parent: the commit calls what its parent added.
	name: "skipped-parent-break",
	base: map[string]string{"go.mod": cobraMod, "cobra.go": cobraGo},
	skipped: map[string]string{
		"hooks.go": "package cobra\n\n// PreRun runs before the command.\nfunc (c *Command) PreRun() error { return nil }\n",
	},
	commit: map[string]string{
		"run.go": "package cobra\n\n// Execute runs the command.\nfunc (c *Command) Execute() error { return c.PreRun() }\n",
	},
	want: []string{"hallucination/unknown-member run.go"},
}}

// TestRealCommitShapes verifies each commit shape the way docs/precision.md measures real
// commits: a git repository with the commit and its parent, `diff --base PARENT`, module
// dependencies from a file-based module proxy into an empty module cache.
func TestRealCommitShapes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds git repositories and a module cache; skipped with -short")
	}
	proxy := moduleProxy(t, map[string]map[string]string{"example.com/flag@v1.0.5": flagModule})
	t.Setenv("GOMODCACHE", t.TempDir())
	t.Setenv("GOPROXY", proxy)
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOFLAGS", "-modcacherw")
	t.Setenv("GOWORK", "off")
	cgo := cgoOn()
	for _, c := range commitShapes {
		t.Run(c.name, func(t *testing.T) {
			if c.cgo && !cgo {
				t.Skip("cgo is off here (go env CGO_ENABLED): install a C compiler (apt-get install gcc)")
			}
			r := shapeRepo(t, c)
			req := agentverify.Request{Dir: r.Dir, Source: agentverify.WorkingTree, Base: "HEAD~1"}
			if c.skipped != nil {
				req.Base = "HEAD"
			}
			rep, err := agentverify.Check(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, v := range rep.Violations {
				if strings.HasPrefix(v.Rule, "hallucination/") && v.Severity == "error" {
					got = append(got, v.Rule+" "+v.Location.File)
					t.Logf("%s %s:%d %s", v.Rule, v.Location.File, v.Location.Line, v.Message)
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("hallucination errors %q, want %q", got, c.want)
			}
		})
	}
}

// shapeRepo makes the repository of a commit shape, checked out at the commit (or, with a
// skipped parent, at the tree before it with the commit's change in the working tree).
func shapeRepo(t *testing.T, c commitShape) *testrepo.Repo {
	t.Helper()
	r := testrepo.New(t, c.base)
	if strings.Contains(c.base["go.mod"], "require") {
		run(t, r.Dir, "go", "mod", "tidy")
		r.Git("add", "-A")
		r.Git("commit", "-q", "-m", "go.sum")
	}
	if c.skipped != nil {
		r.Write(c.skipped)
		r.Commit("the skipped parent")
	}
	write(t, r, c.commit)
	r.Commit("the commit")
	if c.skipped != nil {
		diff := r.Git("diff", "--binary", "HEAD~1", "HEAD") + "\n"
		r.Git("checkout", "-q", "HEAD~2")
		patch := filepath.Join(t.TempDir(), "commit.patch")
		if err := os.WriteFile(patch, []byte(diff), 0o644); err != nil {
			t.Fatal(err)
		}
		r.Git("apply", "--index", patch)
	}
	return r
}

// write writes files into r ("" deletes one).
func write(t *testing.T, r *testrepo.Repo, files map[string]string) {
	t.Helper()
	for p, content := range files {
		if content == "" {
			if err := os.Remove(filepath.Join(r.Dir, filepath.FromSlash(p))); err != nil {
				t.Fatal(err)
			}
			delete(files, p)
		}
	}
	r.Write(files)
}

// moduleProxy writes a file-based module proxy serving mods ("path@version" → files) and
// returns its GOPROXY value (no network: off after it).
func moduleProxy(t *testing.T, mods map[string]map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for pv, files := range mods {
		path, version, _ := strings.Cut(pv, "@")
		src := t.TempDir()
		for name, content := range files {
			if err := os.WriteFile(filepath.Join(src, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		dir := filepath.Join(root, filepath.FromSlash(path), "@v")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(filepath.Join(dir, version+".zip"))
		if err != nil {
			t.Fatal(err)
		}
		if err := zip.CreateFromDir(f, modv.Version{Path: path, Version: version}, src); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		for name, content := range map[string]string{"list": version + "\n", version + ".mod": files["go.mod"],
			version + ".info": `{"Version":"` + version + `","Time":"2024-01-01T00:00:00Z"}`} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return "file://" + filepath.ToSlash(root) + ",off"
}

// cgoOn reports whether cgo is on for host builds.
func cgoOn() bool {
	out, err := exec.Command("go", "env", "CGO_ENABLED").Output()
	return err == nil && strings.TrimSpace(string(out)) == "1"
}

// run runs a command in dir and fails the test on an error.
func run(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}
