package resolve

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"go/build/constraint"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/load"
)

// excluded is a changed Go file the host build left out.
type excluded struct {
	file *change.File
	abs  string
	fc   fileConstraint
	// other marks a file of the package that is not Go (assembly): its configuration
	// loads its package for go vet's analyzers of such files.
	other bool
}

// checkExcluded type-checks the changed files the host build excludes (by file name or
// build constraint) under configurations that include them, and reports those it cannot
// verify. cgo says whether cgo is on for host builds.
func checkExcluded(p *lang.Request, loader *load.Loader, req load.Request, u *unit, files []excluded, cgo bool) ([]lang.Problem, error) {
	if len(files) == 0 {
		return nil, nil
	}
	plat := platform{ports: supportedPorts(p.Context), cgo: cgo}
	groups := map[string][]excluded{}
	configs := map[string]config{}
	var out []lang.Problem
	for _, e := range files {
		c, ok := buildFor(e.fc, plat)
		if !ok {
			out = append(out, unverified(e, "its build constraint excludes it from every build configuration the installed toolchain supports"))
			continue
		}
		k := describe(c)
		groups[k], configs[k] = append(groups[k], e), c
	}
	hostRead := hostDirs(req, u, files)
	for _, k := range slices.Sorted(maps.Keys(groups)) {
		fs, err := checkUnder(p, loader, req, u, configs[k], groups[k], hostRead)
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
	}
	return out, nil
}

// hostDirs returns the directories of the host check's packages: in a module, each
// directory of req with a Go file the host build does not exclude (the request names
// every Go file of a checked directory, newRequest). Outside a module only the named files
// are loaded, and go vet reads no other.
func hostDirs(req load.Request, u *unit, excl []excluded) map[string]bool {
	dirs := map[string]bool{}
	if !u.inModule {
		return dirs
	}
	skip := map[string]bool{}
	for _, e := range excl {
		skip[e.abs] = true
	}
	for _, f := range req.Files {
		if !skip[f] {
			dirs[filepath.Dir(f)] = true
		}
	}
	return dirs
}

// checkUnder type-checks files in build configuration c and keeps the findings in them;
// hostRead is converter.hostRead.
func checkUnder(p *lang.Request, loader *load.Loader, req load.Request, u *unit, c config, files []excluded, hostRead map[string]bool) ([]lang.Problem, error) {
	all := req.Files
	req.Build, req.Files = loadBuild(c), nil
	for _, e := range files {
		req.Files = append(req.Files, e.abs)
		if e.other {
			req.Files = append(req.Files, goFilesOf(all, filepath.Dir(e.abs))...)
		}
	}
	req.Files = uniq(req.Files)
	if c.release > 0 {
		req = releaseView(req, c.release)
	}
	res, err := loadUnder(p, loader, req)
	if err != nil {
		if p.Context.Err() != nil {
			return nil, p.Context.Err()
		}
		if crashed(err) {
			return nil, fmt.Errorf("type-checking %s for %s: %w", displayDir(u.dir), describe(c), err)
		}
		var out []lang.Problem
		for _, e := range files {
			out = append(out, unverified(e, fmt.Sprintf("it could not be loaded for %s: %s", describe(c), oneLine(err.Error()))))
		}
		return out, nil
	}
	conv := newConverter(p, res, u)
	conv.only, conv.note, conv.release = map[string]bool{}, "built for "+describe(c), c.release
	conv.port, conv.hostRead = !c.isHost(), hostRead
	for _, e := range files {
		conv.only[e.file.Path] = true
	}
	out, err := conv.findings()
	if err != nil {
		return nil, err
	}
	loaded := loadedFiles(res)
	for _, e := range files {
		if !loaded[e.abs] {
			out = append(out, unverified(e, "the build for "+describe(c)+" did not include it"))
		}
	}
	return out, nil
}

// loadBuild is c as the loader takes it: the host's own GOOS and GOARCH are left unset,
// so that a configuration of custom tags alone is a host build (cgo as the user has it,
// dependencies from export data), not a cross build to the host's port.
func loadBuild(c config) load.Build {
	b := c.Build
	if c.isHost() {
		b.GOOS, b.GOARCH = "", ""
	}
	return b
}

// loadUnder loads req for checkUnder. A check of the disk with no base view streams the
// packages (load.Loader.CheckEach): the packages of the request are kept for the
// findings, the syntax and type information of their dependencies are not.
func loadUnder(p *lang.Request, loader *load.Loader, req load.Request) (*load.Result, error) {
	if !p.Changes.NoBase || !p.Changes.OnDisk {
		return loader.Check(p.Context, req)
	}
	res := &load.Result{}
	handled, err := loader.CheckEach(p.Context, req, func(r *load.Result) error {
		res.Module, res.Fset = r.Module, r.Fset
		res.Packages = append(res.Packages, r.Packages...)
		return nil
	})
	if !handled {
		return loader.Check(p.Context, req)
	}
	return res, err
}

// describe names a build configuration as the go command's flags would, and the release
// whose toolchain it stands for when not the installed one.
func describe(c config) string {
	s := "GOOS=" + c.GOOS + " GOARCH=" + c.GOARCH
	if len(c.Tags) > 0 {
		s += " -tags=" + strings.Join(c.Tags, ",")
	}
	if c.release > 0 {
		s += fmt.Sprintf(" as by go1.%d", c.release)
	}
	return s
}

// splitExcluded splits the files of req into the request for the host build and the
// changed files the host build excludes by their name or build constraint; cgo says
// whether cgo is on for host builds.
func splitExcluded(root string, req load.Request, u *unit, cgo bool) (load.Request, []excluded) {
	var out []excluded
	skip := map[string]bool{}
	for _, f := range u.asmFiles {
		if fc := readConstraint(f.Path, f.Head); !fc.matches(host, cgo) {
			out = append(out, excluded{file: f, abs: filepath.Join(root, filepath.FromSlash(f.Path)), fc: fc, other: true})
		}
	}
	for _, f := range u.goFiles {
		abs := filepath.Join(root, filepath.FromSlash(f.Path))
		if f.Head == nil {
			continue
		}
		if fc := readConstraint(f.Path, f.Head); !fc.matches(host, cgo) {
			out = append(out, excluded{file: f, abs: abs, fc: fc})
			skip[abs] = true
		}
	}
	hostReq := req
	hostReq.Files = nil
	for _, f := range req.Files {
		if !skip[f] {
			hostReq.Files = append(hostReq.Files, f)
		}
	}
	return hostReq, out
}

func loadedFiles(res *load.Result) map[string]bool {
	m := map[string]bool{}
	for _, pkg := range res.Packages {
		for _, f := range slices.Concat(pkg.Files, pkg.OtherFiles) {
			m[f] = true
		}
	}
	return m
}

// goFilesOf returns the Go files of dir among files (the head tree's), for the load of
// an assembly file's package.
func goFilesOf(files []string, dir string) []string {
	var out []string
	for _, f := range files {
		if filepath.Dir(f) == dir && strings.HasSuffix(f, ".go") {
			out = append(out, f)
		}
	}
	return out
}

// unverified reports a file that could not be type-checked, at its build constraint.
func unverified(e excluded, why string) lang.Problem {
	line, text := constraintLine(e.file.Head)
	what := "its file name"
	if text != "" {
		what = "`" + text + "`"
	}
	return lang.Problem{
		Kind:       UnverifiedFile,
		Location:   lang.Location{File: e.file.Path, Line: line},
		Message:    fmt.Sprintf("%s is not type-checked: the host build (%s/%s) excludes it by %s, and %s", e.file.Path, host.GOOS, host.GOARCH, what, why),
		Suggestion: "remove the constraint if the file is meant to be built; a file meant to stay outside every build needs the trusted policy to lower " + "hallucination/" + string(UnverifiedFile),
		Symbol:     e.file.Path,
		Introduced: true,
	}
}

// constraintLine returns the line number and text of the file's build constraint, or 1
// and "" when it has none.
func constraintLine(src []byte) (int, string) {
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if constraint.IsGoBuild(line) || constraint.IsPlusBuild(line) {
			return n, line
		}
		if strings.HasPrefix(line, "package ") {
			break
		}
	}
	return 1, ""
}

// supportedPorts returns the GOOS/GOARCH pairs of the installed toolchain; on failure,
// only the host's.
func supportedPorts(ctx context.Context) map[string]bool {
	ports := map[string]bool{host.GOOS + "/" + host.GOARCH: true}
	out, err := exec.CommandContext(ctx, "go", "tool", "dist", "list").Output()
	if err != nil {
		return ports
	}
	for _, l := range strings.Fields(string(out)) {
		ports[l] = true
	}
	return ports
}
