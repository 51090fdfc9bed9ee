package policy

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func mustParse(t testing.TB, src string) *Policy {
	t.Helper()
	p, err := Parse("p.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const weakerBase = `version: 1
scope:
  allowed_paths: ["src/**"]
  forbidden_paths: ["vendor/**", ".github/**"]
  allowed_operations: [create, modify]
  max_files_changed: 10
hallucination: {}
style: {naming: go, require_docs: exported, max_line_length: 100}
semantics: {preserve_exports: true, preserve_tests: true}
complexity: {max_cyclomatic: 15, max_nesting_depth: 5}
rules:
  style/naming: error
  complexity/*: error
`

func TestWeakened(t *testing.T) {
	tests := []struct {
		name, head string
		want       []string // each must appear; nil: nothing reported
	}{
		{"same", weakerBase, nil},
		{"drops scope", strings.Replace(weakerBase, "scope:\n  allowed_paths: [\"src/**\"]\n  forbidden_paths: [\"vendor/**\", \".github/**\"]\n  allowed_operations: [create, modify]\n  max_files_changed: 10\n", "", 1),
			[]string{"drops the scope dimension"}},
		{"adds allowed path", strings.Replace(weakerBase, `["src/**"]`, `["src/**", "secrets/**"]`, 1), []string{`adds allowed path "secrets/**"`}},
		{"removes forbidden path", strings.Replace(weakerBase, `["vendor/**", ".github/**"]`, `["vendor/**"]`, 1), []string{`removes forbidden path ".github/**"`}},
		{"allows delete", strings.Replace(weakerBase, "[create, modify]", "[create, modify, delete]", 1), []string{"allows the operation delete"}},
		{"raises cyclomatic", strings.Replace(weakerBase, "max_cyclomatic: 15", "max_cyclomatic: 40", 1), []string{"raises complexity.max_cyclomatic 15 → 40"}},
		{"removes limit", strings.Replace(weakerBase, "max_files_changed: 10", "max_files_changed: 0", 1), []string{"removes the scope.max_files_changed limit (was 10)"}},
		{"lowers a rule", strings.Replace(weakerBase, "style/naming: error", "style/naming: off", 1), []string{"lowers rules style/naming error → off"}},
		{"adds an off rule", weakerBase + "  hallucination/*: off\n", []string{"sets rules hallucination/* to off"}},
		{"stops docs", strings.Replace(weakerBase, "require_docs: exported", "require_docs: none", 1), []string{"stops requiring doc comments"}},
		{"semantics", strings.Replace(weakerBase, "preserve_tests: true", "preserve_tests: false", 1), []string{"turns off semantics.preserve_tests"}},
		{"suppressions", weakerBase + "suppressions: {allow_new: true}\n", []string{"suppressions.allow_new"}},
		{"gate config", strings.Replace(weakerBase, "max_files_changed: 10", "max_files_changed: 10\n  allow_gate_config_changes: true", 1), []string{"scope.allow_gate_config_changes"}},
		{"overrides", weakerBase + "overrides:\n  - paths: [\"**\"]\n    complexity: {max_cyclomatic: 99}\n", []string{"changes the per-path overrides"}},
		{"tightening is not weaker", strings.Replace(weakerBase, "max_cyclomatic: 15", "max_cyclomatic: 10", 1), nil},
	}
	base := mustParse(t, weakerBase)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Weakened(base, mustParse(t, tt.head))
			if tt.want == nil && len(got) > 0 {
				t.Fatalf("Weakened = %q, want nothing", got)
			}
			joined := strings.Join(got, "; ")
			for _, w := range tt.want {
				if !strings.Contains(joined, w) {
					t.Errorf("Weakened = %q, want %q in it", joined, w)
				}
			}
		})
	}
}

// TestWeakenedSelfIsEmpty: a policy never weakens itself, whatever it holds, and
// comparing with the starter policy never panics.
func TestWeakenedSelfIsEmpty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		src := "version: 1\n"
		if rapid.Bool().Draw(t, "scope") {
			src += "scope: {forbidden_paths: [\"a/**\"], max_files_changed: " + rapid.SampledFrom([]string{"0", "3"}).Draw(t, "max") + "}\n"
		}
		if rapid.Bool().Draw(t, "complexity") {
			src += "complexity: {max_cyclomatic: " + rapid.SampledFrom([]string{"0", "7", "15"}).Draw(t, "cyc") + "}\n"
		}
		if rapid.Bool().Draw(t, "rules") {
			src += "rules: {style/*: " + rapid.SampledFrom([]string{"off", "warning", "error"}).Draw(t, "sev") + "}\n"
		}
		p, err := Parse("p.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if w := Weakened(p, p); len(w) > 0 {
			t.Fatalf("Weakened(p, p) = %q", w)
		}
		_ = Weakened(p, Default())
		_ = Weakened(Default(), p)
	})
}

// TestNewKeysAreStrict: the trust keys are decoded strictly like every other key.
func TestNewKeysAreStrict(t *testing.T) {
	p := mustParse(t, "version: 1\nscope: {allow_gate_config_changes: true}\nsuppressions: {allow_new: true}\n")
	if !p.Scope.AllowGateConfigChanges || !p.Suppressions.AllowNew {
		t.Errorf("keys not decoded: %+v %+v", p.Scope, p.Suppressions)
	}
	if d := Default(); d.Scope.AllowGateConfigChanges || d.Suppressions.AllowNew {
		t.Error("the default policy allows gate-config changes or new suppressions")
	}
	for _, src := range []string{
		"version: 1\nsuppressions: {allow_neww: true}\n",
		"version: 1\nsuppressions: {allow_new: yes please}\n",
		"version: 1\nsuppressions: true\n",
		"version: 1\nscope: {allow_gate_config_changes: 1}\n",
	} {
		if _, err := Parse("p.yaml", []byte(src)); err == nil || !strings.HasPrefix(err.Error(), "p.yaml:") {
			t.Errorf("%q: err %v", src, err)
		}
	}
}
