package resolve_test

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/internal/testkit/tsctest"
)

// TestGrammarGapStillCompiled: a file with variance annotations on type parameters (as
// zod's core has), which tree-sitter's grammar once could not parse, is type-checked and
// gets no syntax error for them (syntax.varianceGap); a real syntax error still stands
// for the compiler's errors.
func TestGrammarGapStillCompiled(t *testing.T) {
	tsctest.Require(t)
	base := "export interface Box<out T> {\n  value: T;\n}\n\nexport function size(): number {\n  return 1;\n}\n"
	root := tempProject(t, map[string]string{"tsconfig.json": narrowProject["tsconfig.json"], "src/box.ts": base})
	for _, tc := range []struct {
		name, to string
		want     []string // file:line of the problems
	}{
		{"type error", "const n: number = \"one\";\n  return 1;", []string{"src/box.ts:6"}},
		{"syntax error", "return 1 +;", []string{"src/box.ts:6"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			head := strings.Replace(base, "return 1;", tc.to, 1)
			if err := os.WriteFile(filepath.Join(root, "src/box.ts"), []byte(head), 0o644); err != nil {
				t.Fatal(err)
			}
			set := &change.Set{Root: root, HeadFS: os.DirFS(root), BaseFS: os.DirFS(root), BaseRev: "base", OnDisk: true,
				Files: []*change.File{change.NewFile("src/box.ts", "src/box.ts", []byte(base), []byte(head))}}
			var got []string
			for _, p := range resolved(t, set, nil, false) {
				got = append(got, p.Location.File+":"+strconv.Itoa(p.Location.Line))
				t.Logf("%s:%d %s %s", p.Location.File, p.Location.Line, p.Kind, p.Message)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("problems at %v, want %v", got, tc.want)
			}
		})
	}
}
