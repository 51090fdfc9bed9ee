package pydeps

import (
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// pyproject is the part of pyproject.toml that declares dependencies.
type pyproject struct {
	Project struct {
		Name                 string              `toml:"name"`
		Dependencies         []string            `toml:"dependencies"`
		OptionalDependencies map[string][]string `toml:"optional-dependencies"`
		Dynamic              []string            `toml:"dynamic"`
	} `toml:"project"`
	// DependencyGroups (PEP 735) hold strings and {include-group = "..."} tables.
	DependencyGroups map[string][]any `toml:"dependency-groups"`
	Tool             struct {
		Poetry struct {
			Name            string         `toml:"name"`
			Dependencies    map[string]any `toml:"dependencies"`
			DevDependencies map[string]any `toml:"dev-dependencies"`
			Group           map[string]struct {
				Dependencies map[string]any `toml:"dependencies"`
			} `toml:"group"`
		} `toml:"poetry"`
	} `toml:"tool"`
}

// Pyproject is what a pyproject.toml says about the project's dependencies.
type Pyproject struct {
	// Name is the project's own distribution name, if it declares one.
	Name string
	// Requires are the declared dependencies: [project.dependencies],
	// [project.optional-dependencies], [dependency-groups], and Poetry's dependencies,
	// dev-dependencies and groups.
	Requires []Requirement
	// Dynamic is set when [project] lists dependencies as dynamic: the build backend
	// computes them (from setup.py or a requirements file).
	Dynamic bool
}

// ParsePyproject parses the pyproject.toml at name (strict TOML 1.0: a file pip would
// refuse is an error naming it).
func ParsePyproject(name string, data []byte) (*Pyproject, error) {
	var raw pyproject
	if err := toml.Unmarshal(data, &raw); err != nil {
		if de, ok := err.(*toml.DecodeError); ok {
			row, col := de.Position()
			return nil, &DeclError{File: name, Line: row, Column: col, Msg: oneLine(de.Error())}
		}
		return nil, &DeclError{File: name, Line: 1, Msg: oneLine(err.Error())}
	}
	out := &Pyproject{Name: raw.Project.Name}
	if out.Name == "" {
		out.Name = raw.Tool.Poetry.Name
	}
	for _, d := range raw.Project.Dynamic {
		out.Dynamic = out.Dynamic || d == "dependencies" || d == "optional-dependencies"
	}
	lines := newLiteralLines(string(data))
	for _, spec := range raw.specs() {
		n, err := parseRequirement(strings.TrimSpace(spec))
		if err != nil {
			return nil, declErr(name, lines.find(spec), "%v", err)
		}
		if n != "" {
			out.Requires = append(out.Requires, newRequirement(n, spec, name, lines.find(spec)))
		}
	}
	poetry := raw.Tool.Poetry
	tables := []map[string]any{poetry.Dependencies, poetry.DevDependencies}
	for _, k := range sortedKeys(poetry.Group) {
		tables = append(tables, poetry.Group[k].Dependencies)
	}
	for _, deps := range tables {
		for _, n := range sortedKeys(deps) {
			if Normalize(n) != "python" {
				out.Requires = append(out.Requires, Requirement{Name: n, Key: Normalize(n), File: name, Line: lines.key(n), Conditional: poetryConditional(deps[n])})
			}
		}
	}
	return out, nil
}

// oneLine makes a decoder's message one line: it may quote a raw newline of the input.
func oneLine(s string) string {
	return strings.NewReplacer("\r", `\r`, "\n", `\n`).Replace(strings.TrimSpace(s))
}

// specs returns the PEP 508 requirement strings of [project] and [dependency-groups].
func (raw *pyproject) specs() []string {
	var specs []string
	specs = append(specs, raw.Project.Dependencies...)
	for _, k := range sortedKeys(raw.Project.OptionalDependencies) {
		specs = append(specs, raw.Project.OptionalDependencies[k]...)
	}
	for _, k := range sortedKeys(raw.DependencyGroups) {
		for _, v := range raw.DependencyGroups[k] {
			if s, ok := v.(string); ok {
				specs = append(specs, s) // {include-group} tables repeat other groups
			}
		}
	}
	return specs
}

// poetryConditional reports whether a Poetry dependency's table limits where it is
// installed (markers, platform, python, optional, or a list of alternatives).
func poetryConditional(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		_, m := t["markers"]
		_, p := t["platform"]
		_, py := t["python"]
		opt, _ := t["optional"].(bool)
		return m || p || py || opt
	case []any:
		return true
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// literalLines finds the line a string or key is written on, for positions: the TOML
// decoder keeps none.
type literalLines struct{ lines []string }

func newLiteralLines(s string) literalLines { return literalLines{strings.Split(s, "\n")} }

// find returns the first line holding s as a quoted string, or 1.
func (l literalLines) find(s string) int {
	for i, line := range l.lines {
		if strings.Contains(line, `"`+s+`"`) || strings.Contains(line, `'`+s+`'`) {
			return i + 1
		}
	}
	return 1
}

// key returns the first line that starts with key k (bare or quoted), or 1.
func (l literalLines) key(k string) int {
	for i, line := range l.lines {
		t := strings.TrimSpace(line)
		for _, p := range []string{k, `"` + k + `"`, `'` + k + `'`} {
			if rest, ok := strings.CutPrefix(t, p); ok && strings.HasPrefix(strings.TrimSpace(rest), "=") {
				return i + 1
			}
		}
	}
	return 1
}
