package pydeps

import (
	"bytes"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// Script is the inline metadata of a single-file script (PEP 723): a `# /// script`
// comment block holding TOML with the Python versions and the dependencies the script
// needs. Such a script is its own project: tools like uv and pipx run it in an
// environment made from this block, not from the surrounding project's declarations.
type Script struct {
	// RequiresPython is the block's requires-python, "" when it has none.
	RequiresPython string
	// Project holds the script's declared dependencies; Dir is the script's directory
	// and Sources the script itself.
	Project *Project
}

// ParseScript returns the inline metadata of the script at name (slash-separated,
// repository-relative), or nil when src has no `# /// script` block. A block that is not
// TOML is an error naming the script's line, as a tool running the script would refuse it.
func ParseScript(name string, src []byte) (*Script, error) {
	if !bytes.Contains(src, []byte("# /// script")) {
		return nil, nil // most files: no block, and no copy of the source split in lines
	}
	lines := strings.Split(string(src), "\n")
	start := -1
	var body []string
	for i, l := range lines {
		l = strings.TrimRight(l, "\r")
		switch {
		case start < 0 && l == "# /// script":
			start = i
		case start >= 0 && l == "# ///":
			return parseScriptBlock(name, start, body)
		case start >= 0 && (l == "#" || strings.HasPrefix(l, "# ")):
			body = append(body, strings.TrimPrefix(strings.TrimPrefix(l, "#"), " "))
		case start >= 0:
			return nil, nil // not a metadata block after all: PEP 723 needs every line commented
		}
	}
	return nil, nil
}

func parseScriptBlock(name string, start int, body []string) (*Script, error) {
	var raw struct {
		RequiresPython string   `toml:"requires-python"`
		Dependencies   []string `toml:"dependencies"`
	}
	data := strings.Join(body, "\n")
	if err := toml.Unmarshal([]byte(data), &raw); err != nil {
		line := start + 2
		if de, ok := err.(*toml.DecodeError); ok {
			row, _ := de.Position()
			line = start + 1 + row
		}
		return nil, &DeclError{File: name, Line: line, Msg: "inline script metadata: " + oneLine(err.Error())}
	}
	dir := "."
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		dir = name[:i]
	}
	s := &Script{RequiresPython: raw.RequiresPython, Project: &Project{Dir: dir, Sources: []string{name}}}
	lines := newLiteralLines(data)
	for _, spec := range raw.Dependencies {
		n, err := parseRequirement(strings.TrimSpace(spec))
		if err != nil {
			return nil, declErr(name, start+1+lines.find(spec), "%v", err)
		}
		if n != "" {
			s.Project.Requires = append(s.Project.Requires, newRequirement(n, spec, name, start+1+lines.find(spec)))
		}
	}
	return s, nil
}
