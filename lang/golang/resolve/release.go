package resolve

import (
	"bytes"
	"go/build/constraint"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentverify/agentverify/lang/golang/load"
)

// newerRelease is the tag that stands for a release tag an older release does not set:
// no build sets it.
const newerRelease = "agentverify_newer_release"

// releaseView returns req as release go1.rel would see the directories of its files: the
// go command of the installed toolchain sets every release tag it knows, so a file for
// older releases (//go:build !go1.21) is in none of its builds and the file for newer ones
// is. Each Go file of those directories whose constraint names a release tag newer than
// rel is overlaid with that tag replaced by one no build sets, on the same line (positions
// do not move). Packages outside those directories are built as the installed toolchain
// builds them.
func releaseView(req load.Request, rel int) load.Request {
	over := make(map[string][]byte, len(req.Overlay))
	for p, b := range req.Overlay {
		over[p] = b
	}
	dirs := map[string]bool{}
	for _, f := range req.Files {
		dirs[filepath.Dir(f)] = true
	}
	for dir := range dirs {
		ents, _ := os.ReadDir(dir)
		names := map[string]bool{}
		for _, e := range ents {
			names[filepath.Join(dir, e.Name())] = true
		}
		for p := range over {
			if filepath.Dir(p) == dir {
				names[p] = true
			}
		}
		for p := range names {
			if !strings.HasSuffix(p, ".go") || slices.Contains(req.Absent, p) {
				continue
			}
			src, ok := over[p]
			if !ok {
				src, _ = os.ReadFile(p)
			}
			if out, changed := asRelease(src, rel); changed {
				over[p] = out
			}
		}
	}
	req.Overlay = over
	return req
}

// asRelease returns src with the release tags of its build constraint that release go1.rel
// does not set replaced by newerRelease; changed is false when there are none. The
// //go:build line is rewritten in place; a file with only // +build lines gets the
// //go:build line in place of its first one (the go command then reads that alone).
func asRelease(src []byte, rel int) (out []byte, changed bool) {
	x := headerExpr(src)
	if x == nil || !renameNewer(x, rel) {
		return nil, false
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	at := constraintIndex(lines)
	if at < 0 {
		return nil, false
	}
	nl := ""
	if bytes.HasSuffix(lines[at], []byte("\n")) {
		nl = "\n"
	}
	lines[at] = []byte("//go:build " + x.String() + nl)
	return bytes.Join(lines, nil), true
}

// renameNewer replaces, in x, each release tag newer than go1.rel by newerRelease, and
// reports whether there was one.
func renameNewer(x constraint.Expr, rel int) bool {
	switch x := x.(type) {
	case *constraint.TagExpr:
		if n, ok := releaseMinor(x.Tag); ok && n > rel {
			x.Tag = newerRelease
			return true
		}
	case *constraint.NotExpr:
		return renameNewer(x.X, rel)
	case *constraint.AndExpr:
		a, b := renameNewer(x.X, rel), renameNewer(x.Y, rel)
		return a || b
	case *constraint.OrExpr:
		a, b := renameNewer(x.X, rel), renameNewer(x.Y, rel)
		return a || b
	}
	return false
}

// constraintIndex returns the index of the line to hold the file's //go:build line: its
// //go:build line, else its first // +build line, in the header; -1 when there is none.
func constraintIndex(lines [][]byte) int {
	plus := -1
	for i, l := range lines {
		line := strings.TrimSpace(string(l))
		switch {
		case constraint.IsGoBuild(line):
			return i
		case constraint.IsPlusBuild(line) && plus < 0:
			plus = i
		case strings.HasPrefix(line, "package "):
			return plus
		}
	}
	return plus
}
