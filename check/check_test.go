package check_test

import (
	"sync"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang"
)

// TestFilesFlip: the parse cache of a base view is the change's own, sides swapped, so
// each side of each file is parsed once and the view's head is the change's base.
func TestFilesFlip(t *testing.T) {
	set := &change.Set{Files: []*change.File{change.NewFile("new.go", "old.go", []byte("package base\n"), []byte("package head\n"))}}
	files := check.NewFiles(lang.Registry{golang.New()})
	view := set.BaseView()
	flipped := files.Flip()
	for _, c := range []struct {
		f    *change.File
		s    change.Side
		fs   *check.Files
		want string
	}{
		{set.Files[0], change.Head, files, "head"},
		{set.Files[0], change.Base, files, "base"},
		{view.Files[0], change.Head, flipped, "base"},
		{view.Files[0], change.Base, flipped, "head"},
	} {
		lf, err := c.fs.Parse(c.f, c.s)
		if err != nil || lf == nil || lf.Package != c.want {
			t.Errorf("Parse(%s, side %d) = %+v, %v; want package %s", c.f.Path, c.s, lf, err, c.want)
		}
	}
	a, _ := files.Parse(set.Files[0], change.Base)
	b, _ := flipped.Parse(view.Files[0], change.Head)
	if a != b {
		t.Error("the base view parsed the base side again")
	}
}

func TestMemo(t *testing.T) {
	m := check.NewMemo()
	var made int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m.Get("k", func() any { mu.Lock(); made++; mu.Unlock(); return &made })
		}()
	}
	wg.Wait()
	if made != 1 {
		t.Errorf("value made %d times, want once", made)
	}
	var nilMemo *check.Memo
	if nilMemo.Get("k", func() any { return 7 }) != 7 {
		t.Error("a nil Memo does not hand out the new value")
	}
}
