package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/internal/testkit/testrepo"
)

// TestToolsResolveLinks checks that verify_edit and verify_files judge where a path really
// leads: through a directory link into a forbidden directory it is a scope error, and out
// of the repository it is refused.
func TestToolsResolveLinks(t *testing.T) {
	policy := "version: 1\nscope:\n  allowed_paths: [\"**\"]\n  forbidden_paths: [\"secret/**\"]\nhallucination: {}\n"
	dir := testrepo.New(t, map[string]string{"go.mod": goMod, "m.go": mGo, ".agentverify.yaml": policy, "secret/s.go": "package secret\n"}).Dir
	os.Mkdir(filepath.Join(dir, "pkg"), 0o755)
	if err := os.Symlink("../secret", filepath.Join(dir, "pkg", "sec")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(t.TempDir(), filepath.Join(dir, "pkg", "out")); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, dir)
	tests := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"verify_edit", map[string]any{"path": "pkg/sec/new.go", "content": "package secret\n"}, "scope/forbidden-path secret/new.go"},
		{"verify_files", map[string]any{"paths": []string{"pkg/sec/s.go"}}, "scope/forbidden-path secret/s.go"},
		{"verify_edit", map[string]any{"path": "pkg/out/new.go", "content": "package x\n"}, "outside the repository"},
		{"verify_files", map[string]any{"paths": []string{"pkg/out/x.go"}}, "outside the repository"},
		{"verify_files", map[string]any{"paths": []string{"pkg/out"}}, "pkg/out: path is a symbolic link"},
	}
	for _, tt := range tests {
		res, _ := call(t, cs, tt.tool, tt.args)
		if got := text(res); !strings.Contains(got, tt.want) {
			t.Errorf("%s %v: %q, want %q", tt.tool, tt.args, got, tt.want)
		}
	}
}
