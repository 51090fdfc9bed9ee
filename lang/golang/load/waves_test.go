package load

import (
	"go/token"
	"slices"
	"testing"
)

// A package and its test variant import none of each other and share a wave; the
// external tests import the variant and come in the next one; a chain is one per wave.
func TestWaves(t *testing.T) {
	st := func(id string, imports ...string) *pkgState {
		s := &pkgState{id: id, imports: map[string]*Import{}}
		for _, im := range imports {
			s.imports[im] = &Import{ID: im}
		}
		return s
	}
	plain, variant := st("a"), st("a [a.test]")
	xtest := st("a_test [a.test]", "a [a.test]")
	base, mid, top := st("base"), st("mid", "base", "fmt"), st("top", "mid")
	for _, tc := range []struct {
		order []*pkgState
		want  [][]string
	}{
		{[]*pkgState{plain, variant, xtest}, [][]string{{"a", "a [a.test]"}, {"a_test [a.test]"}}},
		{[]*pkgState{base, mid, top}, [][]string{{"base"}, {"mid"}, {"top"}}},
		{[]*pkgState{base, plain, mid}, [][]string{{"base", "a"}, {"mid"}}},
	} {
		var got [][]string
		for _, w := range waves(tc.order) {
			var ids []string
			for _, s := range w {
				ids = append(ids, s.id)
			}
			got = append(got, ids)
		}
		if !slices.EqualFunc(got, tc.want, slices.Equal) {
			t.Errorf("waves = %q, want %q", got, tc.want)
		}
	}
}

// One content is parsed once: the same tree for the same bytes, a new one when they
// change, and the errors of a broken file each time it is asked for.
func TestParseCache(t *testing.T) {
	var c parseCache
	fset := token.NewFileSet()
	a1, _ := c.parse(fset, "/m/a.go", []byte("package a\n"))
	a2, _ := c.parse(fset, "/m/a.go", []byte("package a\n"))
	if a1 != a2 {
		t.Error("the same content was parsed again")
	}
	a3, _ := c.parse(fset, "/m/a.go", []byte("package a\n\nvar X int\n"))
	if a3 == a1 || len(a3.Decls) != 1 {
		t.Error("changed content gave the old tree")
	}
	for range 2 {
		f, errs := c.parse(fset, "/m/b.go", []byte("package b\n\nfunc {\n"))
		if len(errs) == 0 || f == nil {
			t.Errorf("a broken file: %v errors, tree %v", len(errs), f != nil)
		}
	}
}
