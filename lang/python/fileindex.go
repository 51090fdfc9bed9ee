package python

import (
	"regexp"
	"strings"

	"github.com/agentverify/agentverify/lang"
)

// fileIndex is what the resolver's own checks need to know about one file: what its
// imports bind, where the code guards itself, the names it mentions.
type fileIndex struct {
	// modules maps a local name bound by `import m` / `import m as n` to the module it
	// names; objects maps a name bound by `from m import x` to "m.x".
	modules, objects map[string]string
	imports          []importSite
	importLines      map[int]bool
	// guards are the line ranges of code that runs only where what it uses exists.
	guards []lineRange
	// names are the identifiers the file mentions; defs the functions and classes it
	// defines (at any depth).
	names, defs map[string]bool
}

type lineRange struct{ from, to int }

// importSite is one imported module, or one name imported from a module.
type importSite struct {
	module string // absolute dotted name; "" for a relative import
	name   string // the imported name of a from-import, "" for `import m`
	pos    lang.Pos
}

func indexFile(root *node, src []byte) *fileIndex {
	x := &fileIndex{
		modules: map[string]string{}, objects: map[string]string{}, importLines: map[int]bool{},
		names: map[string]bool{}, defs: map[string]bool{},
	}
	root.walk(func(n *node) bool {
		switch n.kind {
		case "identifier":
			x.names[n.text(src)] = true
		case "function_definition", "class_definition":
			x.defs[n.child("name").text(src)] = true
		case "import_statement":
			x.importStatement(n, src)
		case "import_from_statement":
			x.importFrom(n, src)
		case "try_statement":
			if catchesImportError(n, src) {
				if b := n.child("body"); b != nil {
					x.guards = append(x.guards, lineRange{b.pos.Line, b.endPos.Line})
				}
				x.fallbacks(n)
			}
		case "if_statement":
			if guardCondition.MatchString(n.child("condition").text(src)) {
				x.guards = append(x.guards, lineRange{n.pos.Line, n.endPos.Line})
			}
		case "decorated_definition":
			for _, g := range skipGuard(n, src, nil) { // a test skipped on other Pythons
				x.guards = append(x.guards, lineRange{g.from, g.to})
			}
		}
		return true
	})
	return x
}

// fallbacks guards the ImportError handlers of a try: the import there is the fallback
// for another Python (import dummy_threading as threading where threading is missing).
func (x *fileIndex) fallbacks(try *node) {
	for _, c := range try.children {
		if c.kind == "except_clause" {
			x.guards = append(x.guards, lineRange{c.pos.Line, c.endPos.Line})
		}
	}
}

// guardCondition matches the conditions under which code is for some Pythons only.
var guardCondition = regexp.MustCompile(`\bversion_info\b|\bsys\.platform\b|\bplatform\.system\b|\bhasattr\s*\(|\bPY\d+\b|\b_?(?:IS_)?PY(?:THON)?_3_?\d+\w*\b`)

// catchesImportError reports whether one of the try's handlers catches a failed import.
func catchesImportError(try *node, src []byte) bool {
	for _, c := range try.children {
		if c.kind != "except_clause" {
			continue
		}
		header := c.text(src)
		if i := strings.IndexByte(header, ':'); i >= 0 {
			header = header[:i]
		}
		header = strings.TrimSpace(header)
		if header == "except" || strings.Contains(header, "ImportError") ||
			strings.Contains(header, "ModuleNotFoundError") || strings.Contains(header, "Exception") {
			return true
		}
	}
	return false
}

func (x *fileIndex) importStatement(n *node, src []byte) {
	x.importLines[n.pos.Line] = true
	for _, c := range n.children {
		if c.field != "name" {
			continue
		}
		switch c.kind {
		case "dotted_name":
			mod := c.text(src)
			first, _, _ := strings.Cut(mod, ".")
			x.modules[first] = first
			x.imports = append(x.imports, importSite{module: mod, pos: c.pos})
		case "aliased_import":
			mod := c.child("name").text(src)
			x.modules[c.child("alias").text(src)] = mod
			x.imports = append(x.imports, importSite{module: mod, pos: c.pos})
		}
	}
}

func (x *fileIndex) importFrom(n *node, src []byte) {
	x.importLines[n.pos.Line] = true
	modNode := n.child("module_name")
	mod := modNode.text(src)
	if modNode == nil || modNode.kind == "relative_import" {
		mod = ""
	} else {
		x.imports = append(x.imports, importSite{module: mod, pos: modNode.pos})
	}
	for _, c := range n.children {
		if c.field != "name" {
			continue
		}
		name, local := c.text(src), c.text(src)
		if c.kind == "aliased_import" {
			name, local = c.child("name").text(src), c.child("alias").text(src)
		}
		if mod != "" {
			x.objects[local] = mod + "." + name
			x.imports = append(x.imports, importSite{module: mod, name: name, pos: c.pos})
		}
	}
}

// guarded reports whether line is in code guarded by a version, platform or feature test
// or a try that catches ImportError.
func (x *fileIndex) guarded(line int) bool {
	for _, g := range x.guards {
		if line >= g.from && line <= g.to {
			return true
		}
	}
	return false
}

// qualified returns the dotted name an expression such as `json.dumps` or `dumps`
// refers to through the file's imports ("json.dumps"), or "".
func (x *fileIndex) qualified(expr string) string {
	head, rest, dotted := strings.Cut(expr, ".")
	if m, ok := x.modules[head]; ok && dotted {
		return m + "." + rest
	}
	if o, ok := x.objects[head]; ok {
		if dotted {
			return o + "." + rest
		}
		return o
	}
	return ""
}
