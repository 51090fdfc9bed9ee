package resolve

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/load"
	"github.com/agentverify/agentverify/lang/golang/vet"
	"github.com/agentverify/agentverify/policy"
)

// BenchmarkLargePackage times, on a large package loaded once (github.com/cli/cli/v2's
// api package, ~100 files with its tests), what a one-file diff pays per package: the
// warm re-check of the package by the loader (the baseline), the resolver's findings on
// the loaded package (type errors, too-new symbols, embeds, build lines, deprecations and
// go vet), and go vet alone. It skips under -short or when the module cannot be fetched.
func BenchmarkLargePackage(b *testing.B) {
	if testing.Short() {
		b.Skip("loads github.com/cli/cli/v2 from the module cache; skipped with -short")
	}
	out, err := exec.Command("go", "mod", "download", "-json", "github.com/cli/cli/v2@v2.63.0").Output()
	var mod struct{ Dir string }
	if err != nil || json.Unmarshal(out, &mod) != nil || mod.Dir == "" {
		b.Skipf("cannot download github.com/cli/cli/v2: %v", err)
	}
	dl := exec.Command("go", "mod", "download")
	dl.Dir = mod.Dir
	if out, err := dl.CombinedOutput(); err != nil {
		b.Skipf("cannot download the dependencies of cli/cli: %v\n%s", err, out)
	}
	ctx := context.Background()
	file := filepath.Join(mod.Dir, "api", "queries_repo.go")
	src, err := os.ReadFile(file)
	if err != nil {
		b.Skip(err)
	}
	l := load.New(load.Options{})
	req := load.Request{Dir: mod.Dir, Files: []string{file}}
	res, err := l.Check(ctx, req)
	if err != nil {
		b.Fatal(err)
	}
	rel := "api/queries_repo.go"
	p := &lang.Request{Context: ctx, Policy: policy.Default(), Changes: &change.Set{Root: mod.Dir, HeadFS: os.DirFS(mod.Dir), NoBase: true,
		Files: []*change.File{change.NewFile(rel, "", nil, src)}}}
	u := &unit{dir: ".", inModule: true, goFiles: p.Changes.Files}
	b.Run("warm re-check", func(b *testing.B) {
		edited := append(append([]byte{}, src...), "\nfunc benchAdded() {}\n"...)
		for b.Loop() {
			if r, err := l.Check(ctx, load.Request{Dir: mod.Dir, Files: []string{file}, Overlay: map[string][]byte{file: edited}}); err != nil || !r.Warm {
				b.Fatalf("warm %v: %v", r != nil && r.Warm, err)
			}
		}
	})
	b.Run("findings", func(b *testing.B) {
		for b.Loop() {
			c := newConverter(p, res, u)
			c.findings()
			if c.err != nil {
				b.Fatal(c.err)
			}
		}
	})
	b.Run("vet", func(b *testing.B) {
		c := newConverter(p, res, u)
		for b.Loop() {
			facts := vet.NewFacts()
			for _, pkg := range dependencyOrder(res.Packages) {
				if _, err := vet.Run(c.vetPackage(pkg), vet.Suite, facts); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("deprecated", func(b *testing.B) {
		for b.Loop() {
			c := newConverter(p, res, u)
			for _, pkg := range res.Packages {
				c.deprecated(pkg)
			}
		}
	})
}
