package style_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/dimensions/style"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang"
	"github.com/agentverify/agentverify/policy"
)

// runCheck runs the style dimension in check mode on one file.
func runCheck(t *rapid.T, path, src string, opts policy.StyleOptions) []check.Finding {
	pol := policy.Default()
	pol.Style = &opts
	langs := lang.Registry{golang.New()}
	set := &change.Set{Root: "/r", NoBase: true, Files: []*change.File{change.NewFile(path, "", nil, []byte(src))}}
	pass := &check.Pass{Context: context.Background(), Changes: set, Policy: pol, Mode: check.Check,
		Languages: langs, Files: check.NewFiles(langs)}
	fs, err := style.Dimension.Run(pass)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// TestP11MissingDocEveryExportedUndocumented: in a generated file of random
// declarations, style/missing-doc fires exactly on the exported, undocumented functions,
// types, vars and consts.
func TestP11MissingDocEveryExportedUndocumented(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var src strings.Builder
		src.WriteString("package p\n\n")
		var want []string
		for i := range rapid.IntRange(0, 12).Draw(t, "decls") {
			kind := rapid.SampledFrom([]string{"func", "type", "var", "const"}).Draw(t, "kind")
			exported := rapid.Bool().Draw(t, "exported")
			documented := rapid.Bool().Draw(t, "documented")
			name := fmt.Sprintf("n%d", i)
			if exported {
				name = fmt.Sprintf("N%d", i)
			}
			if documented {
				fmt.Fprintf(&src, "// %s is documented.\n", name)
			}
			switch kind {
			case "func":
				fmt.Fprintf(&src, "func %s() {}\n\n", name)
			case "type":
				fmt.Fprintf(&src, "type %s int\n\n", name)
			default:
				fmt.Fprintf(&src, "%s %s = 1\n\n", kind, name)
			}
			if exported && !documented {
				want = append(want, name)
			}
		}
		var got []string
		for _, f := range runCheck(t, "p.go", src.String(), policy.StyleOptions{Naming: "go", RequireDocs: "exported"}) {
			if f.Rule != "style/missing-doc" {
				t.Fatalf("unexpected finding %+v", f)
			}
			got = append(got, f.Symbol)
		}
		sort.Strings(got)
		sort.Strings(want)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("missing-doc on %v, want %v\n%s", got, want, src.String())
		}
		if fs := runCheck(t, "p.go", src.String(), policy.StyleOptions{Naming: "go", RequireDocs: "none"}); len(fs) > 0 {
			t.Fatalf("require_docs: none still reports %v", fs)
		}
	})
}

// TestLineLengthRunes: a line is reported exactly when it has more runes than the limit.
func TestLineLengthRunes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		text := rapid.StringOfN(rapid.RuneFrom([]rune("aä日 \t")), 0, 60, -1).Draw(t, "text")
		limit := rapid.IntRange(len("package p"), 80).Draw(t, "limit")
		line := "// " + text
		fs := runCheck(t, "p.go", "package p\n\n"+line+"\n", policy.StyleOptions{Naming: "go", MaxLineLength: limit})
		n := len([]rune(line))
		if reported := len(fs) == 1 && fs[0].Location.Line == 3; reported != (n > limit) || len(fs) > 1 {
			t.Fatalf("line of %d runes, limit %d: findings %v", n, limit, fs)
		}
	})
}
