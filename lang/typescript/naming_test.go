package typescript

import (
	"fmt"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
)

// TestProjectIdents: the project's style is read from its own sources the change does
// not touch — not from dependencies, hidden directories, declaration files, minified
// bundles or the changed files (a change does not set the style it is checked against),
// which check mode (no base) does count.
func TestProjectIdents(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"src/kept.ts":               {Data: []byte("export function keptName() {}\n")},
		"src/changed.ts":            {Data: []byte("export function changedName() {}\n")},
		"src/types.d.ts":            {Data: []byte("export declare function declaredName(): void;\n")},
		"dist/app.min.js":           {Data: []byte("function minifiedName() {}\n")},
		"node_modules/dep/index.js": {Data: []byte("function depName() {}\n")},
		".cache/gen.ts":             {Data: []byte("export function hiddenName() {}\n")},
		"lib/util.js":               {Data: []byte("function utilName() {}\n")},
		"README.md":                 {Data: []byte("# not code\n")},
	}
	names := func(noBase bool) []string {
		set := &change.Set{HeadFS: fsys, NoBase: noBase, Files: []*change.File{change.NewFile("src/changed.ts", "src/changed.ts", nil, fsys["src/changed.ts"].Data)}}
		ids, err := New().ProjectIdents(&lang.Request{Changes: set})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, id := range ids {
			out = append(out, id.Name)
		}
		slices.Sort(out)
		return out
	}
	if got, want := names(false), []string{"keptName", "utilName"}; !slices.Equal(got, want) {
		t.Errorf("diff mode: %v, want %v", got, want)
	}
	if got, want := names(true), []string{"changedName", "keptName", "utilName"}; !slices.Equal(got, want) {
		t.Errorf("check mode: %v, want %v", got, want)
	}
}

// TestSample: at most n paths, sorted, spread evenly from the first.
func TestSample(t *testing.T) {
	t.Parallel()
	var paths []string
	for i := range 10 {
		paths = append(paths, fmt.Sprintf("f%02d.ts", 9-i))
	}
	if got, want := sample(slices.Clone(paths), 4), []string{"f00.ts", "f02.ts", "f05.ts", "f07.ts"}; !slices.Equal(got, want) {
		t.Errorf("sample of 4: %v, want %v", got, want)
	}
	if got := sample(slices.Clone(paths), 20); len(got) != 10 || !slices.IsSorted(got) {
		t.Errorf("sample of 20: %v, want all 10 sorted", got)
	}
}

// TestIdentsOfIsParse: the light extraction ProjectIdents uses gives the identifiers
// Parse gives.
func TestIdentsOfIsParse(t *testing.T) {
	t.Parallel()
	src := []byte("import { a_b } from \"x\";\nexport enum Color { Red_One, Blue }\nexport class Shape_Store { side_count = 1; area_of(scale_by: number) { const the_x = 1; return the_x; } }\nexport function makeIt(p_q: string, ...rest_args: number[]) { let z_z = p_q; return z_z; }\n")
	lf, err := New().Parse("a.ts", src)
	if err != nil {
		t.Fatal(err)
	}
	if got := identsOf("a.ts", src); len(lf.Idents) == 0 || !slices.Equal(got, lf.Idents) {
		t.Errorf("identsOf: %v\nParse: %v", got, lf.Idents)
	}
}
