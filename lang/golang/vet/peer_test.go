package vet_test

import (
	"context"
	"fmt"
	"go/build"
	"go/scanner"
	"go/token"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	textscanner "text/scanner"

	"golang.org/x/tools/go/analysis/passes/printf"
	"golang.org/x/tools/go/analysis/passes/testinggoroutine"
	"golang.org/x/tools/go/analysis/passes/unusedresult"
	"golang.org/x/tools/txtar"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/dimensions/hallucination"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang"
	"github.com/agentverify/agentverify/lang/golang/vet"
	"github.com/agentverify/agentverify/policy"
)

// peerRuns lists, by analyzer, what its upstream tests run (the x/tools _test.go files
// of v0.52.0): the GOPATH packages under src/ and the txtar archives. Expectations
// elsewhere in the data are not checked, as upstream (loopclosure's GOPATH packages,
// for one, predate Go 1.22 and are run by no test).
var peerRuns = map[string][]string{
	"appends": {"a", "b"}, "asmdecl": {"a"}, "assign": {"a", "typeparams"}, "atomic": {"a", "typeparams"},
	"bools": {"a", "typeparams"}, "buildtag": {"a", "b"}, "cgocall": {"a", "b", "c", "typeparams"},
	"composites": {"a", "typeparams"},
	"copylocks":  {"a", "typeparams", "issue67787", "unfortunate", "src/forstmt/go22.txtar", "src/forstmt/go21.txtar"},
	"defers":     {"a"}, "directive": {"a"}, "errorsas": {"a", "typeparams"}, "framepointer": {"a"},
	"httpresponse": {"a", "typeparams"}, "hostport": {"a"}, "ifaceassert": {"a", "typeparams"},
	"loopclosure": {"src/versions/go22.txtar"}, "lostcancel": {"a", "b", "typeparams"}, "nilfunc": {"a", "typeparams"},
	"printf": {"a", "b", "nofmt", "nonconst", "typeparams", "issue62595", "issue68744", "issue70572", "issue72850", "issue76616",
		"nonconst_go123.txtar", "nonconst_go124.txtar"},
	"shift": {"a", "typeparams"}, "sigchanyzer": {"a"}, "slog": {"a", "b"}, "stdmethods": {"a", "typeparams"},
	"stdversion": {"test.txtar"}, "stringintconv": {"a", "typeparams", "fix"}, "structtag": {"a"},
	"testinggoroutine": {"a", "typeparams"}, "tests": {"a", "b_x_test", "divergent", "typeparams"},
	"timeformat": {"a"}, "unmarshal": {"a", "typeparams"}, "unreachable": {"a"}, "unsafeptr": {"a", "typeparams"},
	"unusedresult": {"a", "typeparams"}, "waitgroup": {"a"},
}

// peerSkipped lists the expectations of the data the engine cannot meet, by
// "analyzer/file:line", with the reason.
var peerSkipped = map[string]string{
	"composites/a/a.go:78": relativeImport,
	"composites/a/a.go:84": relativeImport,
	"composites/a/a.go:91": relativeImport,
}

// relativeImport is why composite's expectations about flag.Flag are skipped.
const relativeImport = `the package imports "./flag", which GOPATH mode resolves and module mode, the only mode the engine checks, rejects: flag.Flag has no type`

// TestPeerSuite runs the test data of every analyzer of go vet's suite (testdata/peer,
// see its README) through the hallucination dimension and fails when an expected
// diagnostic is not reported, on its line, under the analyzer's rule.
func TestPeerSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks go vet's test data with the Go toolchain (about a minute); runs without -short")
	}
	setPeerFlags(t)
	var mu sync.Mutex
	total, found := 0, 0
	t.Cleanup(func() {
		t.Logf("go vet's test data: %d diagnostics expected, %d found through the engine", total, found)
	})
	for _, a := range vet.Suite {
		t.Run(a.Name, func(t *testing.T) {
			t.Parallel() // the go command waits on the disk as much as on the processor
			runs := peerRuns[a.Name]
			if len(runs) == 0 {
				t.Errorf("%s: no test data listed in peerRuns", a.Name)
			}
			for _, tr := range peerTrees(t, filepath.Join("testdata", "peer", peerDir(a.Name)), runs) {
				n, ok := runPeerTree(t, a.Name, tr)
				mu.Lock()
				total, found = total+n, found+ok
				mu.Unlock()
			}
		})
	}
}

// setPeerFlags sets the analyzer flags the upstream tests set, for the run.
func setPeerFlags(t *testing.T) {
	for _, f := range []struct {
		set   func(string, string) error
		name  string
		value string
	}{
		{printf.Analyzer.Flags.Set, "funcs", "Warn,Warnf"},
		{unusedresult.Analyzer.Flags.Set, "funcs", "typeparams/userdefs.MustUse,errors.New,fmt.Errorf,fmt.Sprintf,fmt.Sprint"},
		{testinggoroutine.Analyzer.Flags.Set, "subtest", "true"},
	} {
		if err := f.set(f.name, f.value); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { _ = testinggoroutine.Analyzer.Flags.Set("subtest", "false") })
}

// peerDir is the directory of an analyzer's package in x/tools.
func peerDir(analyzer string) string {
	switch analyzer {
	case "composites":
		return "composite"
	case "copylocks":
		return "copylock"
	}
	return analyzer
}

// peerTree is one tree of test data, as it is laid out for the go command, and the files
// whose expectations count.
type peerTree struct {
	name    string
	files   map[string][]byte
	checked func(file string) bool
}

// peerTrees lays out what runs lists of an analyzer's data in dir: the GOPATH tree (src/,
// one module per top-level directory, joined by a go.work; its expectations in the
// listed packages) and the listed txtar archives.
func peerTrees(t *testing.T, dir string, runs []string) []peerTree {
	var trees []peerTree
	pkgs := map[string]bool{}
	for _, r := range runs {
		if !strings.HasSuffix(r, ".txtar") {
			pkgs[r] = true
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(r)))
		if err != nil {
			t.Fatal(err)
		}
		tr := peerTree{name: r, files: map[string][]byte{}, checked: func(string) bool { return true }}
		for _, f := range txtar.Parse(b).Files {
			tr.files[f.Name] = f.Data
		}
		trees = append(trees, tr)
	}
	if len(pkgs) > 0 {
		trees = append(trees, gopathTree(t, filepath.Join(dir, "src"), pkgs))
	}
	return trees
}

// gopathTree lays out a GOPATH tree as a go.work workspace of one module per top-level
// directory, at the toolchain's language version: GOPATH mode type-checks with the go
// command's version.
func gopathTree(t *testing.T, src string, pkgs map[string]bool) peerTree {
	tr := peerTree{name: "src", files: map[string][]byte{}, checked: func(f string) bool { return pkgs[path.Dir(f)] }}
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".src") {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(src, p)
		tr.files[strings.TrimSuffix(filepath.ToSlash(rel), ".src")] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	tags := build.Default.ReleaseTags
	goLine := strings.TrimPrefix(tags[len(tags)-1], "go")
	mods := map[string]bool{}
	for f := range tr.files {
		mods[strings.SplitN(f, "/", 2)[0]] = true
	}
	work := "go " + goLine + "\n\nuse (\n"
	for _, m := range slices.Sorted(maps.Keys(mods)) {
		tr.files[m+"/go.mod"] = []byte(fmt.Sprintf("module %s\n\ngo %s\n", m, goLine))
		work += "\t./" + m + "\n"
	}
	tr.files["go.work"] = []byte(work + ")\n")
	return tr
}

// runPeerTree checks one tree in check mode and returns how many diagnostics of analyzer
// it expects and how many of those were found.
func runPeerTree(t *testing.T, analyzer string, tr peerTree) (expected, found int) {
	root := t.TempDir()
	var files []*change.File
	var wants []peerWant
	for name, b := range tr.files {
		full := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, ".go") || strings.HasSuffix(name, ".s") {
			files = append(files, change.NewFile(name, "", nil, b))
			if tr.checked(name) && upstreamReads(analyzer, full) {
				wants = append(wants, peerWants(t, name, b)...)
			}
		}
	}
	set := &change.Set{Root: root, HeadFS: os.DirFS(root), NoBase: true, OnDisk: true, Files: files}
	set.Sort()
	got, err := hallucination.Dimension.Run(&check.Pass{Context: context.Background(), Changes: set, Policy: policy.Default(),
		Mode: check.Check, Languages: lang.Registry{golang.New()}})
	if err != nil {
		t.Fatalf("%s/%s: %v", analyzer, tr.name, err)
	}
	rule := "hallucination/vet-" + analyzer
	if analyzer == "stdversion" {
		rule = "hallucination/api-too-new"
	}
	sort.Slice(wants, func(i, j int) bool {
		if wants[i].file != wants[j].file {
			return wants[i].file < wants[j].file
		}
		return wants[i].line < wants[j].line
	})
	used := map[int]bool{}
	for _, w := range wants {
		expected++
		if matchWant(got, used, rule, w) {
			found++
			continue
		}
		key := fmt.Sprintf("%s/%s:%d", analyzer, w.file, w.line)
		if why, ok := peerSkipped[key]; ok {
			t.Logf("skipped %s %q: %s", key, w.rx, why)
			continue
		}
		t.Errorf("%s (%s): %s:%d: no %s finding matching %q%s", analyzer, tr.name, w.file, w.line, rule, w.rx, onLine(got, w))
	}
	return expected, found
}

// asmdeclPorts are the architectures the upstream asmdecl test runs under (loong64 is
// commented out there).
var asmdeclPorts = []string{"amd64", "386", "arm", "mips64", "s390x", "ppc64", "mips", "wasm", "riscv64"}

// upstreamReads reports whether the upstream test reads the expectations of file: those
// of the files its build includes (on this host; for asmdecl, under each port it sets),
// and for buildtag and directive those of the files it excludes as well.
func upstreamReads(analyzer, file string) bool {
	switch {
	case analyzer == "buildtag" || analyzer == "directive":
		return true
	case analyzer == "asmdecl" && strings.HasSuffix(file, ".s"):
		for _, arch := range asmdeclPorts {
			ctx := build.Default
			ctx.GOOS, ctx.GOARCH = "linux", arch
			if arch == "wasm" {
				ctx.GOOS = "js"
			}
			if ok, _ := ctx.MatchFile(filepath.Dir(file), filepath.Base(file)); ok {
				return true
			}
		}
		return false
	}
	ok, _ := build.Default.MatchFile(filepath.Dir(file), filepath.Base(file))
	return ok
}

// matchWant finds an unused finding of rule on w's line whose message w's pattern matches.
func matchWant(got []check.Finding, used map[int]bool, rule string, w peerWant) bool {
	for i, f := range got {
		if !used[i] && f.Rule == rule && f.Location.File == w.file && f.Location.Line == w.line && w.rx.MatchString(f.Message) {
			used[i] = true
			return true
		}
	}
	return false
}

// onLine shows what the engine reported on w's line.
func onLine(got []check.Finding, w peerWant) string {
	var s []string
	for _, f := range got {
		if f.Location.File == w.file && f.Location.Line == w.line {
			s = append(s, f.Rule+": "+f.Message)
		}
	}
	if len(s) == 0 {
		return " (nothing reported on the line)"
	}
	return " (reported: " + strings.Join(s, "; ") + ")"
}

// peerWant is one expected diagnostic.
type peerWant struct {
	file string
	line int
	rx   *regexp.Regexp
}

// peerWants reads the "// want" comments of a file as analysistest does: in Go files
// the comments (a comment holding "// want" counts from there), in other files every
// line's text after "//".
func peerWants(t *testing.T, name string, src []byte) []peerWant {
	var out []peerWant
	add := func(line int, text string) {
		text = strings.TrimSpace(text)
		rest, ok := strings.CutPrefix(text, "want")
		if !ok {
			return
		}
		delta, rxs, err := parseWant(rest)
		if err != nil {
			t.Fatalf("%s:%d: want comment: %v", name, line, err)
		}
		for _, rx := range rxs {
			out = append(out, peerWant{file: name, line: line + delta, rx: rx})
		}
	}
	if !strings.HasSuffix(name, ".go") {
		for i, line := range strings.Split(string(src), "\n") {
			if j := strings.Index(line, "// want"); j >= 0 {
				line = line[j:]
			}
			if j := strings.Index(line, "//"); j >= 0 {
				add(i+1, line[j+2:])
			}
		}
		return out
	}
	fset := token.NewFileSet()
	var s scanner.Scanner
	s.Init(fset.AddFile(name, -1, len(src)), src, nil, scanner.ScanComments)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok != token.COMMENT {
			continue
		}
		text := lit[2:]
		if lit[1] == '*' {
			text = strings.TrimSuffix(text, "*/")
		}
		if i := strings.Index(text, "// want"); i >= 0 {
			text = text[i+len("// "):]
		}
		add(fset.Position(pos).Line, text)
	}
}

// parseWant parses what follows "want": an optional +N line offset, then regular
// expressions (diagnostics) and name:"re" pairs (facts, skipped).
func parseWant(text string) (delta int, rxs []*regexp.Regexp, err error) {
	var sc textscanner.Scanner
	sc.Init(strings.NewReader(text))
	sc.Error = func(*textscanner.Scanner, string) {}
	sc.Mode = textscanner.ScanIdents | textscanner.ScanStrings | textscanner.ScanRawStrings | textscanner.ScanInts
	for {
		switch tok := sc.Scan(); tok {
		case textscanner.EOF:
			return delta, rxs, nil
		case '+':
			if sc.Scan() != textscanner.Int {
				return 0, nil, fmt.Errorf("+ without a line count in %q", text)
			}
			delta, _ = strconv.Atoi(sc.TokenText())
		case textscanner.String, textscanner.RawString:
			pat, _ := strconv.Unquote(sc.TokenText())
			rx, err := regexp.Compile(pat)
			if err != nil {
				return 0, nil, err
			}
			rxs = append(rxs, rx)
		case textscanner.Ident:
			if sc.Scan() != ':' {
				return 0, nil, fmt.Errorf("%s without ':' in %q", sc.TokenText(), text)
			}
			sc.Scan() // the fact's pattern: facts are not findings
		default:
			return 0, nil, fmt.Errorf("unexpected %q in %q", sc.TokenText(), text)
		}
	}
}
