package golang

import (
	"testing"
	"testing/fstest"

	"github.com/agentverify/agentverify/change"
)

func TestStillRuns(t *testing.T) {
	mod := &fstest.MapFile{Data: []byte("module example.com/m\n")}
	root := fstest.MapFS{"go.mod": mod, "calc/calc.go": {}}
	nested := fstest.MapFS{"go.mod": mod, "calc/calc.go": {}, "calc/add/go.mod": mod}
	for _, c := range []struct {
		name       string
		base, head fstest.MapFS
		from, to   string
		want       bool
	}{
		{"same module", root, root, "calc/calc_test.go", "calc/add/add_test.go", true},
		{"into a new nested module", root, nested, "calc/calc_test.go", "calc/add/add_test.go", false},
		{"out of a nested module", nested, nested, "calc/add/add_test.go", "calc/calc_test.go", false},
		{"the module moves with it", fstest.MapFS{"a/go.mod": mod}, fstest.MapFS{"b/go.mod": mod}, "a/x/x_test.go", "b/x/x_test.go", true},
		{"the module moves, the file leaves it", fstest.MapFS{"a/go.mod": mod}, fstest.MapFS{"b/go.mod": mod}, "a/x/x_test.go", "b/y/x/x_test.go", false},
		{"from the root module into a new one, same place within it", root, fstest.MapFS{"go.mod": mod, "sub/go.mod": mod}, "calc_test.go", "sub/calc_test.go", false},
		{"no module on either side", fstest.MapFS{}, fstest.MapFS{}, "a/x_test.go", "b/x_test.go", true},
		{"into a module from none", fstest.MapFS{}, fstest.MapFS{"b/go.mod": mod}, "a/x_test.go", "b/x_test.go", false},
	} {
		set := &change.Set{BaseFS: c.base, HeadFS: c.head}
		if got := (frontend{}).StillRuns(set, c.from, c.to); got != c.want {
			t.Errorf("%s: StillRuns(%s → %s) = %v, want %v", c.name, c.from, c.to, got, c.want)
		}
	}
	if !(frontend{}).StillRuns(&change.Set{}, "a/x_test.go", "b/x_test.go") {
		t.Error("without the trees, a move must keep its tests (as before)")
	}
}
