package agentverify_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDesignCitations checks that every "design.md §N" a comment or document cites names a
// section docs/design.md has, so the reasons the code gives lead somewhere.
func TestDesignCitations(t *testing.T) {
	doc, err := os.ReadFile("docs/design.md")
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^## (\d+)\. `).FindAllStringSubmatch(string(doc), -1) {
		sections[m[1]] = true
	}
	if len(sections) < 5 {
		t.Fatalf("docs/design.md has %d numbered sections", len(sections))
	}
	cite := regexp.MustCompile(`design\.md §(\d+)`)
	cited := 0
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !(strings.HasSuffix(path, ".go") || strings.HasSuffix(path, ".md")) {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range cite.FindAllStringSubmatch(string(data), -1) {
			cited++
			if !sections[m[1]] {
				t.Errorf("%s cites design.md §%s, which does not exist", path, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if cited == 0 {
		t.Fatal("no citation of design.md found; is the walk reading the repository?")
	}
}
