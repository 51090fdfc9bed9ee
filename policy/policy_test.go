package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      string // the whole error must start with "p.yaml:LINE:" (and the column) and contain the rest
	}{
		{"empty", "", "p.yaml:1: empty policy"},
		{"not yaml", "version: 1\nscope: [\n", "p.yaml:2: not valid YAML"},
		{"tab indent", "version: 1\nscope:\n\tallowed_paths: []\n", "p.yaml:3: not valid YAML"},
		{"not a mapping", "- a\n- b\n", "p.yaml:1: policy: want a mapping"},
		{"missing version", "name: x\n", "p.yaml:1: missing key version"},
		{"bad version", "version: 2\n", `p.yaml:1:10: version: unsupported policy version 2 (this agentverify reads version 1)`},
		{"unknown top key", "version: 1\nscopes: {}\n", `p.yaml:2: policy: unknown key "scopes"`},
		{"unknown scope key", "version: 1\nscope:\n  allowed_pathz: [\"**\"]\n", `p.yaml:3: scope: unknown key "allowed_pathz"`},
		{"bad glob", "version: 1\nscope:\n  forbidden_paths: [\"vendor/[\"]\n", `p.yaml:3: scope.forbidden_paths: bad glob "vendor/["`},
		{"absolute glob", "version: 1\nscope:\n  forbidden_paths: [\"/etc/**\"]\n", `p.yaml:3: scope.forbidden_paths: glob "/etc/**" must be relative`},
		{"glob not string", "version: 1\nscope:\n  allowed_paths: [3]\n", "p.yaml:3: scope.allowed_paths: want a path glob, got the number 3"},
		{"paths not list", "version: 1\nscope:\n  allowed_paths: \"**\"\n", "p.yaml:3: scope.allowed_paths: want a list"},
		{"bad op", "version: 1\nscope:\n  allowed_operations: [create, chmod]\n", `p.yaml:3: scope.allowed_operations: unknown operation "chmod"`},
		{"negative limit", "version: 1\ncomplexity:\n  max_cyclomatic: -1\n", "p.yaml:3: complexity.max_cyclomatic: want a whole number ≥ 0"},
		{"string limit", "version: 1\ncomplexity:\n  max_cyclomatic: ten\n", `p.yaml:3: complexity.max_cyclomatic: want a whole number, got "ten"`},
		{"float limit", "version: 1\ncomplexity:\n  max_cyclomatic: 1.5\n", "p.yaml:3: complexity.max_cyclomatic: want a whole number"},
		{"bad naming", "version: 1\nstyle:\n  naming: kebab\n", `p.yaml:3: style.naming: want one of go, lisp-case, snake_case, pep8, camelCase, detect, got "kebab"`},
		{"bool as string", "version: 1\nsemantics:\n  preserve_tests: \"yes\"\n", "p.yaml:3: semantics.preserve_tests: want true or false"},
		{"dimension as list", "version: 1\nstyle: [a]\n", "p.yaml:2: style: want a mapping of keys, got a list"},
		{"bad severity", "version: 1\nrules:\n  style/naming: warn\n", `p.yaml:3: rules.style/naming: bad severity "warn"`},
		{"bad rule id", "version: 1\nrules:\n  Style Naming: off\n", `p.yaml:3: rules: "Style Naming" is not a rule ID`},
		{"unknown dimension", "version: 1\nrules:\n  lint/naming: off\n", `p.yaml:3: rules: rule "lint/naming" names no dimension`},
		{"duplicate key", "version: 1\nname: a\nname: b\n", `p.yaml:3: policy: key "name" given twice (first at line 2)`},
		{"duplicate rule", "version: 1\nrules:\n  style/naming: off\n  style/naming: error\n", `p.yaml:4: rules: rule "style/naming" given twice`},
		{"override without paths", "version: 1\noverrides:\n  - complexity: {max_cyclomatic: 3}\n", "p.yaml:3: overrides[0]: missing or empty paths"},
		{"override unknown key", "version: 1\noverrides:\n  - paths: [\"**\"]\n    hallucination: {}\n", `p.yaml:4: overrides[0]: unknown key "hallucination"`},
		{"override bad value", "version: 1\noverrides:\n  - paths: [\"**\"]\n    complexity: {max_cyclomatic: x}\n", `p.yaml:4: overrides[0].complexity.max_cyclomatic: want a whole number`},
		{"hallucination option", "version: 1\nhallucination:\n  strict: true\n", `p.yaml:3: hallucination: unknown key "strict"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("p.yaml", []byte(tt.src))
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			prefix, rest, _ := strings.Cut(tt.want, ": ")
			if !regexp.MustCompile(`^`+regexp.QuoteMeta(prefix)+`(:\d+)?: `).MatchString(err.Error()) || !strings.Contains(err.Error(), rest) {
				t.Errorf("error = %q\nwant   %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans several lines: %q", err)
			}
		})
	}
}

func TestParseDesignExample(t *testing.T) {
	src := `version: 1
name: code-writer
scope:
  allowed_paths: ["**"]
  forbidden_paths: ["vendor/**", ".github/**"]
  allowed_operations: [create, modify, delete, rename]
  max_files_changed: 0
hallucination: {}
style:
  naming: go
  require_docs: exported
  max_line_length: 0
semantics: {}
complexity:
  max_function_lines: 80
  max_nesting_depth: 5
  max_cyclomatic: 15
  max_cognitive: 25
rules:
  style/*: warning
  complexity/cognitive: off
overrides:
  - paths: ["**/*_test.go"]
    complexity: {max_function_lines: 200}
`
	p, err := Parse("p.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "code-writer" || !reflect.DeepEqual(p.Scope.ForbiddenPaths, []string{"vendor/**", ".github/**"}) || !p.Semantics.PreserveExports {
		t.Errorf("policy %+v", p)
	}
	if got := p.ForPath("a/b_test.go").Complexity.MaxFunctionLines; got != 200 {
		t.Errorf("override: max_function_lines = %d, want 200", got)
	}
	if got := p.ForPath("a/b.go").Complexity.MaxFunctionLines; got != 80 {
		t.Errorf("no override: max_function_lines = %d, want 80", got)
	}
	if p.ForPath("a/b.go") != p {
		t.Error("ForPath allocated a copy with no matching override")
	}
	if p.Complexity.MaxFunctionLines != 80 {
		t.Error("ForPath changed the original policy")
	}
	for rule, want := range map[string]Severity{"style/naming": Warning, "complexity/cognitive": Off, "complexity/cyclomatic": Error} {
		if got := p.Severity(rule, "a.go", Error); got != want {
			t.Errorf("Severity(%s) = %s, want %s", rule, got, want)
		}
	}
}

// TestP2AbsentDimensionSkipped: a dimension key that is absent or null skips the
// dimension; {} or a mapping enables it.
func TestP2AbsentDimensionSkipped(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		b.WriteString("version: 1\n")
		want := map[string]bool{}
		for _, dim := range Dimensions {
			switch rapid.IntRange(0, 3).Draw(t, dim) {
			case 0: // absent
			case 1:
				fmt.Fprintf(&b, "%s: null\n", dim)
			case 2:
				fmt.Fprintf(&b, "%s:\n", dim)
			case 3:
				fmt.Fprintf(&b, "%s: {}\n", dim)
				want[dim] = true
			}
		}
		p, err := Parse("p.yaml", []byte(b.String()))
		if err != nil {
			t.Fatalf("%s: %v", b.String(), err)
		}
		for _, dim := range Dimensions {
			if p.Enabled(dim) != want[dim] {
				t.Fatalf("%s\nEnabled(%s) = %v, want %v", b.String(), dim, p.Enabled(dim), want[dim])
			}
		}
	})
}

func TestDefaultEnablesAll(t *testing.T) {
	for _, dim := range Dimensions {
		if !Default().Enabled(dim) {
			t.Errorf("default policy skips %s", dim)
		}
	}
}

func TestStarterMatchesDefault(t *testing.T) {
	p, err := Parse("starter.yaml", Starter())
	if err != nil {
		t.Fatal(err)
	}
	d := Default()
	p.Source = ""
	p.Rules, p.Overrides = nil, nil
	if !reflect.DeepEqual(p, d) {
		t.Errorf("starter policy %+v\ndiffers from Default() %+v", p, d)
	}
}

// TestSeverityPrecedence: an override's rules beat the top level; an exact rule beats
// globs; among globs the last matching entry wins; otherwise the default.
func TestSeverityPrecedence(t *testing.T) {
	sevs := []Severity{Error, Warning, Off}
	rapid.Check(t, func(t *rapid.T) {
		rule := rapid.SampledFrom([]string{"style/naming", "style/line-length", "scope/forbidden-path"}).Draw(t, "rule")
		patterns := []string{"style/naming", "style/*", "*/naming", "**", "scope/*", "style/line-length"}
		var rules []RuleSeverity
		seen := map[string]bool{}
		for i := rapid.IntRange(0, 5).Draw(t, "n"); i > 0; i-- {
			pat := rapid.SampledFrom(patterns).Draw(t, "pattern")
			if seen[pat] {
				continue
			}
			seen[pat] = true
			rules = append(rules, RuleSeverity{Pattern: pat, Severity: rapid.SampledFrom(sevs).Draw(t, "sev")})
		}
		p := &Policy{Rules: rules}
		// The reference: exact first, else last matching glob, else default.
		want := Severity("default")
		for _, r := range rules {
			if m, _ := matchRule(r.Pattern, rule); m && isGlob(r.Pattern) {
				want = r.Severity
			}
		}
		for _, r := range rules {
			if r.Pattern == rule {
				want = r.Severity
			}
		}
		if got := p.Severity(rule, "a.go", "default"); got != want {
			t.Fatalf("rules %v: Severity(%s) = %s, want %s", rules, rule, got, want)
		}
		// A matching override's rule always wins; a non-matching one never does.
		ov := rapid.SampledFrom(sevs).Draw(t, "override")
		p.Overrides = []Override{{Paths: []string{"gen/**"}, Rules: []RuleSeverity{{Pattern: rule, Severity: ov}}}}
		if got := p.Severity(rule, "gen/x.go", "default"); got != ov {
			t.Fatalf("override ignored: %s, want %s", got, ov)
		}
		if got := p.Severity(rule, "src/x.go", "default"); got != want {
			t.Fatalf("override applied to a path it does not match: %s", got)
		}
	})
}

func TestOverridesApplyInOrder(t *testing.T) {
	p, err := Parse("p.yaml", []byte(`version: 1
style: {}
complexity: {}
overrides:
  - paths: ["gen/**"]
    style: {naming: snake_case, require_docs: none}
    complexity: {max_cyclomatic: 30}
  - paths: ["gen/special/**"]
    complexity: {max_cyclomatic: 40, max_nesting_depth: 9}
`))
	if err != nil {
		t.Fatal(err)
	}
	g := p.ForPath("gen/special/x.go")
	if g.Complexity.MaxCyclomatic != 40 || g.Complexity.MaxNestingDepth != 9 || g.Style.Naming != "snake_case" || g.Style.RequireDocs != "none" || g.Complexity.MaxFunctionLines != 80 {
		t.Errorf("gen/special: %+v %+v", g.Complexity, g.Style)
	}
	if g := p.ForPath("gen/x.go"); g.Complexity.MaxCyclomatic != 30 || g.Complexity.MaxNestingDepth != 5 {
		t.Errorf("gen: %+v", g.Complexity)
	}
	if p.Complexity.MaxCyclomatic != 15 || p.Style.Naming != "detect" {
		t.Error("ForPath changed the policy")
	}
	// An override never enables a skipped dimension.
	q, _ := Parse("q.yaml", []byte("version: 1\noverrides:\n  - paths: [\"**\"]\n    complexity: {max_cyclomatic: 3}\n"))
	if q.ForPath("a.go").Enabled(Complexity) {
		t.Error("override enabled a skipped dimension")
	}
}

func TestValidateRules(t *testing.T) {
	p, err := Parse("p.yaml", []byte("version: 1\nrules:\n  style/*: warning\n  style/nameing: off\n"))
	if err != nil {
		t.Fatal(err)
	}
	known := func(id string) bool { return id == "style/naming" }
	if err := p.ValidateRules(known); err == nil || !strings.HasPrefix(err.Error(), `p.yaml:4: rules: unknown rule "style/nameing"`) {
		t.Errorf("ValidateRules = %v", err)
	}
}

func TestFindAndLoad(t *testing.T) {
	dir := t.TempDir()
	if _, found, err := Find(dir); found || err != nil {
		t.Fatalf("Find in empty dir: %v %v", found, err)
	}
	path := filepath.Join(dir, ".agentverify.yml")
	os.WriteFile(path, []byte("version: 1\nname: team\n"), 0o644)
	got, found, err := Find(dir)
	if !found || err != nil || got != path {
		t.Fatalf("Find = %s %v %v", got, found, err)
	}
	p, err := Load(got)
	if err != nil || p.Name != "team" || p.Enabled(Scope) {
		t.Errorf("Load = %+v, %v", p, err)
	}
	if _, err := Load(filepath.Join(dir, "none.yaml")); err == nil || !strings.Contains(err.Error(), "none.yaml") {
		t.Errorf("Load of a missing file: %v", err)
	}
}

// FuzzParse: Parse never panics, errors are one line starting with the file name, and an
// accepted policy is valid.
func FuzzParse(f *testing.F) {
	f.Add(string(Starter()))
	f.Add("version: 1\nrules:\n  style/*: warning\noverrides:\n  - paths: [\"**\"]\n    complexity: {max_cyclomatic: 3}\n")
	f.Add("version: 1\nscope: {forbidden_paths: [\"a/**\"]}\n")
	f.Add("&a [*a]")
	f.Add("version: 1\nsuppressions: {allow_new: true}\nscope: {allow_gate_config_changes: true}\n")
	f.Fuzz(func(t *testing.T, src string) {
		p, err := Parse("f.yaml", []byte(src))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.yaml:") || strings.Contains(err.Error(), "\n") {
				t.Fatalf("bad error %q", err)
			}
			return
		}
		if w := Weakened(p, p); len(w) > 0 {
			t.Fatalf("a policy weakens itself: %q", w)
		}
		_ = Weakened(Default(), p)
		for _, r := range p.Rules {
			if r.Severity != Error && r.Severity != Warning && r.Severity != Off {
				t.Fatalf("bad severity %q", r.Severity)
			}
		}
		if p.Scope != nil {
			for _, g := range append(p.Scope.AllowedPaths, p.Scope.ForbiddenPaths...) {
				if !validGlob(g) {
					t.Fatalf("bad glob %q accepted", g)
				}
			}
		}
	})
}

// TestEveryErrorAtOnce: a policy with several mistakes gets them all, each on its own line
// with its line and column, so one round of fixes is enough.
func TestEveryErrorAtOnce(t *testing.T) {
	src := "version: 1\nscope:\n  allowed_path: [\"**\"]\n  max_files_changed: -2\nstyle:\n  naming: kebab\ncomplexty: {}\n"
	_, err := Parse("p.yaml", []byte(src))
	if err == nil {
		t.Fatal("no error")
	}
	lines := strings.Split(err.Error(), "\n")
	want := []string{
		`p.yaml:3:3: scope: unknown key "allowed_path"`,
		`p.yaml:4:22: scope.max_files_changed: want a whole number ≥ 0`,
		`p.yaml:6:11: style.naming: want one of`,
		`p.yaml:7:1: policy: unknown key "complexty"`,
	}
	if len(lines) != len(want) {
		t.Fatalf("%d errors, want %d:\n%s", len(lines), len(want), err)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("error %d = %q, want it to start with %q", i+1, lines[i], w)
		}
	}
}
