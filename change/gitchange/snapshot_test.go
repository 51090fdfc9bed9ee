package gitchange

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSnapshotReadsGitNotDisk: a snapshot reads the commit's objects, whatever the working
// tree now holds; links come back as their target, unfollowed.
func TestSnapshotReadsGitNotDisk(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"p.yaml": "committed\n", "dir/x": "x\n"})
	if err := os.Symlink("p.yaml", filepath.Join(r.Dir, "link.yaml")); err != nil {
		t.Skip("symbolic links not supported:", err)
	}
	r.Commit("link")
	first := r.Git("rev-parse", "HEAD")
	r.Write(map[string]string{"p.yaml": "changed on disk\n", "new.yaml": "untracked\n"})
	repo, err := Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := repo.Snapshot("")
	if err != nil || snap.Rev != first {
		t.Fatalf("Snapshot: %v, rev %q want %q", err, snap.Rev, first)
	}
	tests := []struct {
		path        string
		data        string
		link, found bool
		err         bool
	}{
		{"p.yaml", "committed\n", false, true, false},
		{"link.yaml", "p.yaml", true, true, false},
		{"new.yaml", "", false, false, false},
		{"missing/deep.yaml", "", false, false, false},
		{"dir", "", false, false, true},
	}
	for _, tt := range tests {
		data, link, found, err := snap.Read(tt.path)
		if string(data) != tt.data || link != tt.link || found != tt.found || (err != nil) != tt.err {
			t.Errorf("Read(%s) = %q, link %v, found %v, err %v", tt.path, data, link, found, err)
		}
	}
	// A repository with no commits has an empty snapshot.
	empty, err := Open(newRepo(t, nil).Dir)
	if err != nil {
		t.Fatal(err)
	}
	snap, err = empty.Snapshot("")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, found, err := snap.Read("p.yaml"); found || err != nil {
		t.Errorf("empty repository: found %v err %v", found, err)
	}
}
