package resolve

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lazyregexp"
	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
)

// classifyImport turns `go list`'s reason for an unresolved import into a rule, a message
// that says which of the module's facts the import contradicts, and a suggestion drawn
// from the packages that really exist; young is a second finding for the same import
// (a new module first released too recently). It never advises fetching a module. An
// empty rule means no finding: the import could not be verified here, and c.setup says
// why.
func (c *converter) classifyImport(ipath, reason string) (rule lang.Kind, msg, suggestion string, young *lang.Problem) {
	rule, msg, suggestion = c.classifyLocal(ipath, reason)
	if rule != "" || c.setup != nil {
		return rule, msg, suggestion, nil
	}
	if rule, msg, suggestion, young, ok := c.lookupImport(ipath); ok {
		return rule, msg, suggestion, young
	}
	if mod := c.cachedModule(ipath); mod != "" {
		return lang.UndeclaredDependency, fmt.Sprintf("import %q belongs to module %s, which go.mod does not require (do not add unreviewed dependencies)", ipath, mod), "", nil
	}
	if mod := guessModule(ipath); mod != "" {
		return lang.UnknownImport, fmt.Sprintf("import %q resolves to no package: module %s is not required by go.mod (do not add unreviewed dependencies)", ipath, mod), "", nil
	}
	return lang.UnknownImport, fmt.Sprintf("import %q resolves to no package: no module required by go.mod provides it (do not add unreviewed dependencies)", ipath), "", nil
}

// classifyLocal classifies an unresolved import from what the disk tells: the module's
// own packages, the standard library, go.sum, the module cache and the vendor directory,
// and the requirements of go.mod. An empty rule means the import belongs to no module
// go.mod requires (the proxies may say more), or, with c.setup set, that it could not
// be verified here.
func (c *converter) classifyLocal(ipath, reason string) (rule lang.Kind, msg, suggestion string) {
	info := c.modInfo()
	if info != nil {
		if r := info.providing(ipath); r != nil && r.path == info.self.path {
			return ownPackage(r, ipath)
		}
	}
	sumMissing := strings.Contains(reason, "missing go.sum entry")
	switch {
	case strings.Contains(reason, "is not in std") || !strings.Contains(firstElem(ipath), "."):
		return lang.UnknownImport, fmt.Sprintf("import %q resolves to no package: there is no standard-library package %s", ipath, ipath), stdPackageHint(ipath)
	case sumMissing && c.sumMissing(ipath, reason, info):
		of := "the module providing it"
		if m := missingSum(reason); m != "" {
			of = "the go.mod of " + m + ", which go.mod requires"
		}
		return lang.UnknownImport, fmt.Sprintf("import %q does not build: go.sum has no checksum for %s (the go command stops with \"missing go.sum entry\")", ipath, of),
			"add the module's checksums to go.sum (`go mod tidy` writes them) in a reviewed change"
	case strings.Contains(reason, "module lookup disabled") || c.staleVendor(ipath, reason):
		c.notFetched(ipath, reason)
		return "", "", ""
	case !sumMissing && !notProvided(reason):
		return lang.UnknownImport, fmt.Sprintf("import %q resolves to no package: %s", ipath, oneLine(sanitize(reason))), ""
	}
	if info != nil {
		if rule, msg, sugg, ok := classifyRequired(info, ipath); ok {
			return rule, msg, sugg
		}
	}
	return "", "", ""
}

// ownPackage explains an import under the module's own path that resolves to no package.
func ownPackage(self *requirement, ipath string) (rule lang.Kind, msg, suggestion string) {
	if nested := nestedModule(self, ipath); nested != "" {
		return lang.UnknownImport, fmt.Sprintf("import %q resolves to no package: its directory belongs to the nested module %s, which go.mod does not require", ipath, nested), ""
	}
	return lang.UnknownImport, fmt.Sprintf("import %q resolves to no package: module %s has no package %s", ipath, self.path, subPath(ipath, self.path)), packageHint(self, ipath)
}

// sumMissing reports whether go list's "missing go.sum entry" for an import is what
// stops the build: the checksum of a module go.mod requires. It is not when the module
// is one no proxy has (its unknown-module finding says why, and the import is classified
// as any other), or when the import's module is not required at all (the go command found
// it in the module cache).
func (c *converter) sumMissing(ipath, reason string, info *modInfo) bool {
	if m := missingSum(reason); m != "" {
		if c.unit.mods != nil {
			for _, nf := range c.unit.mods.added.NotFound {
				if nf.String() == m {
					return false
				}
			}
		}
		return true
	}
	return info != nil && info.providing(ipath) != nil
}

// missingSum returns the module version ("m@v") whose go.mod checksum go.sum lacks,
// from go list's "m@v: missing go.sum entry for go.mod file", or "".
func missingSum(reason string) string {
	m, rest, ok := strings.Cut(reason, ": ")
	if !ok || !strings.HasPrefix(rest, "missing go.sum entry for go.mod file") || !strings.Contains(m, "@") {
		return ""
	}
	return m
}

// staleVendor reports whether an import failed only because the vendor directory lacks
// a whole module the trusted go.mod requires: the vendor directory is not up to date with
// the trusted go.mod, which is the user's to fix. A module the change requires and did not
// vendor, or a package a vendored module does not have, is the change's fault, reported
// as a finding.
func (c *converter) staleVendor(ipath, reason string) bool {
	if !strings.Contains(reason, "vendor") || c.unit.mods == nil || c.unit.mods.trusted == nil {
		return false
	}
	vendor := filepath.Join(c.pass.Changes.Root, filepath.FromSlash(c.unit.dir), "vendor")
	for _, r := range c.unit.mods.trusted.Require {
		if ipath == r.Mod.Path || strings.HasPrefix(ipath, r.Mod.Path+"/") {
			_, err := os.Stat(filepath.Join(vendor, filepath.FromSlash(r.Mod.Path)))
			return err != nil
		}
	}
	return false
}

// notFetched records that an import's module is missing from the module cache or the
// vendor directory although it should be there: the verification fails with the command
// that fetches it, and no finding is reported for the import.
func (c *converter) notFetched(ipath, reason string) {
	if c.setup != nil {
		return
	}
	dir := filepath.Join(c.pass.Changes.Root, filepath.FromSlash(c.unit.dir))
	cmd := "go mod download"
	if strings.Contains(reason, "vendor") {
		cmd = "go mod vendor"
	}
	c.setup = &lang.SetupError{Err: fmt.Errorf("import %q could not be verified: its module is required by go.mod but missing here (%s): run `%s` in %s", ipath, oneLine(sanitize(reason)), cmd, dir)}
}

// stdPackageHint suggests the standard-library packages closest to ipath: by path, or
// by last element (net/urls → net/url, crypto/md5sum → crypto/md5).
func stdPackageHint(ipath string) string {
	api := loadStdAPI()
	paths := make([]string, 0, len(api.members))
	for p := range api.members {
		paths = append(paths, p)
	}
	near := closest(ipath, paths)
	if len(near) == 0 {
		near = closest(pkgNameOf(ipath), api.byName[pkgNameOf(ipath)])
		near = append(near, api.byName[pkgNameOf(ipath)]...)
	}
	if len(near) > maxSuggestions {
		near = near[:maxSuggestions]
	}
	for i, n := range near {
		near[i] = fmt.Sprintf("%q", n)
	}
	return didYouMean("", near)
}

// notProvided reports whether go list's reason says no module provides the package.
func notProvided(reason string) bool {
	for _, s := range []string{"cannot find module providing package", "no required module provides package", "go.mod file not found", "does not contain package", "is not in vendor/modules.txt", "vendor"} {
		if strings.Contains(reason, s) {
			return true
		}
	}
	return false
}

// classifyRequired explains an import under a required module that has no such package,
// or of another major version of a required module.
func classifyRequired(info *modInfo, ipath string) (rule lang.Kind, msg, suggestion string, ok bool) {
	if r := info.providing(ipath); r != nil {
		return lang.UnknownImport, fmt.Sprintf("import %q resolves to no package: module %s (required at %s) has no package %s", ipath, r.path, r.version, subPath(ipath, r.path)), packageHint(r, ipath), true
	}
	if r, alt := info.otherMajor(ipath); r != nil {
		_, major, _ := module.SplitPathVersion(r.path)
		if major == "" {
			major = "v0 or v1"
		}
		msg = fmt.Sprintf("import %q resolves to no package: it names another major version of module %s, and go.mod requires %s %s (major version %s)", ipath, r.path, r.path, r.version, strings.TrimPrefix(major, "/"))
		suggestion = fmt.Sprintf("import %q instead", alt)
		if pkgs := packagesOf(r); len(pkgs) > 0 && !contains(pkgs, alt) {
			suggestion = packageHint(r, alt)
		}
		return lang.UnknownImport, msg, suggestion, true
	}
	return "", "", "", false
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// nestedModule returns the path of the module nested in r's tree that holds ipath's
// directory, or "".
func nestedModule(r *requirement, ipath string) string {
	sub := subPath(ipath, r.path)
	if r.dir == "" || sub == "." {
		return ""
	}
	dir := r.dir
	for _, e := range strings.Split(sub, "/") {
		dir = filepath.Join(dir, e)
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			if p := modfile.ModulePath(data); p != "" {
				return p
			}
		}
	}
	return ""
}

// subPath returns ipath below module path mod ("." for the module's root package).
func subPath(ipath, mod string) string {
	if s := strings.TrimPrefix(strings.TrimPrefix(ipath, mod), "/"); s != "" {
		return s
	}
	return "."
}

// maxListed bounds how many of a module's packages a suggestion lists.
const maxListed = 8

// packageHint suggests the packages of module r closest to ipath, or lists its packages
// when none is close.
func packageHint(r *requirement, ipath string) string {
	pkgs := packagesOf(r)
	if len(pkgs) == 0 {
		return ""
	}
	subs := make([]string, len(pkgs))
	for i, p := range pkgs {
		subs[i] = subPath(p, r.path)
	}
	if near := closest(subPath(ipath, r.path), subs); len(near) > 0 {
		for i, n := range near {
			near[i] = fmt.Sprintf("%q", strings.TrimSuffix(r.path+"/"+n, "/."))
		}
		return didYouMean("", near)
	}
	list := pkgs
	if len(list) > maxListed {
		list = list[:maxListed]
	}
	s := fmt.Sprintf("module %s has the packages %s", r.path, strings.Join(list, ", "))
	if len(pkgs) > len(list) {
		s += fmt.Sprintf(" and %d more", len(pkgs)-len(list))
	}
	return s
}

// modInfo returns the go.mod facts of the checked module, read once per converter.
func (c *converter) modInfo() *modInfo {
	if !c.modRead {
		c.modRead = true
		if c.unit.inModule {
			var head []byte
			if c.unit.goMod != nil {
				head = c.unit.goMod.Head
			}
			c.mod = readModInfo(c.res.Module.Dir, head, c.moduleCache())
		}
	}
	return c.mod
}

func firstElem(p string) string {
	e, _, _ := strings.Cut(p, "/")
	return e
}

// guessModule names the module an import path would come from on the well-known hosts
// (their module paths have three elements), or "" when it cannot be told.
func guessModule(ipath string) string {
	elems := strings.Split(ipath, "/")
	switch elems[0] {
	case "github.com", "gitlab.com", "bitbucket.org", "golang.org", "go.googlesource.com":
		if len(elems) >= 3 {
			return strings.Join(elems[:3], "/")
		}
	}
	return ""
}

// cachedModule returns the longest prefix of ipath that is a module in the module cache,
// or "".
func (c *converter) cachedModule(ipath string) string {
	if c.unit.fetch == nil {
		return ""
	}
	return c.unit.fetch.CachedModule(c.pass.Context, ipath)
}

// moduleCache returns the module cache the go command uses, or "".
func (c *converter) moduleCache() string {
	if c.unit.fetch == nil {
		return ""
	}
	return c.unit.fetch.ModuleCache(c.pass.Context)
}

var goGetAdvice = lazyregexp.New(`(?s)(;\s*to add it:.*|\n\s*go (get|mod download)[^\n]*)`)

// sanitize removes the toolchain's advice to fetch modules from a message.
func sanitize(msg string) string {
	return strings.TrimSpace(goGetAdvice.ReplaceAllString(msg, ""))
}
