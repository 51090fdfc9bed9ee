package pyright

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agentverify/agentverify/internal/testkit/pathenv"
)

func TestFloor(t *testing.T) {
	for _, tt := range []struct{ spec, want string }{
		{">=3.8", "3.8"},
		{">= 3.10", "3.10"},
		{">=3.8,<4", "3.8"},
		{"<4,>=3.9.2", "3.9"},
		{"~=3.11", "3.11"},
		{"==3.12.*", "3.12"},
		{">3.7", "3.7"},
		{">=3.8, >=3.10", "3.10"},
		{"", ""},
		{"<3.12", ""},
		{"!=3.9.*", ""},
	} {
		if got := Floor(tt.spec); got != tt.want {
			t.Errorf("Floor(%q) = %q, want %q", tt.spec, got, tt.want)
		}
	}
}

func TestLess(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{{"3.9", "3.10", true}, {"3.10", "3.9", false}, {"3.8", "3.8", false}, {"2.7", "3.0", true}, {"3.10.1", "3.11", true}} {
		if got := Less(tt.a, tt.b); got != tt.want {
			t.Errorf("Less(%q, %q) = %v", tt.a, tt.b, got)
		}
	}
}

func TestReadProject(t *testing.T) {
	for _, tt := range []struct {
		name    string
		files   map[string]string
		want    Project
		wantErr string
	}{
		{"none", nil, Project{}, ""},
		{"requires-python", map[string]string{"pyproject.toml": "[project]\nname = \"a\"\nrequires-python = \">=3.9\"\n"}, Project{Floor: "3.9"}, ""},
		{"tool.pyright", map[string]string{"pyproject.toml": "[project]\nrequires-python = \">=3.9\"\n[tool.pyright]\npythonVersion = \"3.12\"\nvenv = \".venv\"\n"},
			Project{Floor: "3.9", ConfigVersion: true, ConfigEnv: true}, ""},
		{"pyrightconfig wins", map[string]string{
			"pyproject.toml":     "[tool.pyright]\npythonVersion = \"3.12\"\n",
			"pyrightconfig.json": "{\n  // comment\n  \"venvPath\": \".\"\n}\n"}, Project{ConfigEnv: true}, ""},
		{"bad toml", map[string]string{"pyproject.toml": "[project\n"}, Project{}, "pyproject.toml"},
		{"bad json", map[string]string{"pyrightconfig.json": "{"}, Project{}, "pyrightconfig.json"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for p, c := range tt.files {
				fsys[p] = &fstest.MapFile{Data: []byte(c)}
			}
			got, err := ReadProject(fsys)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one naming %s", err, tt.wantErr)
				}
				return
			}
			if err != nil || got.Floor != tt.want.Floor || got.ConfigVersion != tt.want.ConfigVersion || got.ConfigEnv != tt.want.ConfigEnv {
				t.Errorf("ReadProject = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

func TestParseVersions(t *testing.T) {
	mods, err := parseVersions([]byte("# comment\n\n_ast: 3.0-\ntomllib: 3.11- # trailing\nasynchat: 3.0-3.11\n"))
	if err != nil {
		t.Fatal(err)
	}
	s := &Stdlib{modules: mods}
	for _, tt := range []struct{ mod, want string }{{"tomllib", "3.11"}, {"asynchat", "3.0"}, {"tomllib.sub", "3.11"}, {"nothere", ""}} {
		if got, _ := s.Since(tt.mod); got != tt.want {
			t.Errorf("Since(%q) = %q, want %q", tt.mod, got, tt.want)
		}
	}
	if _, err := parseVersions([]byte("tomllib 3.11\n")); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("a malformed line: error %v, want one naming line 1", err)
	}
}

func TestParseReport(t *testing.T) {
	ds, err := parseReport([]byte(`{"version":"1.1.414","generalDiagnostics":[{"file":"/a.py","severity":"error","message":"m","range":{"start":{"line":1,"character":2},"end":{"line":1,"character":3}},"rule":"reportCallIssue"}]}`))
	if err != nil || len(ds) != 1 || ds[0].Rule != "reportCallIssue" || ds[0].Range.Start.Character != 2 {
		t.Fatalf("parseReport = %+v, %v", ds, err)
	}
	for _, bad := range []string{"", "{}", "No configuration file found.\n{", `{"generalDiagnostics":[]}`} {
		if _, err := parseReport([]byte(bad)); err == nil {
			t.Errorf("parseReport(%q) accepted", bad)
		}
	}
}

// FuzzParseReport: pyright's output is outside input; decoding it never panics and
// either fails or yields diagnostics.
func FuzzParseReport(f *testing.F) {
	f.Add([]byte(`{"version":"1","generalDiagnostics":[{"file":"a","range":{"start":{"line":0,"character":0}}}]}`))
	f.Add([]byte("{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = parseReport(data)
	})
}

// FuzzParseVersions: typeshed's VERSIONS file is outside input.
func FuzzParseVersions(f *testing.F) {
	f.Add([]byte("tomllib: 3.11-\n"))
	f.Add([]byte("a: 3.0-3.1 # x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		mods, err := parseVersions(data)
		if err == nil {
			for m, sp := range mods {
				if m == "" && sp.from == "" {
					t.Errorf("empty entry from %q", data)
				}
			}
		}
	})
}

func TestFindNotInstalled(t *testing.T) {
	t.Setenv(EnvVar, filepath.Join(t.TempDir(), "pyright"))
	_, err := Find("")
	if err == nil || !strings.Contains(err.Error(), EnvVar) {
		t.Fatalf("Find with a missing %s: %v", EnvVar, err)
	}
	t.Setenv(EnvVar, "")
	pathenv.Hide(t, "pyright")
	_, err = Find(t.TempDir())
	if err != ErrNotInstalled || !strings.Contains(err.Error(), "npm install -g pyright@"+Version) {
		t.Fatalf("Find with nothing installed: %v, want the install advice", err)
	}
}

func TestInterpreter(t *testing.T) {
	root := t.TempDir()
	venv := filepath.Join(root, ".venv", "bin")
	if err := os.MkdirAll(venv, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(venv, "python"), nil, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VIRTUAL_ENV", "")
	if got := Interpreter(root); got != filepath.Join(venv, "python") {
		t.Errorf("Interpreter with .venv = %q", got)
	}
	active := t.TempDir()
	if err := os.MkdirAll(filepath.Join(active, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(active, "bin", "python"), nil, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VIRTUAL_ENV", active)
	if got := Interpreter(root); got != filepath.Join(active, "bin", "python") {
		t.Errorf("Interpreter with VIRTUAL_ENV = %q", got)
	}
}

func TestWeakenedEnforced(t *testing.T) {
	for _, tt := range []struct {
		cfg  map[string]any
		want bool
	}{
		{nil, false},
		{map[string]any{"typeCheckingMode": "strict", "reportCallIssue": "error"}, false},
		{map[string]any{"typeCheckingMode": "off"}, true},
		{map[string]any{"reportAttributeAccessIssue": false}, true},
		{map[string]any{"reportMissingImports": "warning"}, true},
		{map[string]any{"reportUnusedImport": false}, false},
		{map[string]any{"ignore": []any{"app"}}, true},
	} {
		p := Project{Config: tt.cfg}
		if got := p.Weakened(); got != tt.want {
			t.Errorf("Weakened(%v) = %v, want %v", tt.cfg, got, tt.want)
		}
		data, err := p.Enforced("/repo")
		if err != nil {
			t.Fatal(err)
		}
		var back map[string]any
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		if (Project{Config: back}).Weakened() {
			t.Errorf("Enforced(%v) = %s, still weakened", tt.cfg, data)
		}
	}
	data, _ := Project{Config: map[string]any{"venvPath": ".", "venv": ".venv"}}.Enforced("/repo")
	if !strings.Contains(string(data), `"venvPath": "/repo"`) {
		t.Errorf("Enforced keeps a relative venvPath: %s", data)
	}
}
