package scope

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/policy"
)

// gateConfigFiles configure the gate wherever they are used: editing them can switch
// agentverify off without touching the policy. Each coding agent's hook configuration is
// one (agentverify init --agent writes them), and so is .mcp.json, which starts the MCP
// server.
var gateConfigFiles = []string{
	".pre-commit-config.yaml",     // the pre-commit framework's hooks
	".claude/settings.json",       // Claude Code's hooks (the PreToolUse gate)
	".claude/settings.local.json", // the same, per user
	".mcp.json",                   // MCP servers (agentverify mcp)
	".codex/hooks.json",           // OpenAI Codex CLI's hooks
	".codex/config.toml",          // Codex's [hooks] table
	".gemini/settings.json",       // Gemini CLI's hooks
	".cursor/hooks.json",          // Cursor's hooks
	".windsurf/hooks.json",        // Windsurf's hooks
	".qwen/settings.json",         // Qwen Code's hooks
	".factory/hooks.json",         // Factory Droid's hooks
	".factory/settings.json",      // the same, in its settings
	".openhands/hooks.json",       // OpenHands' hooks
	"opencode.json",               // OpenCode's configuration (its plugins)
	"opencode.jsonc",              // the same
	".aider.conf.yml",             // aider's --lint-cmd
}

// gateConfigDirs hold gate configuration in any file under them: Cline runs the
// executables of .clinerules/hooks, Copilot reads every .github/hooks/*.json, Kiro its
// hooks and agent configurations, OpenCode loads every plugin.
var gateConfigDirs = []string{
	".clinerules/hooks/",
	".github/hooks/",
	".kiro/hooks/",
	".kiro/agents/",
	".opencode/plugins/",
	".opencode/plugin/",
}

// guard reports the changes to what decides the verification itself: the policy files
// (scope/policy-changed) and the gate's configuration (scope/gate-config-changed). It
// runs only when the pass has a trusted side.
func guard(pass *check.Pass, f *change.File, report func(*change.File, *check.Rule, string, string)) {
	t := pass.Trust
	for _, p := range sides(f) {
		switch {
		case slices.Contains(t.PolicyFiles, p):
			report(f, policyChanged, policyMessage(t, f, p),
				"policy changes need a human: revert this file, or have a human rerun with --allow-policy-change")
		case gateConfig(f, p) && !t.AllowGateConfig:
			report(f, gateConfigChanged, fmt.Sprintf("the change %s %s, which configures the verification gate%s", verb(f.Op), p, renameNote(f, p)),
				"revert this file; changes to the gate's configuration need a human (or scope.allow_gate_config_changes in the base policy)")
		}
	}
}

// policyMessage says which policy file the change touches, how, and what got weaker.
func policyMessage(t *check.Trust, f *change.File, p string) string {
	var what string
	switch {
	case p == t.PolicyFile:
		what = fmt.Sprintf("the change %s the policy file %s%s", verb(f.Op), p, renameNote(f, p))
	case f.Op == change.Create && t.PolicyFile != "" && path.Dir(p) == path.Dir(t.PolicyFile):
		what = fmt.Sprintf("the change creates %s, which shadows the policy file %s", p, t.PolicyFile)
	case t.PolicyFile == "":
		what = fmt.Sprintf("the change %s the policy file %s%s", verb(f.Op), p, renameNote(f, p))
	default:
		what = fmt.Sprintf("the change %s %s, through which the policy file %s is read%s", verb(f.Op), p, t.PolicyFile, renameNote(f, p))
	}
	if len(t.Weakened) == 0 {
		return what + "; the change was verified under the policy in force at the base"
	}
	w := t.Weakened
	more := ""
	if len(w) > 6 {
		w, more = w[:6], fmt.Sprintf("; and %d more", len(t.Weakened)-6)
	}
	return what + ": it " + strings.Join(w, "; ") + more + "; the change was verified under the policy in force at the base"
}

// gateConfig reports whether path p of f configures the gate: the pre-commit config, an
// agent's hook configuration, or a workflow that runs agentverify on either side.
func gateConfig(f *change.File, p string) bool {
	if slices.Contains(gateConfigFiles, p) || slices.ContainsFunc(gateConfigDirs, func(d string) bool { return strings.HasPrefix(p, d) }) {
		return true
	}
	if path.Dir(p) != ".github/workflows" || (path.Ext(p) != ".yml" && path.Ext(p) != ".yaml") {
		return false
	}
	if f.TooLarge || f.Binary {
		return true // unreadable: assume the worst
	}
	return mentions(f.Base) || mentions(f.Head)
}

func mentions(b []byte) bool { return bytes.Contains(bytes.ToLower(b), []byte("agentverify")) }

// weakenings reports the changes to a checker's own configuration that loosen how the
// change is checked (lang.ConfigGuard: tsconfig.json turning strict off, adding noCheck,
// excluding the changed file), as scope/gate-config-changed: the frontends check under
// the base's configuration regardless, and a human decides about the loosening. Only
// when the pass has a trusted side whose policy does not allow gate configuration
// changes.
func weakenings(pass *check.Pass) ([]check.Finding, error) {
	if pass.Trust == nil || pass.Trust.AllowGateConfig {
		return nil, nil
	}
	var out []check.Finding
	for _, fe := range pass.Languages {
		g, ok := fe.(lang.ConfigGuard)
		if !ok {
			continue
		}
		ps, err := g.ConfigWeakenings(pass.Request())
		if err != nil {
			return nil, fmt.Errorf("reading the %s configuration: %w", fe.Name(), err)
		}
		for _, p := range ps {
			f := check.Problem(policy.Scope, p)
			f.Introduced = true
			out = append(out, f)
		}
	}
	return out, nil
}
