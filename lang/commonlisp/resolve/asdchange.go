package resolve

import (
	"fmt"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/commonlisp/asdf"
	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

// packageUse is one place a file names a package: a defpackage option (:use,
// :import-from, a local nickname) or a pkg:sym.
type packageUse struct {
	file string
	name string
	span reader.Span
}

// droppedDependencies reports, at a changed .asd, every system the project's unchanged
// files still need that the .asd does not declare: its package named in a defpackage
// option or as pkg:sym (issue #24: a system used only through (:import-from #:system …)
// could be dropped from :depends-on unnoticed). One problem per system, at the
// defsystem, with the first use as related place, unless a changed file's use already
// reported it.
func (w *world) droppedDependencies(a *asdf.ASD, file string, files map[string]*projectFile, changed []*change.File) []lang.Problem {
	if len(a.Systems) == 0 {
		return nil
	}
	reported := w.undeclaredSystems
	var out []lang.Problem
	for _, p := range sortedKeys(files) {
		if files[p].asd || isChanged(changed, p) {
			continue
		}
		for _, u := range packageUses(files[p]) {
			if w.pkgs[u.name] != nil || unlistedBuiltin(u.name) {
				continue
			}
			v := w.unknownPackage(u.name)
			if !v.undeclared || reported[v.system] {
				continue
			}
			reported[v.system] = true
			s := a.Systems[0]
			out = append(out, lang.Problem{Kind: lang.UndeclaredDependency,
				Location:   location(file, s.Span),
				Message:    fmt.Sprintf("system %q does not declare %q in :depends-on, but %s uses its package %s", s.Name, v.system, u.file, u.name),
				Suggestion: fmt.Sprintf("keep %q in :depends-on, or stop using package %s", v.system, u.name),
				Related:    []lang.Related{{Location: location(u.file, u.span), Message: "package " + u.name + " is used here"}},
				Symbol:     v.system})
		}
	}
	return out
}

// packageUses lists the packages a file names, in order.
func packageUses(pf *projectFile) []packageUse {
	var out []packageUse
	var walk func(f *reader.Form, depth int)
	walk = func(f *reader.Form, depth int) {
		if depth > 64 {
			return
		}
		if f.Kind == reader.Symbol {
			if f.Package != "" && f.Package != reader.Keyword && !f.Uninterned {
				out = append(out, packageUse{pf.path, f.Package, f.Span})
			}
			return
		}
		if h := f.Head(); h != nil && h.Kind == reader.Symbol && (h.Name == "DEFPACKAGE" || h.Name == "DEFINE-PACKAGE") {
			for _, o := range f.Items[min(2, len(f.Items)):] {
				for _, n := range optionPackages(o) {
					out = append(out, packageUse{pf.path, strings.ToUpper(n.Name), n.Span})
				}
			}
			return
		}
		for _, x := range f.Items {
			walk(x, depth+1)
		}
	}
	for _, f := range pf.rf.Forms {
		walk(f, 0)
	}
	return out
}

// optionPackages returns the package names a defpackage option names.
func optionPackages(o *reader.Form) []*reader.Form {
	if o.Kind != reader.List || len(o.Items) < 2 || o.Items[0].Kind != reader.Symbol {
		return nil
	}
	var names []*reader.Form
	switch key := o.Items[0].Name; {
	case packageOptions[key]:
		names = o.Items[1:]
	case firstPackageOptions[key]:
		names = o.Items[1:2]
	case key == "LOCAL-NICKNAMES":
		for _, pair := range o.Items[1:] {
			if pair.Kind == reader.List && len(pair.Items) == 2 {
				names = append(names, pair.Items[1])
			}
		}
	}
	var out []*reader.Form
	for _, n := range names {
		if n.Kind == reader.Symbol || n.Kind == reader.String {
			out = append(out, n)
		}
	}
	return out
}
