package source

import (
	"context"
	"errors"
	"testing"
)

// TestCheckBase: a base revision that names a file, the index or a tree is a usage
// error; revisions that name commits pass.
func TestCheckBase(t *testing.T) {
	for _, c := range []struct {
		rev string
		bad bool
	}{
		{"", false}, {"HEAD", false}, {"main~2", false}, {"HEAD^{commit}", false}, {"HEAD^{}", false},
		{"HEAD^{/fix}", false}, {"main@{2024-01-02 10:00}", false}, {"@{yesterday}", false},
		{"HEAD:go.mod", true}, {":0:path", true}, {"HEAD^{tree}", true}, {"v1^{blob}", true}, {"v1^{tag}", true},
	} {
		err := checkBase(c.rev)
		if (err != nil) != c.bad || err != nil && !errors.Is(err, ErrUsage) {
			t.Errorf("checkBase(%q) = %v, want error %v", c.rev, err, c.bad)
		}
	}
}

// TestUnknownKindIsUsage: a source the request does not name is a usage error.
func TestUnknownKindIsUsage(t *testing.T) {
	if _, err := Build(context.Background(), Spec{Dir: t.TempDir(), Kind: Kind(99)}, 1<<20); !errors.Is(err, ErrUsage) {
		t.Errorf("Build of kind 99: %v, want a usage error", err)
	}
}
