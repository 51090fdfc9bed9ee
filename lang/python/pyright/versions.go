package pyright

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Stdlib is typeshed's record of the standard library's modules: stdlib/VERSIONS, which
// says in which Python version each module appeared (and, for removed ones, the last
// version that had it).
type Stdlib struct {
	dir     string
	modules map[string]span
}

type span struct{ from, to string }

// Stdlib reads the typeshed bundled with t.
func (t *Tool) Stdlib() (*Stdlib, error) {
	if t.Typeshed == "" {
		return nil, fmt.Errorf("pyright at %s bundles no typeshed (no dist/typeshed-fallback/stdlib/VERSIONS next to it)", t.CLI)
	}
	dir := filepath.Join(t.Typeshed, "stdlib")
	data, err := os.ReadFile(filepath.Join(dir, "VERSIONS"))
	if err != nil {
		return nil, err
	}
	mods, err := parseVersions(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "VERSIONS"), err)
	}
	return &Stdlib{dir: dir, modules: mods}, nil
}

// parseVersions reads lines "module: 3.9-" or "module: 3.0-3.11", with # comments.
func parseVersions(data []byte) (map[string]span, error) {
	mods := map[string]span{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		mod, rng, ok := strings.Cut(line, ":")
		from, to, ok2 := strings.Cut(strings.TrimSpace(rng), "-")
		if !ok || !ok2 || from == "" {
			return nil, fmt.Errorf("line %d: want \"module: X.Y-[X.Y]\", have %q", n, line)
		}
		mods[strings.TrimSpace(mod)] = span{from: from, to: to}
	}
	return mods, sc.Err()
}

// Since returns the version that added module (dotted) to the standard library and
// whether it is a standard-library module at all; a submodule not listed itself has its
// closest listed parent's version.
func (s *Stdlib) Since(module string) (string, bool) {
	for m := module; m != ""; {
		if sp, ok := s.modules[m]; ok {
			return sp.from, true
		}
		i := strings.LastIndexByte(m, '.')
		if i < 0 {
			break
		}
		m = m[:i]
	}
	return "", false
}

// Stub returns the path of the stub file of a standard-library module, "" when there is
// none.
func (s *Stdlib) Stub(module string) string {
	base := filepath.Join(s.dir, filepath.FromSlash(strings.ReplaceAll(module, ".", "/")))
	for _, p := range []string{base + ".pyi", filepath.Join(base, "__init__.pyi")} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// Modules returns the top-level standard-library modules that exist in Python version
// v ("3.12"): added by then and not yet removed.
func (s *Stdlib) Modules(v string) []string {
	var out []string
	for m, sp := range s.modules {
		if strings.Contains(m, ".") || Less(v, sp.from) || sp.to != "" && Less(sp.to, v) {
			continue
		}
		out = append(out, m)
	}
	return out
}
