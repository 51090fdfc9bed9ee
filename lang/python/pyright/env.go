package pyright

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/agentverify/agentverify/lazyregexp"
)

// Project is what the project's own files say about how to check it.
type Project struct {
	// Floor is the lowest Python version requires-python admits ("3.8"), "" when the
	// project does not say.
	Floor string
	// ConfigVersion and ConfigEnv are set when pyright's configuration
	// (pyrightconfig.json, else [tool.pyright]) sets pythonVersion, or chooses the
	// environment (venv, venvPath or pythonPath): agentverify then leaves those to it.
	ConfigVersion, ConfigEnv bool
	// Config is pyright's configuration as the project gives it (nil when it gives none).
	Config map[string]any
}

// Rules are the pyright rules whose errors the resolver relies on: a project's
// configuration may not turn them off or down for agentverify's check (see Weakened).
var rules = []string{"reportAttributeAccessIssue", "reportMissingImports", "reportUndefinedVariable", "reportCallIssue", "reportArgumentType"}

// Weakened reports whether the project's pyright configuration hides errors agentverify
// relies on: checking off, one of its rules turned off or down, paths whose diagnostics
// are ignored, or excluded paths (pyright reports nothing for an excluded file even when
// it is named on the command line). A change could otherwise silence the gate by editing
// pyproject.toml; such a project is checked under Enforced instead, and which files are
// checked is decided by the trusted side's configuration (Leaves).
func (p Project) Weakened() bool {
	if p.Config == nil {
		return false
	}
	if p.Config["typeCheckingMode"] == "off" {
		return true
	}
	for _, k := range []string{"ignore", "exclude"} {
		if list, ok := p.Config[k].([]any); ok && len(list) > 0 {
			return true
		}
	}
	for _, r := range rules {
		if v, ok := p.Config[r]; ok && v != "error" && v != true {
			return true
		}
	}
	return false
}

// Enforced returns a pyrightconfig.json for a copy of the project at another directory:
// the project's configuration with the rules agentverify relies on at "error", checking
// at least basic, no ignored or excluded paths, and a relative venvPath resolved against root (the
// project's real directory).
func (p Project) Enforced(root string) ([]byte, error) {
	cfg := map[string]any{}
	for k, v := range p.Config {
		cfg[k] = v
	}
	if cfg["typeCheckingMode"] == "off" {
		cfg["typeCheckingMode"] = "basic"
	}
	delete(cfg, "ignore")
	delete(cfg, "exclude")
	for _, r := range rules {
		cfg[r] = "error"
	}
	if v, ok := cfg["venvPath"].(string); ok && !filepath.IsAbs(v) {
		cfg["venvPath"] = filepath.Join(root, v)
	}
	return json.MarshalIndent(cfg, "", "  ")
}

// ReadProject reads pyproject.toml and pyrightconfig.json at the root of fsys. A file
// that exists but does not parse is an error naming it: the project could not be
// checked the way it is configured. A nil fsys has no files.
func ReadProject(fsys fs.FS) (Project, error) {
	var p Project
	if fsys == nil {
		return p, nil
	}
	if data, err := fs.ReadFile(fsys, "pyproject.toml"); err == nil {
		var doc struct {
			Project struct {
				RequiresPython string `toml:"requires-python"`
			} `toml:"project"`
			Tool struct {
				Pyright map[string]any `toml:"pyright"`
			} `toml:"tool"`
		}
		if err := toml.Unmarshal(data, &doc); err != nil {
			return p, fmt.Errorf("pyproject.toml: %w", err)
		}
		p.Floor = Floor(doc.Project.RequiresPython)
		p.setConfig(doc.Tool.Pyright)
	}
	if data, err := fs.ReadFile(fsys, "pyrightconfig.json"); err == nil {
		var cfg map[string]any
		if err := json.Unmarshal(stripJSONComments(data), &cfg); err != nil {
			return p, fmt.Errorf("pyrightconfig.json: %w", err)
		}
		p.ConfigVersion, p.ConfigEnv = false, false // it wins over [tool.pyright]
		p.setConfig(cfg)
	}
	return p, nil
}

func (p *Project) setConfig(cfg map[string]any) {
	p.Config = cfg
	_, p.ConfigVersion = cfg["pythonVersion"]
	for _, k := range []string{"venv", "venvPath", "pythonPath"} {
		if _, ok := cfg[k]; ok {
			p.ConfigEnv = true
		}
	}
}

// lineComment matches a // comment outside strings well enough for pyrightconfig.json,
// which pyright reads as JSON with comments.
var lineComment = lazyregexp.New(`(?m)^\s*//.*$`)

func stripJSONComments(data []byte) []byte { return lineComment.ReplaceAll(data, nil) }

// specifier is one clause of a PEP 440 version specifier.
var specifier = lazyregexp.New(`^\s*(>=|~=|==|>)\s*(\d+)\.(\d+)`)

// Floor returns the lowest "major.minor" a requires-python specifier admits, from its
// >=, ~=, == and > clauses; "" when it sets none.
func Floor(spec string) string {
	best := ""
	for _, clause := range strings.Split(spec, ",") {
		m := specifier.FindStringSubmatch(clause)
		if m == nil {
			continue
		}
		v := m[2] + "." + m[3]
		if best == "" || Less(best, v) {
			best = v // the clauses all hold: the floor is the highest lower bound
		}
	}
	return best
}

// Less reports whether version a ("3.9") is older than b ("3.10").
func Less(a, b string) bool {
	am, an := split(a)
	bm, bn := split(b)
	return am < bm || am == bm && an < bn
}

func split(v string) (int, int) {
	maj, min, _ := strings.Cut(v, ".")
	if i := strings.IndexByte(min, '.'); i >= 0 {
		min = min[:i]
	}
	a, _ := strconv.Atoi(maj)
	b, _ := strconv.Atoi(min)
	return a, b
}

// Interpreter returns the Python interpreter of the project at root the way Python users
// expect it to be found: the active virtual environment ($VIRTUAL_ENV), the project's
// .venv/ or venv/, then python3 on PATH; "" when there is none.
func Interpreter(root string) string {
	var cands []string
	if v := os.Getenv("VIRTUAL_ENV"); v != "" {
		cands = append(cands, filepath.Join(v, "bin", "python"))
	}
	for _, d := range []string{".venv", "venv"} {
		cands = append(cands, filepath.Join(root, d, "bin", "python"))
	}
	for _, c := range cands {
		if st, err := os.Stat(c); err == nil && !st.IsDir() {
			return c
		}
	}
	if p, err := exec.LookPath("python3"); err == nil {
		return p
	}
	return ""
}

// Options returns the options to check the project at root with.
func (p Project) Options(root string) Options {
	var o Options
	if !p.ConfigEnv {
		o.Python = Interpreter(root)
	}
	if !p.ConfigVersion {
		o.PythonVersion = p.Floor
	}
	return o
}
