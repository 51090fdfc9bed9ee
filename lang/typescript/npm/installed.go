package npm

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io/fs"
	"path"
	"strings"

	"github.com/agentverify/agentverify/lazyregexp"
)

// Installed reports whether package name is installed where Node would find it from a
// file in dir: node_modules/name in dir or a directory above it (fsys is the disk).
func Installed(fsys fs.FS, dir, name string) bool { return InstalledDir(fsys, dir, name) != "" }

// InstalledDir returns the directory (slash path in fsys) where Node finds package name
// from a file in dir, "" when it is not installed.
func InstalledDir(fsys fs.FS, dir, name string) string {
	for d := dir; ; d = path.Dir(d) {
		p := path.Join(d, "node_modules", name)
		if st, err := fs.Stat(fsys, p); err == nil && st.IsDir() {
			return p
		}
		if d == "." || d == "/" {
			return ""
		}
	}
}

// Lockfiles are the lock files a project may have, by package manager.
var Lockfiles = []string{"package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock"}

// Locked returns the package names the lock file at p (slash path in fsys) pins, nil
// when there is none or it does not read.
func Locked(fsys fs.FS, p string) map[string]bool {
	data, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil
	}
	switch path.Base(p) {
	case "package-lock.json", "npm-shrinkwrap.json":
		return npmLocked(data)
	case "yarn.lock":
		return lineLocked(data, yarnEntry)
	case "pnpm-lock.yaml":
		return lineLocked(data, pnpmEntry)
	case "bun.lock":
		return lineLocked(data, bunEntry)
	}
	return nil
}

// npmLocked reads package-lock.json (v2/v3 "packages", v1 "dependencies").
func npmLocked(data []byte) map[string]bool {
	var lock struct {
		Packages     map[string]json.RawMessage `json:"packages"`
		Dependencies map[string]json.RawMessage `json:"dependencies"`
	}
	if json.Unmarshal(data, &lock) != nil {
		return nil
	}
	out := map[string]bool{}
	for k := range lock.Packages {
		if i := strings.LastIndex(k, "node_modules/"); i >= 0 {
			out[k[i+len("node_modules/"):]] = true
		}
	}
	for k := range lock.Dependencies {
		out[k] = true
	}
	return out
}

var (
	// yarnEntry: `lodash@^4.17.21:`, `"@babel/core@^7.0.0", "@babel/core@^7.1.0":`,
	// `"lodash@npm:^4.17.21":` (berry).
	yarnEntry = lazyregexp.New(`^"?(@?[^@"\s]+)@`)
	// pnpmEntry: `  /lodash@4.17.21:`, `  lodash@4.17.21:`, `  '@babel/core@7.0.0':`, and
	// importers' `      lodash:`.
	pnpmEntry = lazyregexp.New(`^\s+['"]?/?(@?[^@'"\s:/]+(?:/[^@'"\s:]+)?)(?:@|['"]?:)`)
	// bunEntry: `    "lodash": ["lodash@4.17.21", …]`.
	bunEntry = lazyregexp.New(`^\s+"(@?[^@"\s]+)": \[`)
)

// lineLocked collects the package names of a line-oriented lock file.
func lineLocked(data []byte, entry *lazyregexp.Regexp) map[string]bool {
	out := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		for _, part := range strings.Split(sc.Text(), ", ") {
			if m := entry.FindStringSubmatch(part); m != nil && validName(m[1]) {
				out[m[1]] = true
			}
		}
	}
	return out
}
