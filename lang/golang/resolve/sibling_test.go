package resolve

import (
	"go/types"
	"slices"
	"testing"
)

func TestSplitWords(t *testing.T) {
	for _, c := range []struct {
		name string
		want []string
	}{
		{"JoinHostPort", []string{"Join", "Host", "Port"}},
		{"ErrNotFound", []string{"Err", "Not", "Found"}},
		{"HTTPServer", []string{"HTTP", "Server"}},
		{"SEEK_SET", []string{"SEEK", "SET"}},
		{"IndexFunc", []string{"Index", "Func"}},
		{"Atoi", []string{"Atoi"}},
		{"x", []string{"x"}},
	} {
		if got := splitWords(c.name); !slices.Equal(got, c.want) {
			t.Errorf("splitWords(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

// A sibling fits when it takes the arguments and gives the results taken, or those and
// a trailing error; it is sure only when it fits exactly and ranks first alone.
func TestSiblings(t *testing.T) {
	str, runeFunc := types.Typ[types.String], types.NewSignatureType(nil, nil, nil,
		types.NewTuple(types.NewParam(0, nil, "r", types.Typ[types.Rune])), types.NewTuple(types.NewParam(0, nil, "", types.Typ[types.Bool])), false)
	pkg := types.NewPackage("example.com/s", "s")
	decl := func(name string, params []types.Type, results ...types.Type) *types.Func {
		var ps, rs []*types.Var
		for _, p := range params {
			ps = append(ps, types.NewParam(0, pkg, "", p))
		}
		for _, r := range results {
			rs = append(rs, types.NewParam(0, pkg, "", r))
		}
		fn := types.NewFunc(0, pkg, name, types.NewSignatureType(nil, nil, nil, types.NewTuple(ps...), types.NewTuple(rs...), false))
		pkg.Scope().Insert(fn)
		return fn
	}
	errT := types.Universe.Lookup("error").Type()
	index := decl("Index", []types.Type{str, str}, types.Typ[types.Int])
	decl("IndexFunc", []types.Type{str, runeFunc}, types.Typ[types.Int])
	decl("LastIndexFunc", []types.Type{str, runeFunc}, types.Typ[types.Int])
	decl("ContainsFunc", []types.Type{str, runeFunc}, types.Typ[types.Bool])
	join := decl("JoinHostPort", []types.Type{str, str}, str)
	decl("SplitHostPort", []types.Type{str}, str, str, errT)
	decl("LookupHost", []types.Type{str}, types.NewSlice(str), errT)
	for _, c := range []struct {
		fn      *types.Func
		args    []types.Type
		results int
		want    []string
		sure    bool
	}{
		{index, []types.Type{str, runeFunc}, 1, []string{"IndexFunc", "LastIndexFunc"}, true},
		{index, []types.Type{str, runeFunc}, 2, nil, false},
		{join, []types.Type{str}, 2, []string{"SplitHostPort"}, false},
		{join, []types.Type{str}, 3, []string{"SplitHostPort"}, true},
		{join, []types.Type{runeFunc}, 1, nil, false},
	} {
		fns, sure := siblings(c.fn, c.args, c.results, false, pkg)
		var got []string
		for _, f := range fns {
			got = append(got, f.Name())
		}
		if !slices.Equal(got, c.want) || sure != c.sure {
			t.Errorf("siblings(%s, %v, %d) = %q sure %v, want %q sure %v", c.fn.Name(), c.args, c.results, got, sure, c.want, c.sure)
		}
	}
}
