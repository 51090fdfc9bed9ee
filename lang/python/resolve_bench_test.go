package python_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/internal/testkit/pyrighttest"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python"
	"github.com/agentverify/agentverify/lang/python/pyright"
	"github.com/agentverify/agentverify/policy"
)

// benchProject is a real package of over 50,000 lines: Debian's setuptools (python3-setuptools).
const benchProject = "/usr/lib/python3/dist-packages/setuptools"

// benchFiles are the files the benchmarks' one-file change edits: a leaf module that
// imports only the standard library, and the module most of the package depends on.
var benchFiles = []struct{ name, path string }{
	{"leaf", "setuptools/glob.py"},
	{"hub", "setuptools/dist.py"},
}

// copyProject copies the benchmark package into a new project and returns its root and the
// edited file's head content (one added function).
func copyProject(b *testing.B, file string) (string, []byte) {
	root, src := copyTree(b, file)
	return root, edit(src, 0)
}

// edit returns src with the i-th agent edit: one added function.
func edit(src []byte, i int) []byte {
	return fmt.Appendf(append([]byte{}, src...), "\n\ndef _added%d(x):\n    return len(x)\n", i)
}

// copyTree copies the benchmark package into a new project and returns its root and the
// content of file.
func copyTree(b *testing.B, file string) (string, []byte) {
	b.Helper()
	pyrighttest.Require(b)
	if _, err := os.Stat(benchProject); err != nil {
		b.Skipf("%s is not installed (apt-get install python3-setuptools)", benchProject)
	}
	root := b.TempDir()
	err := filepath.WalkDir(benchProject, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".py") {
			return err
		}
		rel, _ := filepath.Rel(filepath.Dir(benchProject), p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		b.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		b.Fatal(err)
	}
	return root, src
}

func benchRequest(root, file string, head []byte) *lang.Request {
	set := &change.Set{Root: root, HeadFS: os.DirFS(root), OnDisk: true, NoBase: true,
		Files: []*change.File{change.NewFile(file, "", nil, head)}}
	return &lang.Request{Context: context.Background(), Changes: set, Policy: policy.Default()}
}

// BenchmarkResolve verifies a one-file change to a 50k-line project: cold, with pyright
// in batch mode and the edit proposed (a mirror of the head's Python files is checked);
// cold with the edit on disk (pyright runs in place); warm, through a running language
// server, each iteration a new edit of the file (an agent's next edit; the first check,
// which starts the server, is not timed); and warm-same, the same edit verified again
// (an MCP verify_edit, then the diff of the written file).
func BenchmarkResolve(b *testing.B) {
	for _, f := range benchFiles {
		b.Run("cold/"+f.name, func(b *testing.B) { benchCold(b, f.path, false) })
		b.Run("cold-on-disk/"+f.name, func(b *testing.B) { benchCold(b, f.path, true) })
		b.Run("warm/"+f.name, func(b *testing.B) { benchWarm(b, f.path, true) })
		b.Run("warm-same/"+f.name, func(b *testing.B) { benchWarm(b, f.path, false) })
	}
}

func benchCold(b *testing.B, file string, onDisk bool) {
	root, head := copyProject(b, file)
	if onDisk {
		if err := os.WriteFile(filepath.Join(root, file), head, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	cpu := startCPU()
	for b.Loop() {
		fe := python.New().(lang.Resolver) // a new process knows nothing
		if _, err := fe.Resolve(benchRequest(root, file, head)); err != nil {
			b.Fatal(err)
		}
	}
	cpu.report(b)
}

func benchWarm(b *testing.B, file string, newEdits bool) {
	root, src := copyTree(b, file)
	servers := pyright.NewServers()
	defer servers.Close()
	fe := python.NewWarm(servers).(lang.Resolver)
	if _, err := fe.Resolve(benchRequest(root, file, edit(src, 0))); err != nil {
		b.Fatal(err)
	}
	i := 0
	cpu := startCPU()
	for b.Loop() {
		if newEdits {
			i++
		}
		if _, err := fe.Resolve(benchRequest(root, file, edit(src, i))); err != nil {
			b.Fatal(err)
		}
	}
	cpu.report(b)
}
