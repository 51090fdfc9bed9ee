package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/internal/testkit/testrepo"
)

// guardedPolicy forbids secret/**; the tests below try to get a file there.
const guardedPolicy = "version: 1\nscope:\n  forbidden_paths: [\"secret/**\"]\nhallucination: {}\n"

// weakPolicy is what an agent would like: no scope dimension at all.
const weakPolicy = "version: 1\nhallucination: {}\n"

func guardedRepo(t *testing.T, policyName string) *testrepo.Repo {
	t.Helper()
	return newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo, policyName: guardedPolicy})
}

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// wantRules checks the exit code and which rules the text output names.
func wantRules(t *testing.T, what string, code int, out, errs string, wantCode int, present, absent []string) {
	t.Helper()
	if code != wantCode {
		t.Errorf("%s: exit %d, want %d\n%s%s", what, code, wantCode, out, errs)
	}
	for _, r := range present {
		if !strings.Contains(out, r) {
			t.Errorf("%s: %q missing from\n%s", what, r, out)
		}
	}
	for _, r := range absent {
		if strings.Contains(out, r) {
			t.Errorf("%s: %q reported\n%s", what, r, out)
		}
	}
}

// TestDiffPolicyFromBase: a change that drops scope from the policy and writes into a
// forbidden path fails under the base policy, saying what got weaker; a human's
// --allow-policy-change puts the new policy in force.
func TestDiffPolicyFromBase(t *testing.T) {
	t.Parallel()
	r := guardedRepo(t, ".agentverify.yaml")
	dir := r.Dir
	write(t, dir, map[string]string{".agentverify.yaml": weakPolicy, "secret/key.txt": "hunter2\n"})
	code, out, errs := run(t, dir, "", "diff")
	wantRules(t, "diff", code, out, errs, ExitFailed, []string{"scope/policy-changed", "drops the scope dimension", "scope/forbidden-path", "secret/key.txt"}, nil)
	code, out, errs = run(t, dir, "", "diff", "--allow-policy-change")
	wantRules(t, "diff --allow-policy-change", code, out, errs, ExitOK, nil, []string{"scope/policy-changed", "scope/forbidden-path"})
	// A patch with the same change is held the same way.
	r.Git("add", "-A")
	patch := r.Git("diff", "--cached") + "\n"
	r.Git("reset", "-q")
	code, out, errs = run(t, dir, patch, "diff", "--patch", "-")
	wantRules(t, "diff --patch", code, out, errs, ExitFailed, []string{"scope/policy-changed", "scope/forbidden-path"}, nil)
}

// TestDiffPolicyShadowAndSymlink: a new .agentverify.yaml over the base's
// .agentverify.yml, and an edit to the target of a symlinked policy, are policy changes.
func TestDiffPolicyShadowAndSymlink(t *testing.T) {
	t.Parallel()
	dir := guardedRepo(t, ".agentverify.yml").Dir
	write(t, dir, map[string]string{".agentverify.yaml": weakPolicy, "secret/key.txt": "x\n"})
	code, out, errs := run(t, dir, "", "diff")
	wantRules(t, "shadow", code, out, errs, ExitFailed, []string{"scope/policy-changed", "shadows the policy file .agentverify.yml", "scope/forbidden-path"}, nil)

	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo, "conf/policy.yaml": guardedPolicy})
	if err := os.Symlink("conf/policy.yaml", filepath.Join(r.Dir, ".agentverify.yaml")); err != nil {
		t.Skip("symbolic links not supported:", err)
	}
	r.Commit("policy link")
	write(t, r.Dir, map[string]string{"conf/policy.yaml": weakPolicy, "secret/key.txt": "x\n"})
	code, out, errs = run(t, r.Dir, "", "diff")
	wantRules(t, "symlink target", code, out, errs, ExitFailed, []string{"scope/policy-changed", "conf/policy.yaml", "scope/forbidden-path"}, nil)
	// Re-linking the policy to another file is a change of the policy file itself.
	r.Git("checkout", "--", "conf/policy.yaml")
	write(t, r.Dir, map[string]string{"conf/weak.yaml": weakPolicy})
	os.Remove(filepath.Join(r.Dir, ".agentverify.yaml"))
	os.Symlink("conf/weak.yaml", filepath.Join(r.Dir, ".agentverify.yaml"))
	code, out, errs = run(t, r.Dir, "", "diff")
	wantRules(t, "re-link", code, out, errs, ExitFailed, []string{"scope/policy-changed", "drops the scope dimension", "scope/forbidden-path"}, nil)
}

// TestStagedIgnoresUnstagedPolicy: a weakened policy left unstaged does not govern
// --staged; the base policy does.
func TestStagedIgnoresUnstagedPolicy(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo, ".agentverify.yaml": guardedPolicy})
	write(t, r.Dir, map[string]string{"secret/key.txt": "x\n"})
	r.Git("add", "secret/key.txt")
	write(t, r.Dir, map[string]string{".agentverify.yaml": weakPolicy})
	code, out, errs := run(t, r.Dir, "", "diff", "--staged")
	wantRules(t, "staged", code, out, errs, ExitFailed, []string{"scope/forbidden-path"}, []string{"scope/policy-changed"})
}

// TestHookClaudePolicyFromHead: the Claude hook ignores a weakened working-tree policy.
func TestHookClaudePolicyFromHead(t *testing.T) {
	t.Parallel()
	dir := guardedRepo(t, ".agentverify.yaml").Dir
	write(t, dir, map[string]string{".agentverify.yaml": weakPolicy})
	payload := claudePayload(t, "Write", dir, map[string]any{"file_path": filepath.Join(dir, "secret", "k.txt"), "content": "x\n"})
	code, out, errs := run(t, dir, payload, "hook", "claude")
	if code != 2 || !strings.Contains(out, "deny") || !strings.Contains(errs, "scope/forbidden-path") {
		t.Errorf("hook: exit %d\n%s\n%s", code, out, errs)
	}
	// Writing the policy through the hook is denied too.
	payload = claudePayload(t, "Write", dir, map[string]any{"file_path": filepath.Join(dir, ".agentverify.yaml"), "content": weakPolicy})
	if code, out, errs := run(t, dir, payload, "hook", "claude"); code != 2 || !strings.Contains(errs, "scope/policy-changed") {
		t.Errorf("hook policy write: exit %d\n%s\n%s", code, out, errs)
	}
}

// TestCheckKeepsWorkingTreePolicy: check mode reads the working tree's policy and never
// reports scope/policy-changed for a committed policy.
func TestCheckKeepsWorkingTreePolicy(t *testing.T) {
	t.Parallel()
	dir := guardedRepo(t, ".agentverify.yaml").Dir
	code, out, errs := run(t, dir, "", "check", ".")
	wantRules(t, "check", code, out, errs, ExitOK, nil, []string{"scope/policy-changed", "scope/gate-config-changed"})
	write(t, dir, map[string]string{".agentverify.yaml": "version: 1\nscope:\n  forbidden_paths: [\"m.go\"]\n"})
	code, out, errs = run(t, dir, "", "check", ".")
	wantRules(t, "check, working-tree policy", code, out, errs, ExitFailed, []string{"scope/forbidden-path"}, []string{"scope/policy-changed"})
	// Nor does check guard the gate's configuration, whichever policy it is given.
	write(t, dir, map[string]string{".agentverify.yaml": weakPolicy, ".pre-commit-config.yaml": "repos: []\n"})
	outside := filepath.Join(t.TempDir(), "p.yaml")
	os.WriteFile(outside, []byte(weakPolicy), 0o644)
	for _, args := range [][]string{{"check", "."}, {"check", "--policy", outside, "."}} {
		code, out, errs = run(t, dir, "", args...)
		wantRules(t, strings.Join(args, " "), code, out, errs, ExitOK, nil, []string{"scope/policy-changed", "scope/gate-config-changed"})
	}
}

// TestGateConfigChanged: editing the pre-commit config is an error unless the base
// policy allows it; the scope guard runs even when the policy skips scope.
func TestGateConfigChanged(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo, ".agentverify.yaml": weakPolicy, ".pre-commit-config.yaml": "repos: []\n"})
	write(t, r.Dir, map[string]string{".pre-commit-config.yaml": "repos: [] # agentverify removed\n"})
	code, out, errs := run(t, r.Dir, "", "diff")
	wantRules(t, "gate config", code, out, errs, ExitFailed, []string{"scope/gate-config-changed"}, nil)
	// Weakening a policy that skips scope is still reported.
	write(t, r.Dir, map[string]string{".agentverify.yaml": "version: 1\n"})
	code, out, errs = run(t, r.Dir, "", "diff")
	wantRules(t, "policy without scope", code, out, errs, ExitFailed, []string{"scope/policy-changed", "drops the hallucination dimension"}, nil)

	// A human's --allow-policy-change does not let the change grant itself gate-config changes.
	write(t, r.Dir, map[string]string{".agentverify.yaml": "version: 1\nscope: {allow_gate_config_changes: true}\n"})
	code, out, errs = run(t, r.Dir, "", "diff", "--allow-policy-change")
	wantRules(t, "self-granted gate config", code, out, errs, ExitFailed, []string{"scope/gate-config-changed"}, []string{"scope/policy-changed"})

	allow := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo, ".pre-commit-config.yaml": "repos: []\n",
		".agentverify.yaml": "version: 1\nscope: {allow_gate_config_changes: true}\n"})
	write(t, allow.Dir, map[string]string{".pre-commit-config.yaml": "repos: [] # changed\n"})
	code, out, errs = run(t, allow.Dir, "", "diff")
	wantRules(t, "allowed", code, out, errs, ExitOK, nil, []string{"scope/gate-config-changed"})
}

// TestAddedSuppressionSuppressesNothing: a //agentverify:ignore the change adds does not
// hide a compile error, through diff or the hook; style/suppression-added is reported beside it.
func TestAddedSuppressionSuppressesNothing(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	bad := cleanGo + "\n// Bad is broken.\nfunc Bad() int { return undefinedThing } //agentverify:ignore hallucination/* the linter is wrong here\n"
	write(t, r.Dir, map[string]string{"m.go": bad})
	code, out, errs := run(t, r.Dir, "", "diff")
	wantRules(t, "diff", code, out, errs, ExitFailed, []string{"undefinedThing", "style/suppression-added"}, nil)
	r.Git("checkout", "--", "m.go")
	payload := claudePayload(t, "Write", r.Dir, map[string]any{"file_path": filepath.Join(r.Dir, "m.go"), "content": bad})
	if code, out, errs := run(t, r.Dir, payload, "hook", "claude"); code != 2 || !strings.Contains(errs, "undefinedThing") {
		t.Errorf("hook: exit %d\n%s\n%s", code, out, errs)
	}
	// A base policy may allow new suppressions.
	allow := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo, ".agentverify.yaml": "version: 1\nhallucination: {}\nsuppressions: {allow_new: true}\n"})
	write(t, allow.Dir, map[string]string{"m.go": bad})
	code, out, errs = run(t, allow.Dir, "", "diff")
	wantRules(t, "allow_new", code, out, errs, ExitOK, nil, []string{"undefinedThing"})
}

// TestMarkerInStringIsNotASuppression: the marker inside a string literal suppresses
// nothing, even when it is at the base and in check mode.
func TestMarkerInStringIsNotASuppression(t *testing.T) {
	t.Parallel()
	src := "// Package m is a test.\npackage m\n\n// Doc is text.\nconst Doc = `\n//agentverify:ignore hallucination/* legacy`\n\n// T is broken.\nvar T = %s\n"
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": strings.Replace(src, "%s", "1", 1)})
	write(t, r.Dir, map[string]string{"m.go": strings.Replace(src, "%s", "undefinedThing", 1)})
	code, out, errs := run(t, r.Dir, "", "diff")
	wantRules(t, "diff", code, out, errs, ExitFailed, []string{"undefinedThing"}, nil)
	code, out, errs = run(t, r.Dir, "", "check", ".")
	wantRules(t, "check", code, out, errs, ExitFailed, []string{"undefinedThing"}, nil)
}

// TestPolicyFileInsideRepository: --policy naming a file of the repository is protected
// like the default one, and the change is verified under its committed version.
func TestPolicyFileInsideRepository(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo, "ci/policy.yaml": guardedPolicy})
	write(t, r.Dir, map[string]string{"ci/policy.yaml": weakPolicy, "secret/k.txt": "x\n"})
	code, out, errs := run(t, r.Dir, "", "diff", "--policy", "ci/policy.yaml")
	wantRules(t, "--policy in repo", code, out, errs, ExitFailed, []string{"scope/policy-changed", "ci/policy.yaml", "scope/forbidden-path"}, nil)
	// A policy file outside the repository is the command line's: used as it is.
	outside := filepath.Join(t.TempDir(), "p.yaml")
	os.WriteFile(outside, []byte(weakPolicy), 0o644)
	code, out, errs = run(t, r.Dir, "", "diff", "--policy", outside)
	wantRules(t, "--policy outside", code, out, errs, ExitOK, nil, []string{"scope/forbidden-path"})
}

// TestBadBasePolicyExitsTwo: a committed policy that cannot be used stops the gate with one
// line naming the file.
func TestBadBasePolicyExitsTwo(t *testing.T) {
	t.Parallel()
	bad := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo, ".agentverify.yaml": "version: 1\nscope: {allowed_pathz: []}\n"})
	code, _, errs := run(t, bad.Dir, "", "diff")
	if code != ExitError || !strings.Contains(errs, ".agentverify.yaml:2") || !strings.Contains(errs, "as committed") || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
		t.Errorf("bad base policy: exit %d %q", code, errs)
	}
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	if err := os.Symlink("../outside.yaml", filepath.Join(r.Dir, ".agentverify.yaml")); err != nil {
		t.Skip("symbolic links not supported:", err)
	}
	r.Commit("escaping link")
	if code, _, errs := run(t, r.Dir, "", "diff"); code != ExitError || !strings.Contains(errs, "leaving the repository") {
		t.Errorf("escaping policy link: exit %d %q", code, errs)
	}
}
