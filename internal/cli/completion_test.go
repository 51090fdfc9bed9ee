package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/internal/testkit/shorttest"
)

// completionScript writes the script for shell to a file and returns its path.
func completionScript(t *testing.T, shell string) string {
	t.Helper()
	code, out, errs := run(t, ".", "", "completion", shell)
	if code != 0 || out == "" {
		t.Fatalf("completion %s: exit %d %s", shell, code, errs)
	}
	path := filepath.Join(t.TempDir(), "agentverify."+shell)
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func needShell(t *testing.T, shell string) {
	t.Helper()
	if _, err := exec.LookPath(shell); err != nil {
		t.Skipf("%s not installed (Debian package %s; .ci/run installs it)", shell, shell)
	}
}

// TestCompletionBash asks the real bash for completions, as the shell would on <Tab>.
func TestCompletionBash(t *testing.T) {
	t.Parallel()
	needShell(t, "bash")
	script := completionScript(t, "bash")
	complete := func(line string) string {
		words := strings.Fields(line)
		if strings.HasSuffix(line, " ") {
			words = append(words, "")
		}
		quoted := make([]string, len(words))
		for i, w := range words {
			quoted[i] = "'" + w + "'"
		}
		prog := "source " + script + "; COMP_WORDS=(" + strings.Join(quoted, " ") + "); COMP_CWORD=" +
			strconv.Itoa(len(words)-1) + "; _agentverify; printf '%s\\n' \"${COMPREPLY[@]}\""
		out, err := exec.Command("bash", "-c", prog).CombinedOutput()
		if err != nil {
			t.Fatalf("bash: %v\n%s", err, out)
		}
		return string(out)
	}
	for line, want := range map[string]string{
		"agentverify d":                               "diff",
		"agentverify diff --for":                      "--format",
		"agentverify diff --format s":                 "sarif",
		"agentverify check --output ju":               "junit",
		"agentverify explain hallucination/unknown-s": "hallucination/unknown-symbol",
		"agentverify hook c":                          "claude",
		"agentverify -C . ch":                         "check",
		"agentverify completion f":                    "fish",
	} {
		if got := complete(line); !strings.Contains("\n"+got, "\n"+want+"\n") {
			t.Errorf("%q completes to %q, want %q among them", line, got, want)
		}
	}
}

func TestCompletionFish(t *testing.T) {
	t.Parallel()
	needShell(t, "fish")
	script := completionScript(t, "fish")
	out, err := exec.Command("fish", "-c", "source "+script+"; complete -C 'agentverify diff --for'; complete -C 'agentverify check --color '").CombinedOutput()
	if err != nil {
		t.Fatalf("fish: %v\n%s", err, out)
	}
	for _, want := range []string{"--format\t", "always\t", "never\t"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("fish completions lack %q:\n%s", want, out)
		}
	}
}

func TestCompletionZsh(t *testing.T) {
	shorttest.Slow(t, "starts zsh to run the completion script")
	t.Parallel()
	needShell(t, "zsh")
	script := completionScript(t, "zsh")
	if out, err := exec.Command("zsh", "-n", script).CombinedOutput(); err != nil {
		t.Fatalf("zsh -n: %v\n%s", err, out)
	}
	out, err := exec.Command("zsh", "-c", "autoload -U compinit; compinit -u -D; source "+script+"; whence -w _agentverify").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "_agentverify: function") {
		t.Errorf("zsh does not load the completion function: %v\n%s", err, out)
	}
}

func TestCompletionBadShell(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"completion"}, {"completion", "powershell"}} {
		if code, _, errs := run(t, ".", "", args...); code != 2 || !strings.Contains(errs, "bash, zsh or fish") {
			t.Errorf("%q: exit %d %q", args, code, errs)
		}
	}
}
