package resolve

import (
	"context"
	"io/fs"
	"os"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
)

func TestScratchAlexandria(t *testing.T) {
	root := os.Getenv("LROOT")
	head := os.DirFS(root)
	set := &change.Set{Root: root, HeadFS: head, NoBase: true}
	_ = fs.WalkDir(head, ".", func(p string, e fs.DirEntry, err error) error {
		if !e.IsDir() && lispFile(p) {
			src, _ := fs.ReadFile(head, p)
			set.Files = append(set.Files, change.NewFile(p, "", nil, src))
		}
		return nil
	})
	ps, err := Resolver{}.Resolve(&lang.Request{Context: context.Background(), Changes: set})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		t.Logf("%s:%d:%d %s: %s [%s]", p.Location.File, p.Location.Line, p.Location.Column, p.Kind, p.Message, p.Suggestion)
	}
}
