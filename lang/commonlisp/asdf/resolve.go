package asdf

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentverify/agentverify/lang/commonlisp/index"
	"github.com/agentverify/agentverify/lang/commonlisp/reader"
	"github.com/agentverify/agentverify/lazyregexp"
)

// builtinSystems are the systems every SBCL with ASDF has without a source registry:
// ASDF itself, UIOP (which ASDF loads) and SBCL's contribs.
var builtinSystems = map[string]bool{"asdf": true, "uiop": true, "sb-aclrepl": true,
	"sb-bsd-sockets": true, "sb-capstone": true, "sb-cltl2": true, "sb-concurrency": true,
	"sb-cover": true, "sb-executable": true, "sb-gmp": true, "sb-graph": true,
	"sb-grovel": true, "sb-introspect": true, "sb-md5": true, "sb-mpfr": true,
	"sb-posix": true, "sb-queue": true, "sb-rotate-byte": true, "sb-rt": true,
	"sb-simd": true, "sb-simple-streams": true, "sb-sprof": true}

// Builtin reports whether system is provided by SBCL and ASDF themselves: asdf, uiop
// and the sb-* contribs.
func Builtin(system string) bool { return builtinSystems[system] }

// BuiltinPackage reports whether a package exists in every SBCL with ASDF loaded:
// COMMON-LISP, COMMON-LISP-USER, KEYWORD, the implementation's SB-* packages, and the
// packages of ASDF and UIOP (ASDF/… and UIOP/… included).
func BuiltinPackage(name string) bool {
	switch name {
	case "COMMON-LISP", "CL", "COMMON-LISP-USER", "CL-USER", "KEYWORD", "ASDF", "UIOP", "ASDF-USER":
		return true
	}
	return strings.HasPrefix(name, "SB-") || strings.HasPrefix(name, "ASDF/") || strings.HasPrefix(name, "UIOP/")
}

// Status is what became of a dependency.
type Status string

// Dependency statuses.
const (
	Found   Status = "found"   // located and read
	Known   Status = "builtin" // provided by SBCL or ASDF; its sources are not read
	Missing Status = "missing" // not in the source registry: a warning
)

// Resolved is one dependency after looking it up.
type Resolved struct {
	Dependency
	Status Status
	// ASD is the .asd file that defines the system when Found.
	ASD string
	// Packages are the packages the system's source files define.
	Packages []index.Package
}

// Warning is a dependency that could not be verified, e.g. one that is not found: it is
// reported, never taken as a pass for whatever it might export.
type Warning struct {
	System  string
	Span    reader.Span
	Message string
}

// Resolution is the result of resolving a system's dependencies.
type Resolution struct {
	Deps     []Resolved
	Warnings []Warning
}

// Package returns the package named name (or nicknamed) among the found dependencies.
func (r *Resolution) Package(name string) (*index.Package, bool) {
	for i := range r.Deps {
		for j := range r.Deps[i].Packages {
			p := &r.Deps[i].Packages[j]
			if p.Name == name || contains(p.Nicknames, name) {
				return p, true
			}
		}
	}
	return nil, false
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Resolve looks up each of sys's :depends-on and :defsystem-depends-on systems and reads
// the source files of those found for their packages. opts configure the reader.
func (l *Locator) Resolve(sys *System, opts reader.Options) *Resolution {
	res := &Resolution{}
	for _, d := range append(append([]Dependency(nil), sys.DefsystemDependsOn...), sys.DependsOn...) {
		r, warns := l.resolve(d, opts)
		for i := range warns {
			warns[i].Span = d.Span
		}
		res.Deps = append(res.Deps, r)
		res.Warnings = append(res.Warnings, warns...)
	}
	return res
}

func (l *Locator) resolve(d Dependency, opts reader.Options) (Resolved, []Warning) {
	r := Resolved{Dependency: d}
	if Builtin(d.Name) || d.Require {
		r.Status = Known
		if d.Require && !Builtin(d.Name) {
			return r, []Warning{{System: d.Name, Message: fmt.Sprintf("(:require %q) is not a module SBCL provides", d.Name)}}
		}
		return r, nil
	}
	asd, ok := l.Find(d.Name)
	if !ok {
		r.Status = Missing
		return r, []Warning{{System: d.Name, Message: fmt.Sprintf("system %q is not in the ASDF source registry (searched %s); install it or fix :depends-on — its packages and exports are unknown", d.Name, l.describeRoots())}}
	}
	r.Status, r.ASD = Found, asd
	pkgs, warns := LoadPackages(asd, d.Name, opts)
	r.Packages = pkgs
	return r, warns
}

func (l *Locator) describeRoots() string {
	var s []string
	for _, r := range l.roots {
		s = append(s, r.Dir)
	}
	if len(s) == 0 {
		return "no directories"
	}
	return strings.Join(s, ", ")
}

// LoadPackages reads system name's .asd file and the system's source files and returns
// the packages they define. A package-inferred system's "primary/sub" is the file
// sub.lisp below the primary system's directory. Files that cannot be read or have
// syntax errors are warnings.
func LoadPackages(asdPath, name string, opts reader.Options) ([]index.Package, []Warning) {
	src, err := os.ReadFile(asdPath)
	if err != nil {
		return nil, []Warning{{System: name, Message: "reading " + asdPath + ": " + err.Error()}}
	}
	a := Parse(asdPath, src, opts)
	files, warn := systemFiles(a, name)
	if warn != "" {
		return nil, []Warning{{System: name, Message: warn}}
	}
	var pkgs []index.Package
	var warns []Warning
	dir := filepath.Dir(asdPath)
	for _, f := range files {
		p, w := readPackages(filepath.Join(dir, filepath.FromSlash(f)), opts)
		pkgs = append(pkgs, p...)
		if w != "" {
			warns = append(warns, Warning{System: name, Message: w})
		}
	}
	return pkgs, warns
}

// systemFiles returns the source files of system name defined in a.
func systemFiles(a *ASD, name string) ([]string, string) {
	if s := a.System(name); s != nil {
		return s.SourceFiles(), ""
	}
	primary, sub, ok := strings.Cut(name, "/")
	if p := a.System(primary); ok && p != nil && p.Class == "PACKAGE-INFERRED-SYSTEM" {
		return []string{sub + ".lisp"}, ""
	}
	return nil, fmt.Sprintf("%s does not define system %q", a.Path, name)
}

// definesPackage matches the start of a form that may define a package; files without
// one are not read, which makes loading a dependency several times faster.
var definesPackage = lazyregexp.New(`(?i)\(\s*([a-z/-]*:{1,2})?def(ine-)?package\s`)

func readPackages(file string, opts reader.Options) ([]index.Package, string) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, "reading " + file + ": " + err.Error()
	}
	if !definesPackage.Match(src) {
		return nil, ""
	}
	rf := reader.Read(src, opts)
	ix := index.Build(rf)
	if len(rf.Errors) > 0 {
		e := rf.Errors[0]
		return ix.Packages, fmt.Sprintf("%s:%d:%d: %s (its packages may be incomplete)", file, e.Pos.Line, e.Pos.Column, e.Msg)
	}
	return ix.Packages, ""
}
