package npm

import (
	"encoding/json"
	"io/fs"
	"path"
	"strings"

	"github.com/agentverify/agentverify/lang/typescript/syntax"
)

// Exports is what a package's JavaScript entry exports, read from its source (never
// run): ESM export statements, CommonJS `module.exports = { … }`, `exports.x = …`,
// `Object.defineProperty(exports, "x", …)` and the re-exports compilers emit, relative
// ones followed.
type Exports struct {
	// Entry is the slash path of the entry file read.
	Entry string
	// Names are the exported names ("default" for a default export).
	Names map[string]bool
	// CommonJS is set when the entry is CommonJS: a default import is then the exports
	// object, whose members are Names.
	CommonJS bool
	// Open is set when the exports cannot be listed (module.exports replaced by a
	// function or computed value, a re-export of a package, a computed name): no name
	// may then be called missing.
	Open bool
}

// Typed reports whether the package at dir (slash path in fsys) ships type
// declarations, or node_modules above it has its @types package: the compiler then
// knows its exports.
func Typed(fsys fs.FS, dir string, m *Manifest) bool {
	if m.Types != "" || strings.Contains(string(m.Exports), `"types"`) {
		return true
	}
	main := strings.TrimSuffix(strings.TrimSuffix(m.Main, ".js"), ".cjs")
	for _, p := range []string{"index.d.ts", main + ".d.ts"} {
		if main != "" || p == "index.d.ts" {
			if _, err := fs.Stat(fsys, path.Join(dir, p)); err == nil {
				return true
			}
		}
	}
	return false
}

// ReadExports reads the exports of the package whose manifest is m (in fsys).
func ReadExports(fsys fs.FS, m *Manifest) *Exports {
	entry := entryFile(fsys, m)
	if entry == "" {
		return &Exports{Open: true}
	}
	x := &Exports{Entry: entry, Names: map[string]bool{}}
	x.read(fsys, entry, map[string]bool{})
	return x
}

// FileExports reads the exports of the JavaScript file at p (a slash path in fsys), its
// relative re-exports followed: what a module of the project really exports, against
// which a declaration file beside it is weighed.
func FileExports(fsys fs.FS, p string) *Exports {
	x := &Exports{Entry: p, Names: map[string]bool{}}
	x.read(fsys, p, map[string]bool{})
	return x
}

// entryFile is the file require() or import would load: exports' "." (require,
// import, node, default conditions), main, index.js.
func entryFile(fsys fs.FS, m *Manifest) string {
	var cands []string
	if len(m.Exports) > 0 {
		cands = append(cands, dotExport(m.Exports)...)
	}
	if m.Main != "" {
		cands = append(cands, m.Main, m.Main+".js", path.Join(m.Main, "index.js"))
	}
	cands = append(cands, "index.js")
	for _, c := range cands {
		p := path.Clean(path.Join(m.Dir, c))
		if st, err := fs.Stat(fsys, p); err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// Entries returns the files a manifest names as its entry, declarations first: types,
// exports["."] by condition (types, import, require, node, default), module, main.
func Entries(m *Manifest) []string {
	out := append([]string{m.Types}, dotExport(m.Exports, "types", "import", "require", "node", "default")...)
	return append(out, m.Module, m.Main)
}

// dotExport returns the targets of exports["."] (or exports itself) under the
// conditions conds, in their order (require, node, import, default when none given).
func dotExport(raw json.RawMessage, conds ...string) []string {
	if len(conds) == 0 {
		conds = []string{"require", "node", "import", "default"}
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	if m, ok := v.(map[string]any); ok {
		if dot, ok := m["."]; ok {
			v = dot
		}
	}
	var out []string
	var walk func(any)
	walk = func(x any) {
		switch e := x.(type) {
		case string:
			out = append(out, e)
		case map[string]any:
			for _, k := range conds {
				if y, ok := e[k]; ok {
					walk(y)
				}
			}
		case []any:
			for _, y := range e {
				walk(y)
			}
		}
	}
	walk(v)
	return out
}

// read adds the exports of the file at p.
func (x *Exports) read(fsys fs.FS, p string, seen map[string]bool) {
	if seen[p] || len(seen) > 32 {
		x.Open = x.Open || len(seen) > 32
		return
	}
	seen[p] = true
	src, err := fs.ReadFile(fsys, p)
	if err != nil {
		x.Open = true
		return
	}
	tree, err := syntax.Parse(syntax.TSX, src)
	if err != nil || len(tree.Errors) > 0 {
		x.Open = true
		return
	}
	for _, st := range tree.Root.Children {
		switch st.Kind {
		case "export_statement":
			x.esm(fsys, p, st, src, seen)
		case "expression_statement":
			x.commonJS(fsys, p, st, src, seen)
		}
	}
}

// esm adds an export statement's names.
func (x *Exports) esm(fsys fs.FS, p string, st *syntax.Node, src []byte, seen map[string]bool) {
	if source := st.Child("source"); source != nil {
		if st.OfKind("export_clause") == nil { // export * from
			x.follow(fsys, p, strings.Trim(source.Text(src), `"'`), seen)
			return
		}
	}
	if st.Child("value") != nil || st.OfKind("default") != nil {
		x.Names["default"] = true
	}
	if d := st.Child("declaration"); d != nil {
		if n := d.Child("name"); n != nil {
			x.Names[n.Text(src)] = true
		}
		for _, vd := range d.NamedChildren() {
			if n := vd.Child("name"); vd.Kind == "variable_declarator" && n != nil && n.Kind == "identifier" {
				x.Names[n.Text(src)] = true
			} else if vd.Kind == "variable_declarator" {
				x.Open = true // destructured exports
			}
		}
	}
	for _, spec := range st.OfKind("export_clause").NamedChildren() {
		name := spec.Child("alias")
		if name == nil {
			name = spec.Child("name")
		}
		if name != nil {
			x.Names[strings.Trim(name.Text(src), `"'`)] = true
		}
	}
}

// commonJS adds what a top-level CommonJS statement exports.
func (x *Exports) commonJS(fsys fs.FS, p string, st *syntax.Node, src []byte, seen map[string]bool) {
	e := st.NamedChildren()
	if len(e) == 0 {
		return
	}
	switch e[0].Kind {
	case "assignment_expression":
		x.assignment(fsys, p, e[0], src, seen)
	case "call_expression":
		x.call(fsys, p, e[0], src, seen)
	}
}

// assignment reads `exports.a = exports.b = …`, `module.exports = {…}` and the like.
func (x *Exports) assignment(fsys fs.FS, p string, as *syntax.Node, src []byte, seen map[string]bool) {
	for as != nil && as.Kind == "assignment_expression" {
		left := as.Child("left").Text(src)
		right := as.Child("right")
		switch {
		case left == "module.exports" || left == "exports":
			x.CommonJS = true
			x.replaced(fsys, p, right, src, seen)
		case strings.HasPrefix(left, "exports.") || strings.HasPrefix(left, "module.exports."):
			x.CommonJS = true
			name := left[strings.LastIndex(left, ".")+1:]
			if !strings.Contains(strings.TrimPrefix(strings.TrimPrefix(left, "module."), "exports."), ".") {
				x.Names[name] = true
			}
		case strings.HasPrefix(left, "exports[") || strings.HasPrefix(left, "module.exports["):
			x.Open = true
		}
		as = right
	}
}

// replaced reads the value module.exports is set to.
func (x *Exports) replaced(fsys fs.FS, p string, v *syntax.Node, src []byte, seen map[string]bool) {
	switch {
	case v == nil:
	case v.Kind == "object":
		for _, prop := range v.NamedChildren() {
			switch prop.Kind {
			case "shorthand_property_identifier":
				x.Names[prop.Text(src)] = true
			case "pair", "method_definition":
				key := prop.Child("key")
				if key == nil {
					key = prop.Child("name")
				}
				if key == nil || key.Kind == "computed_property_name" {
					x.Open = true
					continue
				}
				x.Names[strings.Trim(key.Text(src), `"'`)] = true
			case "spread_element":
				x.Open = true
			}
		}
	case v.Kind == "call_expression" && v.Child("function").Text(src) == "require":
		if args := v.Child("arguments").NamedChildren(); len(args) == 1 && args[0].Kind == "string" {
			x.follow(fsys, p, strings.Trim(args[0].Text(src), `"'`), seen)
			return
		}
		x.Open = true
	case v.Kind == "assignment_expression":
		// module.exports = exports = X: handled by the caller's chain
	default:
		x.Open = true // a function, a class, a computed value: its members are unknown
	}
}

// call reads Object.defineProperty(exports, "x", …) and the re-export helpers of
// compiled modules: __exportStar(require("./m"), exports), __export(require("./m")).
func (x *Exports) call(fsys fs.FS, p string, c *syntax.Node, src []byte, seen map[string]bool) {
	fn := c.Child("function").Text(src)
	args := c.Child("arguments").NamedChildren()
	onExports := len(args) > 0 && (args[0].Text(src) == "exports" || args[0].Text(src) == "module.exports")
	switch {
	case fn == "Object.defineProperty" && onExports && len(args) >= 2:
		x.CommonJS = true
		x.defined(args[1], src)
	case strings.HasSuffix(fn, "__exportStar") || strings.HasSuffix(fn, "__export"):
		x.CommonJS = true
		if spec := requireOf(args, src); spec != "" {
			x.follow(fsys, p, spec, seen)
			return
		}
		x.Open = true
	case fn == "Object.assign" && onExports:
		x.Open = true
	}
}

// defined adds the name Object.defineProperty(exports, name, …) defines.
func (x *Exports) defined(name *syntax.Node, src []byte) {
	if name.Kind != "string" {
		x.Open = true
		return
	}
	if n := strings.Trim(name.Text(src), `"'`); n != "__esModule" {
		x.Names[n] = true
	}
}

// requireOf returns m of a first argument require("m"), "" otherwise.
func requireOf(args []*syntax.Node, src []byte) string {
	if len(args) == 0 || args[0].Kind != "call_expression" {
		return ""
	}
	if a := args[0].Child("arguments").NamedChildren(); len(a) == 1 && a[0].Kind == "string" {
		return strings.Trim(a[0].Text(src), `"'`)
	}
	return ""
}

// follow reads a re-exported module: a relative one is read, anything else opens.
func (x *Exports) follow(fsys fs.FS, from, spec string, seen map[string]bool) {
	if !strings.HasPrefix(spec, ".") {
		x.Open = true
		return
	}
	base := path.Clean(path.Join(path.Dir(from), spec))
	for _, c := range []string{base, base + ".js", base + ".cjs", base + ".mjs", path.Join(base, "index.js")} {
		if st, err := fs.Stat(fsys, c); err == nil && st.Mode().IsRegular() {
			x.read(fsys, c, seen)
			return
		}
	}
	x.Open = true
}
