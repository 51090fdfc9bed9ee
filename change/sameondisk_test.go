package change

import (
	"sort"
	"testing"
)

// TestSameOnDisk: with the head on the disk, every file but the change's (either of its
// paths) is as the disk has it; with the index or a patch, none is known to be.

func TestSameOnDisk(t *testing.T) {
	moved := &File{Path: "b/new.go", OldPath: "a/old.go", Op: Rename}
	edited := &File{Path: "a/x.go", Op: Modify}
	for _, tc := range []struct {
		onDisk bool
		path   string
		want   bool
	}{
		{true, "a/y.go", true},
		{true, "a/x.go", false},   // the change's file: the disk may not be the tree's
		{true, "a/old.go", false}, // renamed away: the base has it, the disk does not
		{true, "b/new.go", false}, // renamed to
		{false, "a/y.go", false},  // the index or a patch: any file may differ
	} {
		set := &Set{Files: []*File{edited, moved}, OnDisk: tc.onDisk}
		sort.Slice(set.Files, func(i, j int) bool { return set.Files[i].Path < set.Files[j].Path })
		if got := set.SameOnDisk(tc.path); got != tc.want {
			t.Errorf("OnDisk %v: SameOnDisk(%q) = %v, want %v", tc.onDisk, tc.path, got, tc.want)
		}
	}
}
