package npm

import (
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/agentverify/agentverify/lazyregexp"
)

// Version is a Node version (major, minor, patch).
type Version [3]int

// String writes v as Node does ("v20.12.0").
func (v Version) String() string {
	return "v" + strconv.Itoa(v[0]) + "." + strconv.Itoa(v[1]) + "." + strconv.Itoa(v[2])
}

// Less reports whether v comes before w.
func (v Version) Less(w Version) bool {
	for i := range v {
		if v[i] != w[i] {
			return v[i] < w[i]
		}
	}
	return false
}

// ParseVersion reads "v20.12.0", "18.17", "20" or "20.x" (missing or wild parts 0).
func ParseVersion(s string) (Version, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	parts := strings.SplitN(s, ".", 3)
	var v Version
	for i, p := range parts {
		if p == "x" || p == "X" || p == "*" {
			break
		}
		if j := strings.IndexAny(p, "-+"); j >= 0 {
			p = p[:j] // a prerelease or build tag
		}
		n, err := strconv.Atoi(p)
		if err != nil {
			return Version{}, false
		}
		v[i] = n
	}
	return v, true
}

// MinVersion returns the lowest version a semver range admits (">=18", "^20.9.0",
// "18.x || >=20", "16.14 - 18"), false when it admits any or cannot be read.
func MinVersion(rng string) (Version, bool) {
	var best Version
	found := false
	for _, alt := range strings.Split(rng, "||") {
		v, ok := lowerBound(alt)
		if !ok {
			return Version{}, false // one alternative without a floor: no floor
		}
		if !found || v.Less(best) {
			best, found = v, true
		}
	}
	return best, found
}

// lowerBound is one alternative's floor: its first comparator that is not an upper
// bound.
func lowerBound(alt string) (Version, bool) {
	upper := false
	for _, tok := range strings.Fields(alt) {
		switch {
		case tok == "-":
			continue
		case strings.HasPrefix(tok, "<"):
			upper = strings.TrimLeft(tok, "<=") == "" // "< 19": the next token is its version
			continue
		case upper:
			upper = false
			continue
		}
		if strings.TrimLeft(tok, ">=^~") == "" {
			continue // ">= 18": the operator stands alone
		}
		tok = strings.TrimLeft(tok, ">=^~v")
		if tok == "*" || tok == "x" {
			return Version{}, false
		}
		return ParseVersion(tok)
	}
	return Version{}, false
}

// NodeAPIs indexes when each export of Node's built-in modules was added, as the
// @types/node package installed in a tree documents it (`@since v20.12.0` in the JSDoc
// of each declaration).
type NodeAPIs struct {
	fsys fs.FS
	dir  string // the installed @types/node
	mods map[string]map[string][]Version
}

// NewNodeAPIs reads the @types/node installed at dir (slash path in fsys) on demand.
func NewNodeAPIs(fsys fs.FS, dir string) *NodeAPIs {
	return &NodeAPIs{fsys: fsys, dir: dir, mods: map[string]map[string][]Version{}}
}

// declared matches a JSDoc comment and the declaration it documents (inside a declare
// module block every declaration is exported, with or without the keyword).
var declared = lazyregexp.New(`(?s)/\*\*((?:[^*]|\*[^/])*)\*/\s*(?:export\s+)?(?:declare\s+)?(?:function|const|let|var|class|namespace|interface|type|enum|abstract\s+class)\s+([A-Za-z_$][\w$]*)`)

// since matches a @since tag's versions.
var since = lazyregexp.New(`@since\s+(v?\d+(?:\.\d+){0,2}(?:\s*,\s*v?\d+(?:\.\d+){0,2})*)`)

// Since returns the versions in which module mod's export name was added (several
// when it was backported to older release lines), nil when the declarations do not
// say. mod is a built-in module's name without "node:" ("fs", "fs/promises").
func (a *NodeAPIs) Since(mod, name string) []Version {
	idx, ok := a.mods[mod]
	if !ok {
		idx = a.read(mod)
		a.mods[mod] = idx
	}
	return idx[name]
}

// read indexes the declaration file of mod.
func (a *NodeAPIs) read(mod string) map[string][]Version {
	idx := map[string][]Version{}
	data, err := fs.ReadFile(a.fsys, path.Join(a.dir, mod+".d.ts"))
	if err != nil {
		return idx
	}
	for _, m := range declared.FindAllSubmatch(data, -1) {
		s := since.FindSubmatch(m[1])
		if s == nil {
			continue
		}
		name := string(m[2])
		var vs []Version
		for _, part := range strings.Split(string(s[1]), ",") {
			if v, ok := ParseVersion(part); ok {
				vs = append(vs, v)
			}
		}
		if old, ok := idx[name]; !ok || len(vs) > 0 && len(old) > 0 && vs[0].Less(old[0]) {
			idx[name] = vs // overloads: the name exists since its earliest
		}
	}
	return idx
}

// Available reports whether an API added in the versions sinces is in Node floor: in
// floor's release line at or before it, or in an earlier line (and so in every later
// one). With majorOnly, floor stands for its whole release line.
func Available(sinces []Version, floor Version, majorOnly bool) bool {
	if len(sinces) == 0 {
		return true
	}
	earliest := sinces[0]
	for _, s := range sinces {
		if s.Less(earliest) {
			earliest = s
		}
		if s[0] == floor[0] && (majorOnly || !floor.Less(s)) {
			return true
		}
	}
	return earliest[0] < floor[0]
}
