package resolve_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/change/editset"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/internal/testkit/tsctest"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript"
	"github.com/agentverify/agentverify/policy"
)

// The batch compiler starts from the record of the last check of the project
// (buildinfo.go): a caller in an unchanged file that an edit breaks is still reported
// once the record exists, in place and over a mirror of the head, and is gone when the
// edit is taken back; the repository itself is left as it was.
func TestIncrementalRecordKeepsCallers(t *testing.T) {
	shorttest.Slow(t, "runs tsc over several projects")
	tsctest.Require(t)
	t.Setenv("AGENTVERIFY_CACHE_DIR", t.TempDir())
	root := t.TempDir()
	files := map[string]string{
		"tsconfig.json": `{ "compilerOptions": { "target": "es2022", "strict": true, "module": "esnext", "moduleResolution": "bundler", "types": [] }, "include": ["src"] }`,
		"src/lib.ts":    "export function twice(n: number): number {\n  return 2 * n;\n}\n",
		"src/use.ts":    "import { twice } from \"./lib\";\nexport const four: number = twice(2);\n",
	}
	for p, s := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	base := []byte(files["src/lib.ts"])
	broken := []byte("export function twice(n: string): string {\n  return n + n;\n}\n")
	comment := []byte("// a comment\n" + files["src/lib.ts"])
	callers := []string{"src/use.ts:2", "src/use.ts:2"} // the argument and the result
	for i, step := range []struct {
		head   []byte
		onDisk bool
		want   []string
	}{
		{comment, true, nil},
		{broken, true, callers},
		{comment, true, nil},
		{broken, false, callers}, // over a mirror
		{broken, false, callers},
		{comment, false, nil},
	} {
		disk := step.head
		if !step.onDisk {
			disk = base
		}
		if err := os.WriteFile(filepath.Join(root, "src/lib.ts"), disk, 0o644); err != nil {
			t.Fatal(err)
		}
		set := &change.Set{Root: root, HeadFS: editset.Overlay(os.DirFS(root), []editset.Edit{{Path: "src/lib.ts", Content: step.head}}), BaseFS: os.DirFS(root), BaseRev: "base", OnDisk: step.onDisk,
			Files: []*change.File{change.NewFile("src/lib.ts", "src/lib.ts", base, step.head)}}
		if got := errorLines(t, set); !slices.Equal(got, step.want) {
			t.Errorf("step %d: errors at %v, want %v", i, got, step.want)
		}
	}
	records, _ := filepath.Glob(filepath.Join(os.Getenv("AGENTVERIFY_CACHE_DIR"), "tsc", "*.tsbuildinfo"))
	if len(records) != 2 {
		t.Errorf("%d records kept (%v), want 2: one in place, one for mirrors", len(records), records)
	}
	if extra, _ := filepath.Glob(filepath.Join(root, "*.tsbuildinfo")); len(extra) > 0 {
		t.Errorf("the repository got %v", extra)
	}
}

// errorLines resolves set with a new batch frontend and returns "file:line" of each
// problem.
func errorLines(t *testing.T, set *change.Set) []string {
	t.Helper()
	fe := typescript.New()
	pass := &check.Pass{Context: context.Background(), Changes: set, Policy: policy.Default(), Mode: check.Diff,
		Languages: lang.Registry{fe}, Files: check.NewFiles(lang.Registry{fe})}
	ps, err := fe.Resolve(pass.Request())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range ps {
		out = append(out, fmt.Sprintf("%s:%d", p.Location.File, p.Location.Line))
	}
	return out
}
