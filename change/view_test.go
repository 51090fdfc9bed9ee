package change

import (
	"reflect"
	"testing"
	"testing/fstest"
)

func TestBaseView(t *testing.T) {
	baseFS, headFS := fstest.MapFS{}, fstest.MapFS{}
	set := &Set{Root: "/r", BaseFS: baseFS, HeadFS: headFS, OnDisk: true, Files: []*File{
		NewFile("created.go", "", nil, []byte("a\n")),
		NewFile("deleted.go", "deleted.go", []byte("a\nb\n"), nil),
		NewFile("modified.go", "modified.go", []byte("a\nold\nc\n"), []byte("a\nnew\nnewer\nc\n")),
		NewFile("z/new.go", "old.go", []byte("x\n"), []byte("x\ny\n")),
	}}
	set.Sort()
	v := set.BaseView()
	type row struct {
		Path, OldPath string
		Op            Op
		Head          string
		Changed       []Range
	}
	var got []row
	for _, f := range v.Files {
		got = append(got, row{f.Path, f.OldPath, f.Op, string(f.Head), f.Changed})
	}
	want := []row{
		{"created.go", "created.go", Delete, "", nil},
		{"deleted.go", "", Create, "a\nb\n", []Range{{1, 2}}},
		{"modified.go", "modified.go", Modify, "a\nold\nc\n", []Range{{2, 2}}},
		{"old.go", "z/new.go", Rename, "x\n", nil},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("base view files:\n got %+v\nwant %+v", got, want)
	}
	if !v.OnDisk || v.NoBase || v.Root != "/r" {
		t.Errorf("base view: OnDisk %v NoBase %v Root %q", v.OnDisk, v.NoBase, v.Root)
	}
	if reflect.ValueOf(v.HeadFS).Pointer() != reflect.ValueOf(baseFS).Pointer() {
		t.Error("the base view's head is not the base tree")
	}
	if (&Set{NoBase: true}).BaseView() != nil {
		t.Error("a change with no base has a base view")
	}
	// Viewing the view from its base gives the change back.
	back := v.BaseView()
	for i, f := range back.Files {
		o := set.Files[i]
		if f.Path != o.Path || f.Op != o.Op || string(f.Head) != string(o.Head) || !reflect.DeepEqual(f.Changed, o.Changed) {
			t.Errorf("twice reversed %+v, want %+v", f, o)
		}
	}
}
