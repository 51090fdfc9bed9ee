package resolve

import (
	"fmt"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

// qualified checks every pkg:sym and pkg::sym a file reads, in code and data alike: a
// Lisp reader fails on a package that does not exist and on pkg:sym when sym is not
// external, wherever they are written.
func (k *walker) qualified(f *reader.Form) {
	if f.Kind == reader.Symbol {
		if f.Package != "" && f.Package != reader.Keyword && !f.Uninterned {
			k.qualifiedSymbol(f)
		}
		return
	}
	for _, x := range f.Items {
		k.qualified(x)
	}
	if f.Tail != nil {
		k.qualified(f.Tail)
	}
}

func (k *walker) qualifiedSymbol(sym *reader.Form) {
	cur := k.cur(sym)
	p := k.w.lookupPkg(sym.Package, cur)
	if p == nil {
		k.packageName(sym.Package, sym.Span, written(sym))
		return
	}
	if sym.Internal {
		return
	}
	if ext, known := k.w.externalIn(p, sym.Name); !known || ext {
		if known {
			k.deprecatedUse(sym, p)
		}
		return
	}
	suggestion, single := k.notExternal(sym, p)
	k.rep.add(lang.UnknownSymbol, sym.Span, written(sym),
		fmt.Sprintf("%s is not an external symbol of package %s", strings.ToLower(sym.Name), sym.Package), suggestion)
	if single != "" {
		k.rep.replace(sym.Span, strings.ToLower(sym.Package)+":"+single)
	}
}

// notExternal says what to write instead of pkg:sym when sym is not external, and the
// one external symbol to write instead when there is exactly one near it.
func (k *walker) notExternal(sym *reader.Form, p *pkg) (suggestion, single string) {
	lname := strings.ToLower(sym.Name)
	lpkg := strings.ToLower(sym.Package)
	_, defined := k.w.funcs[k.w.key(p.name, sym.Name)]
	if defined && (p.origin == fromProject || p.origin == fromDep) {
		return fmt.Sprintf("it is internal: use %s::%s, or export it from %s", lpkg, lname, p.name), ""
	}
	if near := lowered(closest(sym.Name, k.w.externals(p), 3)); len(near) > 0 {
		if len(near) == 1 {
			single = near[0]
		}
		return "did you mean " + orList(prefixed(lpkg+":", near)) + "?", single
	}
	if p.origin == fromProject {
		return fmt.Sprintf("use `::` (%s::%s) if it is internal, or export it from %s", lpkg, lname, p.name), ""
	}
	return "", ""
}

// packageName reports a package name the world does not have at span: unknown, provided
// by a system the project does not declare, or presumably by a declared system that is
// not installed (then reported once per file, as what could not be verified).
func (k *walker) packageName(name string, s reader.Span, symbol string) {
	if unlistedBuiltin(name) {
		return
	}
	v := k.w.unknownPackage(name)
	switch {
	case v.undeclared:
		k.w.undeclaredSystems[v.system] = true
		k.rep.add(lang.UndeclaredDependency, s, strings.ToLower(name),
			fmt.Sprintf("package %s is provided by system %q, which the .asd :depends-on does not list", name, v.system),
			fmt.Sprintf("add %q to :depends-on in a reviewed change, or do without it", v.system))
	case v.missing:
		k.missingUse(v, name, s, symbol)
	case v.system == "" && k.loadedAtRunTime(name, s):
	case v.system == "":
		k.rep.add(lang.UnknownPackage, s, strings.ToLower(name),
			fmt.Sprintf("no package %s exists: no system of the project, its dependencies, SBCL or ASDF defines it", name),
			k.suggestPackage(name))
	}
}

// loadedAtRunTime reports, once per file and package, a package no system defines that
// a system the file loads at run time before s presumably does (a script's
// (ql:quickload :x) then x:run): it could not be verified, which is not a made-up name.
func (k *walker) loadedAtRunTime(name string, s reader.Span) bool {
	l, ok := loadedBefore(k.rep.loads, s.Start.Offset)
	if !ok {
		return false
	}
	if !k.rep.missingNoted["load:"+name] {
		k.rep.missingNoted["load:"+name] = true
		k.rep.add(lang.MissingDependency, s, strings.ToLower(name),
			fmt.Sprintf("package %s could not be verified: no system of the project or its dependencies defines it, and the file loads %s at run time before this use", name, l.text),
			"declare the system in the .asd :depends-on so its packages can be checked")
	}
	return true
}

// missingUse reports, once per file and system, a use that could not be verified because
// the system that presumably provides its package is declared but missing.
func (k *walker) missingUse(v *verdict, pkgName string, s reader.Span, symbol string) {
	if k.rep.missingNoted[v.system] {
		return
	}
	k.rep.missingNoted[v.system] = true
	k.rep.add(lang.MissingDependency, s, v.system,
		fmt.Sprintf("%s could not be verified: its package %s is presumably provided by system %q, which is declared but not installed where ASDF looks", symbol, pkgName, v.system),
		"install the declared dependencies where the verification runs")
}

// unverified reports a call that could not be verified because the package it may come
// from belongs to a missing dependency (a package nobody has is reported where it is
// named).
func (k *walker) unverified(pkgName string, sym *reader.Form) {
	if k.w.pkgs[pkgName] != nil || unlistedBuiltin(pkgName) {
		return
	}
	switch v := k.w.unknownPackage(pkgName); {
	case v.missing:
		k.missingUse(v, pkgName, sym.Span, written(sym))
	case v.undeclared && !k.rep.missingNoted["undeclared:"+v.system]:
		// A symbol imported from (or a package used by) a system the .asd does not
		// declare: reported once per file and system, at the first use.
		k.rep.missingNoted["undeclared:"+v.system] = true
		k.w.undeclaredSystems[v.system] = true
		k.rep.add(lang.UndeclaredDependency, sym.Span, written(sym),
			fmt.Sprintf("%s comes from package %s, provided by system %q, which the .asd :depends-on does not list", written(sym), pkgName, v.system),
			fmt.Sprintf("add %q to :depends-on in a reviewed change, or do without it", v.system))
	}
}

func (k *walker) suggestPackage(name string) string {
	var names []string
	for n := range k.w.pkgs {
		names = append(names, n)
	}
	if near := closest(name, names, 3); len(near) > 0 {
		return "did you mean " + orList(lowered(near)) + "? never install a package because its name appears here"
	}
	return "use a package the project already has; never install one because its name appears here"
}

// packageOptions are the defpackage options that name packages: all their arguments,
// or only the first.
var packageOptions = map[string]bool{"USE": true, "MIX": true, "USE-REEXPORT": true, "MIX-REEXPORT": true, "REEXPORT": true}
var firstPackageOptions = map[string]bool{"IMPORT-FROM": true, "SHADOWING-IMPORT-FROM": true}

// defpackages checks the packages the file's defpackage forms use and import from.
func (k *walker) defpackages(forms []*reader.Form) {
	for _, f := range forms {
		head := f.Head()
		if head == nil || head.Kind != reader.Symbol || head.Name != "DEFPACKAGE" && head.Name != "DEFINE-PACKAGE" {
			continue
		}
		for _, o := range f.Items[min(2, len(f.Items)):] {
			k.packageOption(o)
		}
	}
}

func (k *walker) packageOption(o *reader.Form) {
	for _, n := range optionPackages(o) {
		if k.w.pkgs[n.Name] == nil {
			k.packageName(n.Name, n.Span, strings.ToLower(n.Name))
		}
	}
}
