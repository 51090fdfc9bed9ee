package resolve

import (
	"testing"

	"github.com/agentverify/agentverify/lang/golang/load"
)

// Only a plain package whose in-package test variant has all its files is shadowed; an
// external test package, a variant missing one of its files or an ill-typed variant
// (go vet's analyzers would skip it) shadows nothing.
func TestTestShadowed(t *testing.T) {
	pkg := func(id, path, name string, files ...string) *load.Package {
		return &load.Package{ID: id, PkgPath: path, Name: name, Files: files}
	}
	plain := pkg("m/a", "m/a", "a", "a.go", "b.go")
	variant := pkg("m/a [m/a.test]", "m/a", "a", "a.go", "b.go", "a_test.go")
	xtest := pkg("m/a_test [m/a.test]", "m/a_test", "a_test", "x_test.go")
	partial := pkg("m/c [m/c.test]", "m/c", "c", "c_test.go")
	plainC := pkg("m/c", "m/c", "c", "c.go")
	other := pkg("m/b", "m/b", "b", "b.go")
	broken := pkg("m/a [m/a.test]", "m/a", "a", "a.go", "b.go", "a_test.go")
	broken.Errors = []load.Error{{Kind: load.TypeError, Msg: "undefined: x"}}
	for _, tc := range []struct {
		name string
		pkgs []*load.Package
		want []*load.Package
	}{
		{"variant with every file", []*load.Package{plain, variant, xtest}, []*load.Package{plain}},
		{"no variant", []*load.Package{plain, other}, nil},
		{"external tests only", []*load.Package{plain, xtest}, nil},
		{"variant missing a file", []*load.Package{plainC, partial}, nil},
		{"ill-typed variant", []*load.Package{plain, broken}, nil},
	} {
		got := testShadowed(tc.pkgs)
		if len(got) != len(tc.want) {
			t.Errorf("%s: %d shadowed, want %d", tc.name, len(got), len(tc.want))
		}
		for _, p := range tc.want {
			if !got[p] {
				t.Errorf("%s: %s not shadowed", tc.name, p.ID)
			}
		}
	}
}
