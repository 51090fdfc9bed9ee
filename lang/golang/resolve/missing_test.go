package resolve

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/policy"
)

// Every standard-library package (of a name no other one has) used without its import is
// reported as missing-import at the qualifier, with its import line as the suggestion.
func TestMissingImportEveryStdPackage(t *testing.T) {
	api := loadStdAPI()
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "go.mod"), []byte("module example.com/m\n\ngo 1.26\n"))
	var files []*change.File
	want := map[string]string{} // file → import path
	i := 0
	for _, name := range slices.Sorted(maps.Keys(api.byName)) {
		paths := api.byName[name]
		if len(paths) != 1 || len(api.members[paths[0]]) == 0 {
			continue
		}
		i++
		if !shorttest.Runs(i-1, 10) {
			continue // -short checks one package in ten; the full suite every one
		}
		rel := fmt.Sprintf("p%d/p.go", i)
		src := fmt.Sprintf("package p%d\n\nvar _ = %s.%s\n", i, name, api.members[paths[0]][0])
		writeFile(t, filepath.Join(root, filepath.FromSlash(rel)), []byte(src))
		files = append(files, change.NewFile(rel, "", nil, []byte(src)))
		want[rel] = paths[0]
	}
	set := &change.Set{Root: root, HeadFS: os.DirFS(root), NoBase: true, Files: files}
	set.Sort()
	got, err := Resolver{}.Resolve(&lang.Request{Context: context.Background(), Changes: set, Policy: policy.Default()})
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, f := range got {
		p, ok := want[f.Location.File]
		if !ok || f.Kind != MissingImport || f.Location.Line != 3 || f.Location.Column != 9 || f.Suggestion != fmt.Sprintf("add import %q", p) {
			t.Errorf("%s:%d:%d: %s: %s [%s], want missing-import of %s at 3:9", f.Location.File, f.Location.Line, f.Location.Column, f.Kind, f.Message, f.Suggestion, p)
			continue
		}
		found[f.Location.File] = true
	}
	for rel, p := range want {
		if !found[rel] {
			t.Errorf("%s: no missing-import finding for %s", rel, p)
		}
	}
	t.Logf("%d standard-library packages used without their import", len(want))
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
