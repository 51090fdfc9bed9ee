package scope

import (
	"context"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/policy"
)

func runGuard(t *testing.T, trust *check.Trust, allowGate bool, files ...*change.File) []check.Finding {
	t.Helper()
	set := &change.Set{Files: files}
	set.Sort()
	opts := policy.ScopeOptions{AllowedOperations: allOps}
	if trust != nil {
		trust.AllowGateConfig = allowGate
	}
	fs, err := Dimension.Run(&check.Pass{Context: context.Background(), Changes: set, Policy: &policy.Policy{Scope: &opts}, Trust: trust})
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

func TestGuard(t *testing.T) {
	rootTrust := &check.Trust{PolicyFile: ".agentverify.yml", PolicyFiles: []string{".agentverify.yaml", ".agentverify.yml", "conf/policy.yaml"}}
	withAV := func(path string) *change.File {
		return change.NewFile(path, path, []byte("steps:\n  - run: agentverify diff\n"), []byte("steps: []\n"))
	}
	tests := []struct {
		name      string
		trust     *check.Trust
		allowGate bool
		files     []*change.File
		want      string // summary
		msg       string // in the first finding's message
	}{
		{"check mode protects nothing", nil, false, []*change.File{file(".agentverify.yaml", "", change.Create), file(".pre-commit-config.yaml", "", change.Modify)}, "", ""},
		{"edit", rootTrust, false, []*change.File{file(".agentverify.yml", "", change.Modify)}, "scope/policy-changed .agentverify.yml", "modifies the policy file .agentverify.yml"},
		{"delete", rootTrust, false, []*change.File{file(".agentverify.yml", "", change.Delete)}, "scope/policy-changed .agentverify.yml", "deletes the policy file"},
		{"shadow", rootTrust, false, []*change.File{file(".agentverify.yaml", "", change.Create)}, "scope/policy-changed .agentverify.yaml", "creates .agentverify.yaml, which shadows the policy file .agentverify.yml"},
		{"symlink target", rootTrust, false, []*change.File{file("conf/policy.yaml", "", change.Modify)}, "scope/policy-changed conf/policy.yaml", "through which the policy file .agentverify.yml is read"},
		{"rename away", rootTrust, false, []*change.File{file("old.yml", ".agentverify.yml", change.Rename)}, "scope/policy-changed old.yml", "renamed to old.yml"},
		{"weakened", &check.Trust{PolicyFile: policy.DefaultFile, PolicyFiles: []string{policy.DefaultFile}, Weakened: []string{"drops the scope dimension", "raises complexity.max_cyclomatic 15 → 40"}},
			false, []*change.File{file(policy.DefaultFile, "", change.Modify)}, "scope/policy-changed .agentverify.yaml",
			"the policy file .agentverify.yaml: it drops the scope dimension; raises complexity.max_cyclomatic 15 → 40; the change was verified under the policy in force at the base"},
		{"pre-commit config", &check.Trust{}, false, []*change.File{file(".pre-commit-config.yaml", "", change.Modify)}, "scope/gate-config-changed .pre-commit-config.yaml", "configures the verification gate"},
		{"claude settings", &check.Trust{}, false, []*change.File{file(".claude/settings.json", "", change.Modify), file(".claude/settings.local.json", "", change.Create)},
			"scope/gate-config-changed .claude/settings.json; scope/gate-config-changed .claude/settings.local.json", ""},
		{"workflow running agentverify", &check.Trust{}, false, []*change.File{withAV(".github/workflows/ci.yml")}, "scope/gate-config-changed .github/workflows/ci.yml", ""},
		{"workflow not running agentverify", &check.Trust{}, false, []*change.File{file(".github/workflows/release.yml", "", change.Modify)}, "", ""},
		{"workflow using the action", &check.Trust{}, false, []*change.File{change.NewFile(".github/workflows/v.yaml", "", nil, []byte("- uses: AgentVerify/agentverify@v1\n"))}, "scope/gate-config-changed .github/workflows/v.yaml", ""},
		{"allowed by the base policy", &check.Trust{}, true, []*change.File{file(".pre-commit-config.yaml", "", change.Modify), withAV(".github/workflows/ci.yml")}, "", ""},
		{"policy change still reported when gate config is allowed", rootTrust, true, []*change.File{file(".agentverify.yml", "", change.Modify)}, "scope/policy-changed .agentverify.yml", ""},
		{"every agent's hook configuration", &check.Trust{}, false, []*change.File{
			file(".mcp.json", "", change.Modify), file(".codex/hooks.json", "", change.Create), file(".gemini/settings.json", "", change.Modify),
			file(".cursor/hooks.json", "", change.Delete), file(".github/hooks/agentverify.json", "", change.Modify), file(".clinerules/hooks/PreToolUse", "", change.Delete),
			file(".windsurf/hooks.json", "", change.Modify), file(".kiro/agents/agentverify.json", "", change.Modify), file(".opencode/plugins/agentverify.ts", "", change.Modify),
		}, "scope/gate-config-changed .clinerules/hooks/PreToolUse; scope/gate-config-changed .codex/hooks.json; scope/gate-config-changed .cursor/hooks.json; " +
			"scope/gate-config-changed .gemini/settings.json; scope/gate-config-changed .github/hooks/agentverify.json; scope/gate-config-changed .kiro/agents/agentverify.json; " +
			"scope/gate-config-changed .mcp.json; scope/gate-config-changed .opencode/plugins/agentverify.ts; scope/gate-config-changed .windsurf/hooks.json", ""},
		{"a hook config moved out of place is still reported", &check.Trust{}, false, []*change.File{file("notes.json", ".cursor/hooks.json", change.Rename)}, "scope/gate-config-changed notes.json", "renamed"},
		{"nested settings are not the gate's", &check.Trust{}, false, []*change.File{file("sub/.claude/settings.json", "", change.Modify), file("docs/.pre-commit-config.yaml", "", change.Modify)}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := runGuard(t, tt.trust, tt.allowGate, tt.files...)
			if got := summary(fs); got != tt.want {
				t.Fatalf("findings: %s\nwant:     %s", got, tt.want)
			}
			if tt.msg != "" && !strings.Contains(fs[0].Message, tt.msg) {
				t.Errorf("message %q\nwant it to contain %q", fs[0].Message, tt.msg)
			}
		})
	}
}
