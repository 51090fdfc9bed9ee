package asdf

import (
	"path"
	"strings"

	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

// Dependency is one entry of a :depends-on (or :defsystem-depends-on) list.
type Dependency struct {
	// Name is the system name as ASDF normalises it: a symbol's name in lower case, a
	// string as written.
	Name string
	// Require is set for (:require "module"): an implementation module, not a system.
	Require bool
	Span    reader.Span
}

// Component is a file or module of a system.
type Component struct {
	// Type is the component type keyword in lower case: "file", "module",
	// "static-file", "cl-source-file", …
	Type string
	Name string
	// Path is the component's path relative to the .asd file's directory: a source
	// file's ends in ".lisp", a module's in "/".
	Path       string
	Components []Component
	Span       reader.Span
}

// System is one defsystem form.
type System struct {
	Name string
	// File is the path of the .asd file as given to Parse.
	File string
	// Class is the :class option in upper case, e.g. "PACKAGE-INFERRED-SYSTEM".
	Class              string
	DependsOn          []Dependency
	DefsystemDependsOn []Dependency
	Components         []Component
	Span               reader.Span
}

// ASD is a parsed .asd file.
type ASD struct {
	Path    string
	Systems []System
	// Errors are the file's syntax errors.
	Errors []reader.Error
}

// Parse reads the .asd file at file (whose contents are src) and returns its
// defsystem forms. #+/#- are evaluated against opts' features, :if-feature and
// (:feature …) dependencies too.
func Parse(file string, src []byte, opts reader.Options) *ASD {
	rf := reader.Read(src, opts)
	a := &ASD{Path: file, Errors: rf.Errors}
	p := &parser{features: featureSet(opts), dir: ""}
	for _, f := range rf.Forms {
		if isDefsystem(f.Head()) && len(f.Items) > 1 {
			s := p.system(f)
			s.File = file
			a.Systems = append(a.Systems, s)
		}
	}
	return a
}

// System returns the system named name, or nil.
func (a *ASD) System(name string) *System {
	for i := range a.Systems {
		if a.Systems[i].Name == name {
			return &a.Systems[i]
		}
	}
	return nil
}

func featureSet(opts reader.Options) map[string]bool {
	fs := opts.Features
	if fs == nil {
		fs = reader.DefaultFeatures()
	}
	m := make(map[string]bool, len(fs))
	for _, f := range fs {
		m[f] = true
	}
	return m
}

func isDefsystem(h *reader.Form) bool {
	if h == nil || h.Kind != reader.Symbol || h.Name != "DEFSYSTEM" {
		return false
	}
	switch h.Package {
	case "", "ASDF", "ASDF/DEFSYSTEM", "ASDF/PARSE-DEFSYSTEM", "ASDF-USER":
		return true
	}
	return false
}

type parser struct {
	features map[string]bool
	dir      string
}

// coerceName is ASDF's coerce-name: a symbol's name in lower case, a string as is.
func coerceName(f *reader.Form) string {
	switch f.Kind {
	case reader.Symbol:
		return strings.ToLower(f.Name)
	case reader.String:
		return f.Name
	}
	return ""
}

func (p *parser) system(f *reader.Form) System {
	s := System{Name: coerceName(f.Items[1]), Span: f.Span}
	opts := f.Items[2:]
	base := ""
	if v := option(opts, "PATHNAME"); v != nil && (v.Kind == reader.String || v.Kind == reader.Pathname) {
		base = dirPath(v.Name)
	}
	if v := option(opts, "CLASS"); v != nil && v.Kind == reader.Symbol {
		s.Class = v.Name
	}
	s.DependsOn = p.dependencies(option(opts, "DEPENDS-ON"))
	s.DefsystemDependsOn = p.dependencies(option(opts, "DEFSYSTEM-DEPENDS-ON"))
	s.Components = p.components(option(opts, "COMPONENTS"), base)
	return s
}

// option returns the value of the keyword option :name in a property list.
func option(plist []*reader.Form, name string) *reader.Form {
	for i := 0; i+1 < len(plist); i += 2 {
		if plist[i].IsKeyword(name) {
			return plist[i+1]
		}
	}
	return nil
}

func (p *parser) dependencies(list *reader.Form) []Dependency {
	if list == nil || list.Kind != reader.List {
		return nil
	}
	var out []Dependency
	for _, d := range list.Items {
		if dep, ok := p.dependency(d); ok {
			out = append(out, dep)
		}
	}
	return out
}

// dependency reads name, (:version name v), (:feature expr dep) or (:require module).
func (p *parser) dependency(d *reader.Form) (Dependency, bool) {
	if d.Kind != reader.List {
		n := coerceName(d)
		return Dependency{Name: n, Span: d.Span}, n != ""
	}
	if len(d.Items) < 2 {
		return Dependency{}, false
	}
	switch {
	case d.Items[0].IsKeyword("VERSION"):
		return p.dependency(d.Items[1])
	case d.Items[0].IsKeyword("FEATURE") && len(d.Items) == 3:
		if !p.feature(d.Items[1]) {
			return Dependency{}, false
		}
		return p.dependency(d.Items[2])
	case d.Items[0].IsKeyword("REQUIRE"):
		n := coerceName(d.Items[1])
		return Dependency{Name: n, Require: true, Span: d.Span}, n != ""
	}
	return Dependency{}, false
}

// feature evaluates a feature expression as #+ does.
func (p *parser) feature(x *reader.Form) bool {
	switch x.Kind {
	case reader.Symbol:
		return (x.Package == "" || x.Package == reader.Keyword) && p.features[x.Name]
	case reader.List:
	default:
		return false
	}
	op := x.Head()
	args := x.Items[1:]
	switch {
	case op.IsKeyword("NOT") || op.IsSymbol("NOT"):
		return len(args) == 1 && !p.feature(args[0])
	case op.IsKeyword("AND") || op.IsSymbol("AND"):
		return p.all(args, true)
	case op.IsKeyword("OR") || op.IsSymbol("OR"):
		return p.all(args, false)
	}
	return false
}

// all evaluates the arguments of :and (and) or :or (!and).
func (p *parser) all(args []*reader.Form, and bool) bool {
	for _, a := range args {
		if p.feature(a) != and {
			return !and
		}
	}
	return and
}

// components reads a :components list whose paths are relative to dir.
func (p *parser) components(list *reader.Form, dir string) []Component {
	if list == nil || list.Kind != reader.List {
		return nil
	}
	var out []Component
	for _, c := range list.Items {
		if c.Kind != reader.List || len(c.Items) < 2 || c.Items[0].Kind != reader.Symbol {
			continue
		}
		opts := c.Items[2:]
		if cond := option(opts, "IF-FEATURE"); cond != nil && !p.feature(cond) {
			continue
		}
		out = append(out, p.component(c, dir))
	}
	return out
}

func (p *parser) component(c *reader.Form, dir string) Component {
	comp := Component{Type: strings.ToLower(c.Items[0].Name), Name: coerceName(c.Items[1]), Span: c.Span}
	opts := c.Items[2:]
	rel := comp.Name
	if v := option(opts, "PATHNAME"); v != nil && (v.Kind == reader.String || v.Kind == reader.Pathname) {
		rel = v.Name
	}
	switch comp.Type {
	case "module":
		comp.Path = path.Join(dir, rel) + "/"
		if rel == "" {
			comp.Path = dir
		}
		comp.Components = p.components(option(opts, "COMPONENTS"), comp.Path)
	case "file", "cl-source-file":
		if !strings.HasSuffix(rel, ".lisp") || option(opts, "PATHNAME") == nil {
			rel += ".lisp"
		}
		comp.Path = path.Join(dir, rel)
	default:
		comp.Path = path.Join(dir, rel)
	}
	return comp
}

func dirPath(p string) string {
	if p == "" {
		return ""
	}
	return strings.TrimSuffix(p, "/") + "/"
}

// SourceFiles returns the paths, relative to the .asd file's directory, of the system's
// Lisp source files in the order they are listed.
func (s *System) SourceFiles() []string {
	var out []string
	var walk func([]Component)
	walk = func(cs []Component) {
		for _, c := range cs {
			if c.Type == "file" || c.Type == "cl-source-file" {
				out = append(out, c.Path)
			}
			walk(c.Components)
		}
	}
	walk(s.Components)
	return out
}
