package pydeps

import (
	"errors"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/agentverify/agentverify/lazyregexp"
)

// Project is what a Python project declares about its dependencies.
type Project struct {
	// Dir is the project's directory (slash-separated, relative to the repository root;
	// "." for the root).
	Dir string
	// Name is the project's own distribution name, when pyproject.toml declares one.
	Name string
	// Requires are the declared dependencies, from every source found.
	Requires []Requirement
	// Sources are the files that declare dependencies (relative to the repository root);
	// empty when the project declares them nowhere that can be read.
	Sources []string
}

// ProjectMarkers are the files that make a directory a project's root.
var projectMarkers = []string{"pyproject.toml", "setup.py", "setup.cfg", "requirements.txt"}

// IsProjectDir reports whether dir of fsys holds a project's root file.
func IsProjectDir(fsys fs.FS, dir string) bool {
	for _, m := range projectMarkers {
		if _, err := fs.Stat(fsys, path.Join(dir, m)); err == nil {
			return true
		}
	}
	return false
}

// LoadProject reads the declarations of the project at dir of fsys: pyproject.toml,
// every requirements*.txt of dir and of dir/requirements/ (with their -r includes),
// setup.cfg's install_requires and extras_require, and the requirement-like string
// literals of setup.py (whose install_requires is code; a literal there is the only
// declaration that can be read without running it).
func LoadProject(fsys fs.FS, dir string) (*Project, error) {
	p := &Project{Dir: dir}
	read := func(name string) ([]byte, error) { return fs.ReadFile(fsys, name) }
	if data, err := read(path.Join(dir, "pyproject.toml")); err == nil {
		pp, err := ParsePyproject(path.Join(dir, "pyproject.toml"), data)
		if err != nil {
			return nil, err
		}
		p.Name = pp.Name
		p.add(path.Join(dir, "pyproject.toml"), pp.Requires, len(pp.Requires) > 0 || !pp.Dynamic)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, f := range requirementFiles(fsys, dir) {
		data, err := read(f)
		if err != nil {
			return nil, err
		}
		rs, err := ParseRequirements(f, data, read)
		if err != nil {
			return nil, err
		}
		p.add(f, rs, true)
	}
	if data, err := read(path.Join(dir, "setup.cfg")); err == nil {
		if rs := setupCfg(path.Join(dir, "setup.cfg"), string(data)); rs != nil {
			p.add(path.Join(dir, "setup.cfg"), rs, true)
		}
	}
	if data, err := read(path.Join(dir, "setup.py")); err == nil {
		p.add(path.Join(dir, "setup.py"), setupPy(path.Join(dir, "setup.py"), string(data)), true)
	}
	return p, nil
}

func (p *Project) add(file string, rs []Requirement, declares bool) {
	p.Requires = append(p.Requires, rs...)
	if declares {
		p.Sources = append(p.Sources, file)
	}
}

// Declared returns the first requirement with the normalised name key, or nil.
func (p *Project) Declared(key string) *Requirement {
	for i := range p.Requires {
		if p.Requires[i].Key == key {
			return &p.Requires[i]
		}
	}
	return nil
}

// requirementFiles lists dir's requirements*.txt and the *.txt of dir/requirements/,
// sorted.
func requirementFiles(fsys fs.FS, dir string) []string {
	var out []string
	a, _ := fs.Glob(fsys, path.Join(globEscape(dir), "requirements*.txt"))
	b, _ := fs.Glob(fsys, path.Join(globEscape(dir), "requirements", "*.txt"))
	out = append(append(out, a...), b...)
	sort.Strings(out)
	return out
}

func globEscape(s string) string {
	r := strings.NewReplacer(`*`, `\*`, `?`, `\?`, `[`, `\[`, `\`, `\\`)
	return r.Replace(s)
}

// setupCfg reads [options] install_requires and [options.extras_require] of a
// setup.cfg: the values, one requirement a line.
func setupCfg(name, s string) []Requirement {
	var out []Requirement
	section, inList := "", false
	for i, line := range strings.Split(s, "\n") {
		t := strings.TrimSpace(stripComment(line))
		switch {
		case strings.HasPrefix(t, "["):
			section, inList = strings.Trim(t, "[]"), false
			continue
		case t == "":
			continue
		}
		indented := line[0] == ' ' || line[0] == '\t'
		if !indented {
			k, v, _ := strings.Cut(t, "=")
			k = strings.TrimSpace(k)
			inList = section == "options" && k == "install_requires" || section == "options.extras_require"
			t = strings.TrimSpace(v)
		}
		if inList && t != "" {
			if n, err := parseRequirement(t); err == nil && n != "" {
				out = append(out, newRequirement(n, t, name, i+1))
			}
		}
	}
	return out
}

var stringLiteral = lazyregexp.New(`["']([A-Za-z0-9][A-Za-z0-9._-]*(?:\[[^\]'"]*\])?\s*(?:[<>=!~;@][^'"]*)?)["']`)

// setupPy returns the string literals of a setup.py that read as requirements.
func setupPy(name, s string) []Requirement {
	var out []Requirement
	for i, line := range strings.Split(s, "\n") {
		for _, m := range stringLiteral.FindAllStringSubmatch(line, -1) {
			if n, err := parseRequirement(m[1]); err == nil && n != "" {
				out = append(out, newRequirement(n, m[1], name, i+1))
			}
		}
	}
	return out
}
