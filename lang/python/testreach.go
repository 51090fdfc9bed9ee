package python

import (
	"bufio"
	"bytes"
	"io/fs"
	"path"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/agentverify/agentverify/change"
)

// StillRuns implements lang.TestReach: when the project's pytest configuration at the
// head names testpaths (pyproject.toml's [tool.pytest.ini_options], pytest.ini, tox.ini
// or setup.cfg), a plain `pytest` collects only under them, so a test file moved out of
// every one of them, from inside one, is no longer run. Without testpaths pytest collects
// from the root and a move keeps its tests.
func (frontend) StillRuns(changes *change.Set, from, to string) bool {
	if changes == nil || changes.HeadFS == nil {
		return true
	}
	paths := pytestPaths(changes.HeadFS)
	return len(paths) == 0 || under(to, paths) || !under(from, paths)
}

// under reports whether file lies in one of the directories dirs, which may be glob
// patterns (pytest expands testpaths as globs).
func under(file string, dirs []string) bool {
	for _, d := range dirs {
		d = path.Clean(d)
		if d == "." || file == d || strings.HasPrefix(file, d+"/") {
			return true
		}
		if strings.ContainsAny(d, "*?[") {
			for dir := path.Dir(file); dir != "." && dir != "/"; dir = path.Dir(dir) {
				if ok, _ := path.Match(d, dir); ok {
					return true
				}
			}
		}
	}
	return false
}

// pytestPaths returns the testpaths of the first pytest configuration file pytest would
// read at the root of fsys (pytest.ini, pyproject.toml, tox.ini, setup.cfg, in its order).
func pytestPaths(fsys fs.FS) []string {
	if data, err := fs.ReadFile(fsys, "pytest.ini"); err == nil {
		paths, _ := iniTestPaths(data, "pytest")
		return paths
	}
	if data, err := fs.ReadFile(fsys, "pyproject.toml"); err == nil {
		var doc struct {
			Tool struct {
				Pytest *struct {
					Ini struct {
						TestPaths any `toml:"testpaths"`
					} `toml:"ini_options"`
				} `toml:"pytest"`
			} `toml:"tool"`
		}
		if toml.Unmarshal(data, &doc) == nil && doc.Tool.Pytest != nil {
			return stringsOf(doc.Tool.Pytest.Ini.TestPaths)
		}
	}
	for _, c := range []struct{ file, section string }{{"tox.ini", "pytest"}, {"setup.cfg", "tool:pytest"}} {
		if data, err := fs.ReadFile(fsys, c.file); err == nil {
			if paths, ok := iniTestPaths(data, c.section); ok {
				return paths
			}
		}
	}
	return nil
}

// stringsOf returns testpaths as a list: TOML allows an array or one string.
func stringsOf(v any) []string {
	switch v := v.(type) {
	case string:
		return strings.Fields(v)
	case []any:
		var out []string
		for _, e := range v {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// iniTestPaths reads testpaths from section of an ini file (its value may continue on
// indented lines); ok says whether the section exists.
func iniTestPaths(data []byte, section string) (paths []string, ok bool) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	in, reading := false, false
	for sc.Scan() {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "[") && strings.HasSuffix(trimmed, "]"):
			in, reading = strings.TrimSpace(trimmed[1:len(trimmed)-1]) == section, false
			ok = ok || in
		case !in || trimmed == "" || strings.HasPrefix(trimmed, "#") || strings.HasPrefix(trimmed, ";"):
		case reading && (line[0] == ' ' || line[0] == '\t'):
			paths = append(paths, strings.Fields(trimmed)...)
		default:
			key, value, _ := strings.Cut(trimmed, "=")
			reading = strings.TrimSpace(key) == "testpaths"
			if reading {
				paths = append(paths, strings.Fields(value)...)
			}
		}
	}
	return paths, ok
}
