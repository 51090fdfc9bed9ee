package resolve

import (
	"bytes"
	"go/build/constraint"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/agentverify/agentverify/lang/golang/load"
)

// newerRelease prefixes the tag that stands for a release tag an older release does not
// set ("agentverify_go1.22" for go1.22): no build sets it, and each release keeps a tag of
// its own, so that the lines of a file still say what they said to each other.
const newerRelease = "agentverify_"

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

// asRelease returns src with the release tags of its build constraint lines that release
// go1.rel does not set renamed (newerRelease); changed is false when there are none. Every
// constraint line of the header is rewritten in place, the //go:build line and the
// // +build lines alike: the file stays as consistent as it was (go vet's buildtag reads
// the rewrite), whichever line the go command reads.
func asRelease(src []byte, rel int) (out []byte, changed bool) {
	lines := bytes.SplitAfter(src, []byte("\n"))
	for i, l := range lines {
		line := strings.TrimSpace(string(l))
		if headerEnds(line) {
			break
		}
		if constraint.IsGoBuild(line) || constraint.IsPlusBuild(line) {
			if r := renameNewer(l, rel); r != nil {
				lines[i], changed = r, true
			}
		}
	}
	if !changed {
		return nil, false
	}
	return bytes.Join(lines, nil), true
}

// renameNewer returns line with each release tag newer than go1.rel prefixed by
// newerRelease, or nil when it names none.
func renameNewer(line []byte, rel int) []byte {
	isTag := func(r rune) bool { return r == '_' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r) }
	var out []byte
	changed := false
	for len(line) > 0 {
		n := bytes.IndexFunc(line, func(r rune) bool { return !isTag(r) })
		if n < 0 {
			n = len(line)
		}
		if n == 0 {
			out, line = append(out, line[0]), line[1:]
			continue
		}
		if m, ok := releaseMinor(string(line[:n])); ok && m > rel {
			out, changed = append(out, newerRelease...), true
		}
		out, line = append(out, line[:n]...), line[n:]
	}
	if !changed {
		return nil
	}
	return out
}
