package resolve

import (
	"bufio"
	"bytes"
	"go/build"
	"go/build/constraint"
	"path"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/load"
)

// The operating systems and architectures the go command knows (go/build's lists).
var (
	knownOS = []string{"aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "js", "linux",
		"nacl", "netbsd", "openbsd", "plan9", "solaris", "wasip1", "windows", "zos"}
	unixOS = []string{"aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "linux",
		"netbsd", "openbsd", "solaris"}
	knownArch = []string{"386", "amd64", "amd64p32", "arm", "armbe", "arm64", "arm64be", "loong64", "mips", "mipsle",
		"mips64", "mips64le", "mips64p32", "mips64p32le", "ppc", "ppc64", "ppc64le", "riscv", "riscv64", "s390",
		"s390x", "sparc", "sparc64", "wasm"}
)

// fileConstraint is what decides whether a Go file is in a build: its //go:build (or
// // +build) expression and the GOOS and GOARCH of its name (x_windows_arm64.go).
type fileConstraint struct {
	expr       constraint.Expr // nil: none
	goos, arch string          // from the file name; "" when it has none
}

// readConstraint reads the constraint of the Go file name with content src.
func readConstraint(name string, src []byte) fileConstraint {
	fc := fileConstraint{}
	fc.goos, fc.arch = nameOSArch(path.Base(name))
	fc.expr = headerExpr(src)
	return fc
}

// headerExpr returns the build expression of the file header (the comments before the
// package clause): the //go:build line, else the // +build lines and-ed together.
func headerExpr(src []byte) constraint.Expr {
	var plus constraint.Expr
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if headerEnds(line) {
			break
		}
		switch {
		case constraint.IsGoBuild(line):
			if x, err := constraint.Parse(line); err == nil {
				return x
			}
		case constraint.IsPlusBuild(line):
			if x, err := constraint.Parse(line); err == nil {
				plus = andExpr(plus, x)
			}
		}
	}
	return plus
}

// headerEnds reports whether the (trimmed) line ends a Go file's header, where its build
// constraints are: the package clause, or any line but a blank one or a comment.
func headerEnds(line string) bool {
	return strings.HasPrefix(line, "package ") || line != "" && !strings.HasPrefix(line, "//") && !strings.HasPrefix(line, "/*") && !strings.HasPrefix(line, "*")
}

func andExpr(a, b constraint.Expr) constraint.Expr {
	if a == nil {
		return b
	}
	return &constraint.AndExpr{X: a, Y: b}
}

// nameOSArch returns the GOOS and GOARCH a file name restricts the file to, as go/build
// reads them: name_GOOS.go, name_GOARCH.go, name_GOOS_GOARCH.go (and _test before .go).
func nameOSArch(name string) (goos, arch string) {
	name = strings.TrimSuffix(strings.TrimSuffix(name, path.Ext(name)), "_test")
	i := strings.IndexByte(name, '_')
	if i < 0 {
		return "", ""
	}
	parts := strings.Split(name[i:], "_") // the part before the first underscore never counts
	n := len(parts)
	if n >= 2 && slices.Contains(knownOS, parts[n-2]) && slices.Contains(knownArch, parts[n-1]) {
		return parts[n-2], parts[n-1]
	}
	if slices.Contains(knownOS, parts[n-1]) {
		return parts[n-1], ""
	}
	if slices.Contains(knownArch, parts[n-1]) {
		return "", parts[n-1]
	}
	return "", ""
}

// config is a build configuration as the resolver chooses it: GOOS and GOARCH always
// set, custom tags, and the Go release whose release tags hold (0: the installed
// toolchain's, whose go1.1 … go1.N tags all hold).
type config struct {
	load.Build
	release int
}

// host is the build configuration the loader uses by default.
var host = config{Build: load.Build{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH}}

// platform is what configurations are chosen against: the supported ports ("GOOS/GOARCH")
// and whether cgo is on for host builds (as `go env CGO_ENABLED` says: the user's setting,
// else whether a C compiler is there).
type platform struct {
	ports map[string]bool
	cgo   bool
}

// isHost reports whether c builds for the host's port.
func (c config) isHost() bool { return c.GOOS == host.GOOS && c.GOARCH == host.GOARCH }

// matches reports whether the file is built in configuration c, on a host where cgo is
// on or not.
func (fc fileConstraint) matches(c config, cgo bool) bool {
	if fc.goos != "" && !osMatches(fc.goos, c.GOOS) || fc.arch != "" && fc.arch != c.GOARCH {
		return false
	}
	return fc.expr == nil || fc.expr.Eval(func(tag string) bool { return tagHolds(tag, c, cgo) })
}

// osMatches reports whether GOOS goos satisfies the GOOS tag want (android builds linux
// files, ios darwin files, illumos solaris files).
func osMatches(want, goos string) bool {
	return want == goos || want == "linux" && goos == "android" || want == "darwin" && goos == "ios" || want == "solaris" && goos == "illumos"
}

// tagHolds evaluates one build tag in configuration c, as the go command would: cgo only
// on the host's port, where the loader leaves it as the user has it (load.Build.env turns
// it off for other ports); release tags as release c.release would set them.
func tagHolds(tag string, c config, cgo bool) bool {
	switch {
	case slices.Contains(knownOS, tag):
		return osMatches(tag, c.GOOS)
	case slices.Contains(knownArch, tag):
		return tag == c.GOARCH
	case tag == "unix":
		return slices.Contains(unixOS, c.GOOS)
	case tag == "gc":
		return true
	case tag == "cgo":
		return cgo && c.isHost()
	case slices.Contains(build.Default.ReleaseTags, tag):
		minor, _ := releaseMinor(tag)
		return c.release == 0 || minor <= c.release
	}
	return slices.Contains(c.Tags, tag)
}

// releaseMinor returns N of a release tag go1.N.
func releaseMinor(tag string) (int, bool) {
	rest, ok := strings.CutPrefix(tag, "go1.")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil && n > 0
}

// maxCustomTags bounds the custom tags whose combinations buildFor tries.
const maxCustomTags = 6

// buildFor returns a configuration that builds the file, preferring the host's GOOS and
// GOARCH, the fewest custom tags and the installed release; ok is false when there is
// none the toolchain can type-check (the tag "ignore", by convention never built, or an
// unsatisfiable constraint). An older release is tried for a file only an older
// toolchain builds (//go:build !go1.21, a fallback for releases before 1.21).
func buildFor(fc fileConstraint, plat platform) (config, bool) {
	tags := exprTags(fc.expr)
	if slices.Contains(tags, "ignore") {
		return config{}, false
	}
	custom := customTags(tags)
	releases := olderReleases(tags)
	for _, goos := range candidates(host.GOOS, fc.goos, tags, knownOS) {
		for _, arch := range candidates(host.GOARCH, fc.arch, tags, knownArch) {
			if !plat.ports[goos+"/"+arch] {
				continue
			}
			for _, set := range subsets(custom) {
				for _, rel := range releases {
					c := config{Build: load.Build{GOOS: goos, GOARCH: arch, Tags: set}, release: rel}
					if fc.matches(c, plat.cgo) {
						return c, true
					}
				}
			}
		}
	}
	return config{}, false
}

// olderReleases lists the releases to try: the installed one (0), then for each release
// tag go1.N the expression names, newest first, release N-1 (the last one without it).
func olderReleases(tags []string) []int {
	out := []int{0}
	var older []int
	for _, t := range tags {
		if n, ok := releaseMinor(t); ok && n > 1 && slices.Contains(build.Default.ReleaseTags, t) {
			older = append(older, n-1)
		}
	}
	slices.Sort(older)
	slices.Reverse(older)
	return append(out, slices.Compact(older)...)
}

// customTags returns the tags that are set with -tags: not GOOS, GOARCH, release, compiler
// or cgo tags (at most maxCustomTags of them).
func customTags(tags []string) []string {
	var custom []string
	for _, t := range tags {
		switch {
		case slices.Contains(knownOS, t), slices.Contains(knownArch, t), slices.Contains(build.Default.ReleaseTags, t),
			t == "unix", t == "gc", t == "gccgo", t == "cgo", strings.HasPrefix(t, "goexperiment."):
		case len(custom) < maxCustomTags:
			custom = append(custom, t)
		}
	}
	return custom
}

// candidates lists the values to try for GOOS or GOARCH: the one the file name fixes,
// else the host's, then those the expression names, then every known one.
func candidates(hostVal, fixed string, tags, known []string) []string {
	if fixed != "" {
		return []string{fixed}
	}
	out := []string{hostVal}
	for _, t := range append(slices.Clone(tags), known...) {
		if slices.Contains(known, t) && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// subsets returns the subsets of tags, smallest first.
func subsets(tags []string) [][]string {
	var out [][]string
	for size := 0; size <= len(tags); size++ {
		for mask := 0; mask < 1<<len(tags); mask++ {
			if bitCount(mask) != size {
				continue
			}
			var set []string
			for i, t := range tags {
				if mask&(1<<i) != 0 {
					set = append(set, t)
				}
			}
			out = append(out, set)
		}
	}
	return out
}

func bitCount(x int) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// exprTags lists the tags an expression mentions, in order, once each.
func exprTags(x constraint.Expr) []string {
	var out []string
	var walk func(constraint.Expr)
	walk = func(x constraint.Expr) {
		switch x := x.(type) {
		case *constraint.TagExpr:
			if !slices.Contains(out, x.Tag) {
				out = append(out, x.Tag)
			}
		case *constraint.NotExpr:
			walk(x.X)
		case *constraint.AndExpr:
			walk(x.X)
			walk(x.Y)
		case *constraint.OrExpr:
			walk(x.X)
			walk(x.Y)
		}
	}
	if x != nil {
		walk(x)
	}
	return out
}

// hostCgo reports whether cgo is on for host builds of the module at dir; it asks the go
// command only when a changed file's constraint names cgo (false otherwise, unasked).
func hostCgo(p *lang.Request, loader *load.Loader, dir string, u *unit) bool {
	for _, f := range u.goFiles {
		if f.Head != nil && slices.Contains(exprTags(headerExpr(f.Head)), "cgo") {
			return loader.CgoEnabled(p.Context, dir)
		}
	}
	return false
}
