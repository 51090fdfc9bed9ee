package python

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/lang/python/syntax"
)

// benchFile is a large real Python file: the standard library's pure-Python decimal
// module (about 230 KB, 6,400 lines).
func benchFile(b *testing.B) (string, []byte) {
	out, err := exec.Command("python3", "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])").Output()
	if err != nil {
		b.Skip("no python3 to locate the standard library: apt-get install python3")
	}
	p := filepath.Join(strings.TrimSpace(string(out)), "_pydecimal.py")
	src, err := os.ReadFile(p)
	if err != nil {
		b.Skipf("no %s: apt-get install python3", p)
	}
	return p, src
}

// BenchmarkParse measures a whole Parse: tree-sitter, the copy out of C and every
// extraction.
func BenchmarkParse(b *testing.B) {
	p, src := benchFile(b)
	fe := New()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fe.Parse(p, src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTreeSitter measures tree-sitter alone with the copy into Go nodes.
func BenchmarkTreeSitter(b *testing.B) {
	_, src := benchFile(b)
	g := syntax.NewGrammar()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := g.Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}
