package scope

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/internal/testkit/checktest"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript"
	"github.com/agentverify/agentverify/policy"
)

func file(path, old string, op change.Op) *change.File {
	switch op {
	case change.Create:
		return change.NewFile(path, "", nil, []byte("x\n"))
	case change.Delete:
		return change.NewFile(path, path, []byte("x\n"), nil)
	case change.Rename:
		return change.NewFile(path, old, []byte("x\n"), []byte("x\n"))
	}
	return change.NewFile(path, path, []byte("x\n"), []byte("y\n"))
}

// fataler is what runScope needs of *testing.T and *rapid.T.
type fataler interface{ Fatal(args ...any) }

func runScope(t fataler, opts policy.ScopeOptions, files ...*change.File) []check.Finding {
	set := &change.Set{Files: files}
	set.Sort()
	trust := &check.Trust{PolicyFile: policy.DefaultFile, PolicyFiles: []string{policy.DefaultFile, ".agentverify.yml"}}
	pass := &check.Pass{Context: context.Background(), Changes: set, Policy: &policy.Policy{Scope: &opts}, PolicyPath: policy.DefaultFile, Trust: trust}
	fs, err := Dimension.Run(pass)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

func summary(fs []check.Finding) string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Rule+" "+f.Location.File)
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}

var allOps = []string{"create", "modify", "delete", "rename"}

func TestRules(t *testing.T) {
	big := change.NewLargeFile("data/big.bin", "", change.Create, 7<<20)
	tests := []struct {
		name  string
		opts  policy.ScopeOptions
		files []*change.File
		want  string
	}{
		{"clean", policy.ScopeOptions{AllowedPaths: []string{"**"}, AllowedOperations: allOps}, []*change.File{file("a.go", "", change.Modify)}, ""},
		{"outside allowed", policy.ScopeOptions{AllowedPaths: []string{"internal/**"}, AllowedOperations: allOps},
			[]*change.File{file("internal/a.go", "", change.Modify), file("cmd/main.go", "", change.Modify)}, "scope/outside-allowed cmd/main.go"},
		{"empty allowed list allows all", policy.ScopeOptions{AllowedOperations: allOps}, []*change.File{file("x/y.go", "", change.Create)}, ""},
		{"forbidden", policy.ScopeOptions{AllowedPaths: []string{"**"}, ForbiddenPaths: []string{"vendor/**", ".github/**"}, AllowedOperations: allOps},
			[]*change.File{file("vendor/x/y.go", "", change.Modify), file(".github/workflows/ci.yml", "", change.Create)},
			"scope/forbidden-path .github/workflows/ci.yml; scope/forbidden-path vendor/x/y.go"},
		{"rename out of forbidden dir", policy.ScopeOptions{AllowedPaths: []string{"**"}, ForbiddenPaths: []string{"secrets/**"}, AllowedOperations: allOps},
			[]*change.File{file("public/key.pem", "secrets/key.pem", change.Rename)}, "scope/forbidden-path public/key.pem"},
		{"rename into disallowed dir", policy.ScopeOptions{AllowedPaths: []string{"src/**"}, AllowedOperations: allOps},
			[]*change.File{file("docs/a.go", "src/a.go", change.Rename)}, "scope/outside-allowed docs/a.go"},
		{"operation", policy.ScopeOptions{AllowedPaths: []string{"**"}, AllowedOperations: []string{"create", "modify"}},
			[]*change.File{file("a_test.go", "", change.Delete), file("b.go", "", change.Modify)}, "scope/forbidden-operation a_test.go"},
		{"too many files", policy.ScopeOptions{AllowedPaths: []string{"**"}, AllowedOperations: allOps, MaxFilesChanged: 2},
			[]*change.File{file("a", "", change.Modify), file("b", "", change.Modify), file("c", "", change.Modify)}, "scope/too-many-files c"},
		{"policy created", policy.ScopeOptions{AllowedPaths: []string{"**"}, AllowedOperations: allOps},
			[]*change.File{file(".agentverify.yaml", "", change.Create)}, "scope/policy-changed .agentverify.yaml"},
		{"policy renamed away", policy.ScopeOptions{AllowedPaths: []string{"**"}, AllowedOperations: allOps},
			[]*change.File{file("old-policy.yaml", ".agentverify.yaml", change.Rename)}, "scope/policy-changed old-policy.yaml"},
		{"large file", policy.ScopeOptions{AllowedPaths: []string{"**"}, AllowedOperations: allOps}, []*change.File{big}, "scope/large-file data/big.bin"},
		{"binary and symlink still checked", policy.ScopeOptions{AllowedPaths: []string{"src/**"}, AllowedOperations: allOps},
			[]*change.File{change.NewFile("bin/tool", "", nil, []byte("\x00\x01")), {Path: "link", Op: change.Create, Symlink: true, Head: []byte("/etc/passwd")}},
			"scope/outside-allowed bin/tool; scope/outside-allowed link"},
		{"submodule bumped in a forbidden path", policy.ScopeOptions{AllowedPaths: []string{"**"}, ForbiddenPaths: []string{"vendor/**"}, AllowedOperations: allOps},
			[]*change.File{gitlink("vendor/lib", change.Modify, "a", "b", false)},
			"scope/forbidden-path vendor/lib; scope/unverified-submodule vendor/lib"},
		{"submodule edited inside", policy.ScopeOptions{AllowedPaths: []string{"**"}, AllowedOperations: allOps},
			[]*change.File{gitlink("lib", change.Modify, "a", "a", true)}, "scope/unverified-submodule lib"},
		{"submodule removed", policy.ScopeOptions{AllowedPaths: []string{"**"}, AllowedOperations: []string{"modify"}},
			[]*change.File{gitlink("lib", change.Delete, "a", "", false)}, "scope/forbidden-operation lib"},
		{"dotfiles match **", policy.ScopeOptions{AllowedPaths: []string{"**"}, ForbiddenPaths: []string{"**/.env"}, AllowedOperations: allOps},
			[]*change.File{file("svc/.env", "", change.Create)}, "scope/forbidden-path svc/.env"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := runScope(t, tt.opts, tt.files...)
			if got := summary(fs); got != tt.want {
				t.Errorf("findings: %s\nwant:     %s", got, tt.want)
			}
			for _, f := range fs {
				if f.Location.Line != 1 || !f.Introduced || f.Message == "" {
					t.Errorf("finding %+v: want line 1, introduced, with a message", f)
				}
			}
		})
	}
}

func TestMessages(t *testing.T) {
	fs := runScope(t, policy.ScopeOptions{AllowedPaths: []string{"**"}, ForbiddenPaths: []string{"vendor/**"}, AllowedOperations: allOps}, file("vendor/x.go", "", change.Modify))
	if len(fs) != 1 || fs[0].Message != `vendor/x.go matches forbidden glob "vendor/**"` {
		t.Errorf("message %q", fs[0].Message)
	}
	fs = runScope(t, policy.ScopeOptions{AllowedPaths: []string{"**"}, AllowedOperations: allOps}, change.NewLargeFile("big.csv", "", change.Create, 7<<20+300<<10))
	if len(fs) != 1 || fs[0].Message != "big.csv is 7.3 MiB, over the 5.0 MiB limit (limits.max_file_size): only scope checks ran on it" {
		t.Errorf("message %q", fs[0].Message)
	}
}

var (
	dirs  = []string{"src", "vendor", ".github", "docs", "src/internal"}
	names = []string{"a.go", "b_test.go", ".env", "README.md"}
	globs = []string{"**", "src/**", "vendor/**", ".github/**", "**/*_test.go", "docs/*", "**/.env", "*.go"}
)

func genPath(t *rapid.T, label string) string {
	return rapid.SampledFrom(dirs).Draw(t, label+"-dir") + "/" + rapid.SampledFrom(names).Draw(t, label+"-name")
}

// TestP5ForbiddenSupersedesAllowed: a path that matches a forbidden glob is reported as
// forbidden-path and never as outside-allowed, whatever the allowed globs say.
func TestP5ForbiddenSupersedesAllowed(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		opts := policy.ScopeOptions{
			AllowedPaths:      rapid.SliceOfN(rapid.SampledFrom(globs), 0, 3).Draw(t, "allowed"),
			ForbiddenPaths:    rapid.SliceOfN(rapid.SampledFrom(globs), 0, 3).Draw(t, "forbidden"),
			AllowedOperations: allOps,
		}
		p := genPath(t, "path")
		fs := runScope(t, opts, file(p, "", change.Modify))
		forbidden := firstMatch(opts.ForbiddenPaths, p) != ""
		allowed := len(opts.AllowedPaths) == 0 || firstMatch(opts.AllowedPaths, p) != ""
		got := summary(fs)
		switch {
		case forbidden && got != "scope/forbidden-path "+p:
			t.Fatalf("%s forbidden by %v: got %q", p, opts.ForbiddenPaths, got)
		case !forbidden && !allowed && got != "scope/outside-allowed "+p:
			t.Fatalf("%s not allowed by %v: got %q", p, opts.AllowedPaths, got)
		case !forbidden && allowed && got != "":
			t.Fatalf("%s allowed and not forbidden: got %q", p, got)
		}
	})
}

// TestG8ScopeCleanChangePasses: a change whose every path is allowed and not forbidden,
// with allowed operations, within the file limit and not touching the policy, yields no
// scope finding.
func TestG8ScopeCleanChangePasses(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 8).Draw(t, "files")
		seen := map[string]bool{}
		var files []*change.File
		for i := 0; i < n; i++ {
			p := "src/" + genPath(t, fmt.Sprint(i))
			if seen[p] {
				continue
			}
			seen[p] = true
			files = append(files, file(p, "", rapid.SampledFrom([]change.Op{change.Create, change.Modify, change.Delete}).Draw(t, "op")))
		}
		opts := policy.ScopeOptions{AllowedPaths: []string{"src/**"}, ForbiddenPaths: []string{"vendor/**"}, AllowedOperations: allOps, MaxFilesChanged: len(files)}
		if fs := runScope(t, opts, files...); len(fs) != 0 {
			t.Fatalf("clean change reported: %s", summary(fs))
		}
	})
}

// TestG7ScopeIgnoresContent: scope findings depend only on paths and operations.
func TestG7ScopeIgnoresContent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		opts := policy.ScopeOptions{AllowedPaths: []string{"src/**"}, ForbiddenPaths: []string{"vendor/**"}, AllowedOperations: []string{"create", "modify"}, MaxFilesChanged: 2}
		p := genPath(t, "path")
		mk := func(label string) *change.File {
			return change.NewFile(p, p, []byte(rapid.String().Draw(t, label+"-base")), []byte(rapid.String().Draw(t, label+"-head")+"x"))
		}
		a, b := runScope(t, opts, mk("a")), runScope(t, opts, mk("b"))
		if summary(a) != summary(b) {
			t.Fatalf("content changed scope findings: %s vs %s", summary(a), summary(b))
		}
	})
}

func TestDimension(t *testing.T) {
	checktest.Run(t, "testdata", Dimension, lang.Registry{})
}

// gitlink is a submodule path moving from commit base to commit head ("" for no side).
func gitlink(path string, op change.Op, base, head string, dirty bool) *change.File {
	f := &change.File{Path: path, OldPath: path, Op: op, Submodule: true, SubmoduleDirty: dirty}
	if base != "" {
		f.Base = []byte("Subproject commit " + base + "\n")
	}
	if head != "" {
		f.Head = []byte("Subproject commit " + head + "\n")
	}
	return f
}

// TestConfigWeakenings runs the cases of a change to a checker's own configuration
// (lang.ConfigGuard) through the TypeScript frontend; no compiler is needed.
func TestConfigWeakenings(t *testing.T) {
	checktest.Run(t, "testdata/typescript", Dimension, lang.Registry{typescript.New()})
}

// TestP4PathMatchesIffGlob: a path is forbidden exactly when a glob matches it, with the
// standard glob semantics: '**' any number of directories, '*' any run within one name,
// '?' one character, and nothing else as a wildcard.
func TestP4PathMatchesIffGlob(t *testing.T) {
	for _, c := range []struct {
		glob, path string
		match      bool
	}{
		{"**", "a/b/c.go", true},
		{"src/**", "src/a.go", true},
		{"src/**", "src/x/y/a.go", true},
		{"src/**", "srcx/a.go", false},
		{"src/**", "lib/src/a.go", false},
		{"*.go", "a.go", true},
		{"*.go", "d/a.go", false},
		{"**/*.go", "d/e/a.go", true},
		{"**/*.go", "a.go", true},
		{"**/*_test.go", "pkg/a_test.go", true},
		{"**/*_test.go", "pkg/a_test.go.orig", false},
		{"docs/*", "docs/a.md", true},
		{"docs/*", "docs/sub/a.md", false},
		{"a?.go", "ab.go", true},
		{"a?.go", "a.go", false},
		{"a?.go", "a/b.go", false},
		{"**/.env", ".env", true},
		{"**/.env", "x/.env.local", false},
		{"[ab].go", "a.go", true},
		{"[ab].go", "c.go", false},
	} {
		opts := policy.ScopeOptions{ForbiddenPaths: []string{c.glob}, AllowedOperations: allOps}
		got := summary(runScope(t, opts, file(c.path, "", change.Modify))) == "scope/forbidden-path "+c.path
		if got != c.match {
			t.Errorf("forbidden %q, path %q: matched %v, want %v", c.glob, c.path, got, c.match)
		}
	}
}

// TestP6EveryFileClassified: in a change of many files, each file is forbidden (reported
// as forbidden-path), outside the allowed paths (outside-allowed) or neither (no path
// finding), exactly one of the three, whatever the other files are.
func TestP6EveryFileClassified(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		opts := policy.ScopeOptions{
			AllowedPaths:      rapid.SliceOfN(rapid.SampledFrom(globs), 0, 3).Draw(t, "allowed"),
			ForbiddenPaths:    rapid.SliceOfN(rapid.SampledFrom(globs), 0, 3).Draw(t, "forbidden"),
			AllowedOperations: allOps,
		}
		seen := map[string]bool{}
		var files []*change.File
		var want []string
		for i, n := 0, rapid.IntRange(1, 6).Draw(t, "files"); i < n; i++ {
			p := genPath(t, fmt.Sprint(i))
			if seen[p] {
				continue
			}
			seen[p] = true
			files = append(files, file(p, "", change.Modify))
			switch {
			case firstMatch(opts.ForbiddenPaths, p) != "":
				want = append(want, "scope/forbidden-path "+p)
			case len(opts.AllowedPaths) > 0 && firstMatch(opts.AllowedPaths, p) == "":
				want = append(want, "scope/outside-allowed "+p)
			}
		}
		sort.Strings(want)
		if got := summary(runScope(t, opts, files...)); got != strings.Join(want, "; ") {
			t.Fatalf("allowed %v, forbidden %v: got %q, want %q", opts.AllowedPaths, opts.ForbiddenPaths, got, strings.Join(want, "; "))
		}
	})
}
