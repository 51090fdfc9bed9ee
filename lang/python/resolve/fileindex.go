package resolve

import (
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/syntax"
	"github.com/agentverify/agentverify/lazyregexp"
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

func indexFile(root *syntax.Node, src []byte) *fileIndex {
	x := &fileIndex{
		modules: map[string]string{}, objects: map[string]string{}, importLines: map[int]bool{},
		names: map[string]bool{}, defs: map[string]bool{},
	}
	root.Walk(func(n *syntax.Node) bool {
		switch n.Kind {
		case "identifier":
			x.names[n.Text(src)] = true
		case "function_definition", "class_definition":
			x.defs[n.Child("name").Text(src)] = true
		case "import_statement":
			x.importStatement(n, src)
		case "import_from_statement":
			x.importFrom(n, src)
		case "try_statement":
			if catchesImportError(n, src) {
				if b := n.Child("body"); b != nil {
					x.guards = append(x.guards, lineRange{b.Pos.Line, b.EndPos.Line})
				}
				x.fallbacks(n)
			}
		case "if_statement":
			if guardCondition.MatchString(n.Child("condition").Text(src)) {
				x.guards = append(x.guards, lineRange{n.Pos.Line, n.EndPos.Line})
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
func (x *fileIndex) fallbacks(try *syntax.Node) {
	for _, c := range try.Children {
		if c.Kind == "except_clause" {
			x.guards = append(x.guards, lineRange{c.Pos.Line, c.EndPos.Line})
		}
	}
}

// guardCondition matches the conditions under which code is for some Pythons only.
var guardCondition = lazyregexp.New(`\bversion_info\b|\bsys\.platform\b|\bplatform\.system\b|\bhasattr\s*\(|\bPY\d+\b|\b_?(?:IS_)?PY(?:THON)?_3_?\d+\w*\b`)

// catchesImportError reports whether one of the try's handlers catches a failed import.
func catchesImportError(try *syntax.Node, src []byte) bool {
	for _, c := range try.Children {
		if c.Kind != "except_clause" {
			continue
		}
		header := c.Text(src)
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

func (x *fileIndex) importStatement(n *syntax.Node, src []byte) {
	x.importLines[n.Pos.Line] = true
	for _, c := range n.Children {
		if c.Field != "name" {
			continue
		}
		switch c.Kind {
		case "dotted_name":
			mod := c.Text(src)
			first, _, _ := strings.Cut(mod, ".")
			x.modules[first] = first
			x.imports = append(x.imports, importSite{module: mod, pos: c.Pos})
		case "aliased_import":
			mod := c.Child("name").Text(src)
			x.modules[c.Child("alias").Text(src)] = mod
			x.imports = append(x.imports, importSite{module: mod, pos: c.Pos})
		}
	}
}

func (x *fileIndex) importFrom(n *syntax.Node, src []byte) {
	x.importLines[n.Pos.Line] = true
	modNode := n.Child("module_name")
	mod := modNode.Text(src)
	if modNode == nil || modNode.Kind == "relative_import" {
		mod = ""
	} else {
		x.imports = append(x.imports, importSite{module: mod, pos: modNode.Pos})
	}
	for _, c := range n.Children {
		if c.Field != "name" {
			continue
		}
		name, local := c.Text(src), c.Text(src)
		if c.Kind == "aliased_import" {
			name, local = c.Child("name").Text(src), c.Child("alias").Text(src)
		}
		if mod != "" {
			x.objects[local] = mod + "." + name
			x.imports = append(x.imports, importSite{module: mod, name: name, pos: c.Pos})
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
