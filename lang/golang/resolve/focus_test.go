package resolve

import (
	"slices"
	"testing"
	"testing/fstest"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
)

// A base-view pass keeps the changed packages of the focus files and the changed
// packages they import, through other changed packages too; an unchanged package in
// between ends the walk, and the rest of the change is left out.
func TestNarrowToFocus(t *testing.T) {
	tree := fstest.MapFS{
		"go.mod":     {Data: []byte("module example.com/m\n")},
		"app/a.go":   {Data: []byte("package app\n\nimport \"example.com/m/mid\"\n")},
		"app/b.go":   {Data: []byte("package app\n\nimport \"example.com/m/util\"\n")},
		"mid/m.go":   {Data: []byte("package mid\n\nimport \"example.com/m/deep\"\n")},
		"deep/d.go":  {Data: []byte("package deep\n")},
		"util/u.go":  {Data: []byte("package util\n\nimport \"example.com/m/far\"\n")},
		"far/f.go":   {Data: []byte("package far\n")},
		"other/o.go": {Data: []byte("package other\n")},
	}
	files := func(paths ...string) []*change.File {
		var out []*change.File
		for _, p := range paths {
			out = append(out, change.NewFile(p, "", nil, tree[p].Data))
		}
		return out
	}
	// util is not changed: far, which it imports, is not needed.
	u := &unit{dir: ".", inModule: true, goFiles: files("app/a.go", "mid/m.go", "deep/d.go", "far/f.go", "other/o.go"), goneDirs: map[string]bool{"other": true}}
	narrowToFocus(&lang.Request{Focus: map[string]bool{"app/a.go": true}}, tree, u)
	var got []string
	for _, f := range u.goFiles {
		got = append(got, f.Path)
	}
	if want := []string{"app/a.go", "mid/m.go", "deep/d.go"}; !slices.Equal(got, want) || len(u.goneDirs) != 0 {
		t.Errorf("kept %q and gone dirs %v, want %q and none", got, u.goneDirs, want)
	}
	whole := &unit{dir: ".", inModule: true, goFiles: files("other/o.go")}
	narrowToFocus(&lang.Request{}, tree, whole)
	if len(whole.goFiles) != 1 {
		t.Error("a head pass (no focus) was narrowed")
	}
}
