package python_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python"
	"github.com/agentverify/agentverify/lang/python/pydeps"
)

// pygmentsChange writes pygments to a directory and returns a one-file change to
// pygments/util.py that removes get_list_opt and breaks get_int_opt's signature.
func pygmentsChange(b *testing.B) *lang.Request {
	files := pygmentsTree(b)
	dir := b.TempDir()
	for p, s := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	base := files["pygments/util.py"]
	head := strings.Replace(base, "def get_int_opt(options, optname, default=None):", "def get_int_opt(options, optname, default, base):", 1)
	head = strings.Replace(head, "def get_list_opt(", "def _get_list_opt(", 1)
	fe := python.New()
	return &lang.Request{
		Context: context.Background(),
		Changes: &change.Set{Root: dir, HeadFS: os.DirFS(dir), BaseFS: os.DirFS(dir), BaseRev: "base", OnDisk: true,
			Files: []*change.File{change.NewFile("pygments/util.py", "pygments/util.py", []byte(base), []byte(head))}},
		Parse: func(f *change.File, s change.Side) (*lang.File, error) { return fe.Parse(f.Path, f.Content(s)) },
	}
}

// BenchmarkCompareAPI measures the API comparison of a one-file change to a real
// project (pygments, 115,000 lines): both sides of the file parsed and compared.
func BenchmarkCompareAPI(b *testing.B) {
	req := pygmentsChange(b)
	cmp := python.New().(lang.APIComparer)
	for b.Loop() {
		chs, err := cmp.CompareAPI(req)
		if err != nil || len(chs) != 2 {
			b.Fatalf("CompareAPI = %v, %v; want 2 changes", chs, err)
		}
	}
}

// BenchmarkBrokenUses measures the search for broken callers of that change across the
// whole project: every file read, those that mention the module parsed.
func BenchmarkBrokenUses(b *testing.B) {
	req := pygmentsChange(b)
	cmp := python.New().(lang.APIComparer)
	chs, err := cmp.CompareAPI(req)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		uses, err := cmp.BrokenUses(req, chs)
		if err != nil || len(uses) < 20 {
			b.Fatalf("BrokenUses = %d, %v", len(uses), err)
		}
	}
}

// depsChange is a one-file change to pygments that imports third-party packages.
func depsChange(b *testing.B) *lang.Request {
	req := pygmentsChange(b)
	src := []byte("import yaml\nimport six\nimport requests\nfrom pygments import lex\n")
	req.Changes.Files = []*change.File{change.NewFile("pygments/tool.py", "", nil, src)}
	return req
}

// BenchmarkDepsProblems measures the dependency check of a one-file change, the
// environment (python3's sys.path and Debian's dist-packages) located and scanned each
// time, as every verification of a one-shot run does.
func BenchmarkDepsProblems(b *testing.B) {
	req := depsChange(b)
	if _, err := os.Stat("/usr/lib/python3/dist-packages"); err != nil {
		b.Skip("no /usr/lib/python3/dist-packages: apt-get install python3")
	}
	c := python.NewDepChecker()
	c.Locator = pydeps.Locator{Getenv: func(string) string { return "" }}
	for b.Loop() {
		if _, err := c.Problems(req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDepsProblemsWarm is BenchmarkDepsProblems in a long-lived process: the
// environment's index is kept while its directories are unchanged.
func BenchmarkDepsProblemsWarm(b *testing.B) {
	req := depsChange(b)
	if _, err := os.Stat("/usr/lib/python3/dist-packages"); err != nil {
		b.Skip("no /usr/lib/python3/dist-packages: apt-get install python3")
	}
	c := python.NewWarmDepChecker()
	c.Locator = pydeps.Locator{Getenv: func(string) string { return "" }}
	for b.Loop() {
		if _, err := c.Problems(req); err != nil {
			b.Fatal(err)
		}
	}
}
