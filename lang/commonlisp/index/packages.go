package index

import (
	"strings"

	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

// inPackage handles (in-package name): the forms after it are in that package.
func (ix *indexer) inPackage(f *reader.Form, _ bool) {
	if len(f.Items) != 2 {
		ix.problem(f, "in-package takes one package name")
		return
	}
	name := designator(f.Items[1])
	if name == "" {
		ix.problem(f, "in-package: "+f.Items[1].String()+" is not a package name")
		return
	}
	ix.pkg = name
	ix.file.InPackages = append(ix.file.InPackages, InPackage{Name: name, Span: f.Span})
}

// defpackage handles defpackage and uiop:define-package.
func (ix *indexer) defpackage(f *reader.Form, _ bool) {
	if len(f.Items) < 2 {
		return
	}
	name := designator(f.Items[1])
	if name == "" {
		ix.problem(f, "defpackage: "+f.Items[1].String()+" is not a package name")
		return
	}
	p := Package{Name: name, Via: strings.ToLower(f.Items[0].Name), Span: f.Span, NameSpan: f.Items[1].Span}
	if f.Items[0].Package != "" {
		p.Via = "uiop:" + p.Via
	}
	for _, o := range f.Items[2:] {
		if o.Kind != reader.List || len(o.Items) == 0 || o.Items[0].Kind != reader.Symbol {
			ix.problem(o, "defpackage "+name+": option "+o.String()+" is not (:keyword …)")
			continue
		}
		p.option(o.Items[0].Name, o.Items[1:])
	}
	ix.file.Packages = append(ix.file.Packages, p)
}

// option applies one defpackage option.
func (p *Package) option(key string, args []*reader.Form) {
	switch key {
	case "NICKNAMES":
		p.Nicknames = append(p.Nicknames, names(args)...)
	case "USE", "MIX":
		p.Use = append(p.Use, names(args)...)
	case "USE-REEXPORT", "MIX-REEXPORT":
		p.Use = append(p.Use, names(args)...)
		p.Reexport = append(p.Reexport, names(args)...)
	case "REEXPORT":
		p.Reexport = append(p.Reexport, names(args)...)
	case "EXPORT":
		p.Export = append(p.Export, symbols(args)...)
	case "SHADOW":
		p.Shadow = append(p.Shadow, names(args)...)
	case "IMPORT-FROM":
		p.ImportFrom = appendImport(p.ImportFrom, args)
	case "SHADOWING-IMPORT-FROM":
		p.ShadowingImportFrom = appendImport(p.ShadowingImportFrom, args)
	case "LOCAL-NICKNAMES":
		p.localNicknames(args)
	case "DOCUMENTATION":
		p.Documented = len(args) == 1 && args[0].Kind == reader.String
	}
}

func (p *Package) localNicknames(args []*reader.Form) {
	for _, a := range args {
		if a.Kind == reader.List && len(a.Items) == 2 {
			if p.LocalNicknames == nil {
				p.LocalNicknames = map[string]string{}
			}
			p.LocalNicknames[designator(a.Items[0])] = designator(a.Items[1])
		}
	}
}

func appendImport(imps []Import, args []*reader.Form) []Import {
	if len(args) == 0 {
		return imps
	}
	return append(imps, Import{Package: designator(args[0]), Symbols: symbols(args[1:])})
}

func names(args []*reader.Form) []string {
	var out []string
	for _, a := range args {
		if n := designator(a); n != "" {
			out = append(out, n)
		}
	}
	return out
}

func symbols(args []*reader.Form) []Symbol {
	var out []Symbol
	for _, a := range args {
		if n := designator(a); n != "" {
			out = append(out, Symbol{Name: n, Span: a.Span})
		}
	}
	return out
}

// Exports reports whether the package exports the symbol named name (upper case).
func (p *Package) Exports(name string) bool {
	for _, s := range p.Export {
		if s.Name == name {
			return true
		}
	}
	return false
}
