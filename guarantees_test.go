package agentverify_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestGuaranteesAreBound checks docs/guarantees.md: every property P1–P24 of the origin
// has a row, and every test and case file a row (P or G) names exists.
func TestGuaranteesAreBound(t *testing.T) {
	doc, err := os.ReadFile("docs/guarantees.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(string(doc), "\n") {
		if m := regexp.MustCompile(`^\| ([PG]\d+) \|`).FindStringSubmatch(line); m != nil {
			rows[m[1]] = line
		}
	}
	for i := 1; i <= 24; i++ {
		if rows[fmt.Sprintf("P%d", i)] == "" {
			t.Errorf("docs/guarantees.md has no row for P%d", i)
		}
	}
	// Index every test function by package name.
	tests := map[string]bool{}
	filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, "_test.go") || strings.Contains(p, "testdata") {
			return nil
		}
		src, _ := os.ReadFile(p)
		pkg := regexp.MustCompile(`(?m)^package (\w+)`).FindSubmatch(src)
		if pkg == nil {
			return nil
		}
		name := strings.TrimSuffix(string(pkg[1]), "_test")
		for _, m := range regexp.MustCompile(`(?m)^func (Test\w+)\(`).FindAllSubmatch(src, -1) {
			tests[name+"."+string(m[1])] = true
		}
		return nil
	})
	for id, row := range rows {
		checkRow(t, id, row, tests)
	}
}

// checkRow fails when a row names a test or a case file that does not exist, or none.
func checkRow(t *testing.T, id, row string, tests map[string]bool) {
	bound := 0
	for _, m := range regexp.MustCompile("`(\\w+)\\.(Test\\w+)`").FindAllStringSubmatch(row, -1) {
		bound++
		if !tests[m[1]+"."+m[2]] {
			t.Errorf("%s names %s.%s, which does not exist", id, m[1], m[2])
		}
	}
	for _, m := range regexp.MustCompile("`([\\w./-]+/[\\w.-]+\\.(?:txtar|go))`").FindAllStringSubmatch(row, -1) {
		bound++
		if _, err := os.Stat(m[1]); err != nil {
			t.Errorf("%s names %s, which does not exist", id, m[1])
		}
	}
	if bound == 0 {
		t.Errorf("%s is bound to no test", id)
	}
}
