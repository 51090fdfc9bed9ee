package analyzer_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/analyzer"
)

// TestAnalyzers runs each analyzer over its testdata package. The packages are copied out
// of this repository first: inside it, this repository's own policy (which exempts test
// fixtures) would apply to them.
func TestAnalyzers(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(analysistest.TestData())); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, dir, analyzer.Complexity, "complexity")
	analysistest.Run(t, dir, analyzer.Style, "style")
}

// TestVetToolMatchesCheck builds cmd/agentverify-vet, runs it under `go vet -vettool` on a
// module and checks that it reports exactly the complexity and style findings that
// `agentverify check` reports, at the same places.
func TestVetToolMatchesCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the vet tool; skipped with -short")
	}
	tool := filepath.Join(t.TempDir(), "agentverify-vet")
	if out, err := exec.Command("go", "build", "-o", tool, "../cmd/agentverify-vet").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := t.TempDir()
	files := map[string]string{"go.mod": "module example.com/a\n\ngo 1.22\n"}
	for _, pkg := range []string{"complexity", "style"} {
		src, err := os.ReadFile(filepath.Join("testdata", "src", pkg, pkg+".go"))
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Join(pkg, pkg+".go")] = string(src)
	}
	for name, content := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "vet", "-vettool="+tool, "./...")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("go vet passed a module over the limits:\n%s", out)
	}
	var got []string
	for _, m := range regexp.MustCompile(`(?m)^(?:\./)?((?:complexity|style)/\w+\.go:\d+:\d+): (.*)$`).FindAllStringSubmatch(string(out), -1) {
		got = append(got, m[1]+": "+m[2])
	}
	rep, err := agentverify.Check(context.Background(), agentverify.Request{Dir: dir, Source: agentverify.Paths})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, v := range rep.Violations {
		if v.Dimension != "complexity" && v.Dimension != "style" {
			continue
		}
		msg := v.Message
		if v.Suggestion != "" {
			msg += " (" + v.Suggestion + ")"
		}
		want = append(want, v.Location.File+":"+itoa(v.Location.Line)+":"+itoa(v.Location.Column)+": "+string(v.Severity)+": "+msg+" ["+v.Rule+"]")
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") || len(want) < 2 {
		t.Errorf("go vet -vettool reported:\n%s\nagentverify check reported:\n%s\n(vet output:\n%s)", strings.Join(got, "\n"), strings.Join(want, "\n"), out)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
