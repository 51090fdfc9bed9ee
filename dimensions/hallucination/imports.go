package hallucination

import (
	"fmt"
	"go/build"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"golang.org/x/mod/module"
)

// classifyImport turns `go list`'s reason for an unresolved import into a rule and a
// message that names the module needed and never advises fetching it.
func (c *converter) classifyImport(ipath, reason string) (rule, msg string) {
	modPath := c.res.Module.Path
	switch {
	case modPath != "" && (ipath == modPath || strings.HasPrefix(ipath, modPath+"/")):
		return RuleUnknownImport, fmt.Sprintf("import %q resolves to no package: module %s has no package %s", ipath, modPath, strings.TrimPrefix(strings.TrimPrefix(ipath, modPath), "/"))
	case strings.Contains(reason, "is not in std") || !strings.Contains(firstElem(ipath), "."):
		return RuleUnknownImport, fmt.Sprintf("import %q resolves to no package: there is no standard-library package %s", ipath, ipath)
	case strings.Contains(reason, "cannot find module providing package") || strings.Contains(reason, "no required module provides package") || strings.Contains(reason, "go.mod file not found"):
		if mod := cachedModule(ipath); mod != "" {
			return RuleUndeclaredDependency, fmt.Sprintf("import %q belongs to module %s, which go.mod does not require (do not add unreviewed dependencies)", ipath, mod)
		}
		if mod := guessModule(ipath); mod != "" {
			return RuleUnknownImport, fmt.Sprintf("import %q resolves to no package: module %s is not required by go.mod (do not add unreviewed dependencies)", ipath, mod)
		}
		return RuleUnknownImport, fmt.Sprintf("import %q resolves to no package: no module required by go.mod provides it (do not add unreviewed dependencies)", ipath)
	case strings.Contains(reason, "missing go.sum entry") || strings.Contains(reason, "module lookup disabled"):
		return RuleUnknownImport, fmt.Sprintf("import %q cannot be verified: its module is required by go.mod but is not in the local module cache or go.sum (no network access)", ipath)
	}
	return RuleUnknownImport, fmt.Sprintf("import %q resolves to no package: %s", ipath, oneLine(sanitize(reason)))
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

// cachedModule returns the longest prefix of ipath that is a module present in the local
// module cache, or "".
func cachedModule(ipath string) string {
	cache := modCache()
	if cache == "" {
		return ""
	}
	elems := strings.Split(ipath, "/")
	for n := len(elems); n >= 1; n-- {
		mod := strings.Join(elems[:n], "/")
		esc, err := module.EscapePath(mod)
		if err != nil {
			continue
		}
		if st, err := os.Stat(filepath.Join(cache, "cache", "download", filepath.FromSlash(esc), "@v")); err == nil && st.IsDir() {
			return mod
		}
	}
	return ""
}

func modCache() string {
	if c := os.Getenv("GOMODCACHE"); c != "" {
		return c
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		gopath = build.Default.GOPATH
	}
	if list := filepath.SplitList(gopath); len(list) > 0 && list[0] != "" {
		return filepath.Join(list[0], "pkg", "mod")
	}
	return ""
}

var goGetAdvice = regexp.MustCompile(`(?s)(;\s*to add it:.*|\n\s*go (get|mod download)[^\n]*)`)

// sanitize removes the toolchain's advice to fetch modules from a message.
func sanitize(msg string) string {
	return strings.TrimSpace(goGetAdvice.ReplaceAllString(msg, ""))
}
