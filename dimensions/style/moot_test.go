package style

import (
	"context"
	"io/fs"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript"
	"github.com/agentverify/agentverify/policy"
)

// countingFS counts the files opened through it.
type countingFS struct {
	fstest.MapFS
	opened *atomic.Int32
}

func (c countingFS) Open(name string) (fs.File, error) {
	if strings.HasSuffix(name, ".ts") {
		c.opened.Add(1)
	}
	return c.MapFS.Open(name)
}

func (c countingFS) ReadFile(name string) ([]byte, error) {
	if strings.HasSuffix(name, ".ts") {
		c.opened.Add(1)
	}
	return c.MapFS.ReadFile(name)
}

// TestDetectionSkippedWhenMoot: in diff mode, when every identifier on a changed line gets
// the same verdict under each convention, the project is not read to detect its
// convention (a diff adding one-word names reads no other file), and the findings are
// those detection gives; a multi-word name on a changed line makes it detect.
func TestDetectionSkippedWhenMoot(t *testing.T) {
	t.Parallel()
	old := "export function make_shape(side_count: number): number {\n  const new_store = side_count;\n  return new_store;\n}\n"
	base := []byte("export function area_of(scale_by: number): number {\n  return scale_by;\n}\n")
	for _, c := range []struct {
		line    string
		reads   bool
		finding string
	}{
		{"export const total = 1;\n", false, ""},
		{"export const totalArea = 1;\n", true, "const totalArea is not snake_case; it should be total_area"},
	} {
		head := append(append([]byte{}, base...), c.line...)
		var opened atomic.Int32
		fsys := countingFS{fstest.MapFS{"src/old.ts": {Data: []byte(old)}, "src/new.ts": {Data: head}}, &opened}
		langs := lang.Registry{typescript.New()}
		set := &change.Set{Root: "/r", HeadFS: fsys, BaseFS: fsys, BaseRev: "base",
			Files: []*change.File{change.NewFile("src/new.ts", "src/new.ts", base, head)}}
		pol := policy.Default()
		pol.Style = &policy.StyleOptions{Naming: "detect", RequireDocs: "none"}
		pass := &check.Pass{Context: context.Background(), Changes: set, Policy: pol, Mode: check.Diff,
			Languages: langs, Files: check.NewFiles(langs)}
		fs, err := Dimension.Run(pass)
		if err != nil {
			t.Fatal(err)
		}
		var kept []string
		for _, f := range fs {
			if pass.Keep(f) {
				kept = append(kept, f.Message)
			}
		}
		if got := opened.Load() > 0; got != c.reads {
			t.Errorf("%q: the project read: %t, want %t", c.line, got, c.reads)
		}
		if got := strings.Join(kept, "; "); !strings.Contains(got, c.finding) || (c.finding == "") != (got == "") {
			t.Errorf("%q: kept findings %q, want %q", c.line, got, c.finding)
		}
	}
}
