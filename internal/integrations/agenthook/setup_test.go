package agenthook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSetupIdempotent: every agent's configuration is created, found set up on a second
// run (byte for byte unchanged), and names the agent's hook command.
func TestSetupIdempotent(t *testing.T) {
	root := t.TempDir()
	for _, a := range Agents {
		path, did, err := Setup(root, a)
		if err != nil || did != "created" {
			t.Fatalf("%s: %s %v", a.Name, did, err)
		}
		first, _ := os.ReadFile(path)
		if !strings.Contains(string(first), Command(a.Name)) {
			t.Errorf("%s: %s does not run %q:\n%s", a.Name, path, Command(a.Name), first)
		}
		if _, did, err := Setup(root, a); err != nil || did != "unchanged" {
			t.Errorf("%s: second run %s %v", a.Name, did, err)
		}
		if again, _ := os.ReadFile(path); string(again) != string(first) {
			t.Errorf("%s: second run changed the file", a.Name)
		}
	}
	if fi, err := os.Stat(filepath.Join(root, ".clinerules/hooks/PreToolUse")); err != nil || fi.Mode()&0o111 == 0 {
		t.Errorf("Cline's hook is not executable: %v", err)
	}
}

// TestSetupMerges: a settings file with other keys and hooks keeps them, in their order.
func TestSetupMerges(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, ".claude/settings.json")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte(`{"permissions":{"allow":["Bash(ls)"]},"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"guard"}]}],"Stop":[]},"model":"x"}`), 0o644)
	a, _ := Lookup("claude")
	if _, did, err := Setup(root, a); err != nil || did != "updated" {
		t.Fatalf("%s %v", did, err)
	}
	got, _ := os.ReadFile(path)
	s := string(got)
	for _, want := range []string{`"Bash(ls)"`, `"command": "guard"`, `"Stop": []`, `"model": "x"`, `"matcher": "Write|Edit|MultiEdit"`} {
		if !strings.Contains(s, want) {
			t.Errorf("merged file lost %s:\n%s", want, s)
		}
	}
	if strings.Index(s, "permissions") > strings.Index(s, "model") || strings.Index(s, `"guard"`) > strings.Index(s, "hook claude") {
		t.Errorf("keys reordered:\n%s", s)
	}
	os.WriteFile(path, []byte(`{"hooks": 3}`), 0o644)
	if _, _, err := Setup(root, a); err == nil {
		t.Error("a hooks key that is not an object was overwritten")
	}
	os.WriteFile(path, []byte(`{"hooks": `), 0o644)
	if _, _, err := Setup(root, a); err == nil {
		t.Error("a broken settings file was overwritten")
	}
}

// TestSetupKeepsForeignHookFile: a Cline hook or OpenCode plugin file agentverify did not
// write is not replaced.
func TestSetupKeepsForeignHookFile(t *testing.T) {
	root := t.TempDir()
	a, _ := Lookup("cline")
	path := filepath.Join(root, a.Config)
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte("#!/bin/sh\necho '{}'\n"), 0o755)
	if _, _, err := Setup(root, a); err == nil || !strings.Contains(err.Error(), "by hand") {
		t.Errorf("foreign hook replaced: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "#!/bin/sh\necho '{}'\n" {
		t.Error("foreign hook changed")
	}
}
