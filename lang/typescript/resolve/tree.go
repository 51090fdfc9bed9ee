package resolve

import (
	"bytes"
	"cmp"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/agentverify/agentverify/lang/typescript/syntax"
	"github.com/agentverify/agentverify/lang/typescript/tsc"
	"github.com/agentverify/agentverify/lazyregexp"
)

// suppression matches the compiler's suppression directives wherever they stand: the
// compiler also honours one on the last line of a block comment with nothing before it
// ("/*" on one line, " @ts-ignore */" on the next), so the comment's opening is not
// part of the pattern. One inside a string is defused too, which changes no type.
var suppression = lazyregexp.New(`@ts-(ignore|expect-error|nocheck)\b`)

// defused returns src with every suppression comment that base does not have on a line
// of the same content made inert ("@ts-ignore" becomes "@ts_ignore", same length, so
// positions hold): a suppression the change adds suppresses nothing.
func defused(src, base []byte) []byte {
	if !suppression.Match(src) {
		return src
	}
	return newLines(src, base, suppression, func(_ int, l []byte) []byte {
		return suppression.ReplaceAllFunc(l, func(m []byte) []byte {
			return bytes.Replace(m, []byte("@ts-"), []byte("@ts_"), 1)
		})
	})
}

// newLines returns src with each line that re matches and that base does not have (a
// line of the same content, each counted once) replaced by what fix makes of it (i is
// its index); src itself when there is none.
func newLines(src, base []byte, re *lazyregexp.Regexp, fix func(i int, line []byte) []byte) []byte {
	had := map[string]int{}
	for _, l := range bytes.Split(base, []byte("\n")) {
		if re.Match(l) {
			had[strings.TrimSpace(string(l))]++
		}
	}
	lines := bytes.Split(src, []byte("\n"))
	changed := false
	for i, l := range lines {
		if !re.Match(l) {
			continue
		}
		key := strings.TrimSpace(string(l))
		if had[key] > 0 {
			had[key]--
			continue
		}
		lines[i] = fix(i, l)
		changed = true
	}
	if !changed {
		return src
	}
	return bytes.Join(lines, []byte("\n"))
}

// content is what the compiler must read for each changed file of the frontend: its
// head content with added suppressions and lib references defused and what its module
// and global declarations add blanked (ambient.go, global.go), and the declarations blanked. In
// check mode there is no change and the project's suppressions and declarations are its
// own. A changed file whose declarations cannot be read is an error (fails closed).
func (j *job) content() (map[string][]byte, []vouch, error) {
	return j.contentWith(syntax.Parse)
}

// contentWith is content with the files read by parse.
func (j *job) contentWith(parse parser) (map[string][]byte, []vouch, error) {
	out := map[string][]byte{}
	if j.req.Changes.NoBase {
		for _, t := range j.targets {
			out[t.f.Path] = t.src
		}
		return out, nil, nil
	}
	pl := j.pool(parse)
	var vs []vouch
	for _, t := range j.targets {
		src, libs := unreferenced(t.f.Path, defused(t.src, t.f.Base), t.f.Base)
		src, v, err := j.unvouched(t.f.Path, src, pl)
		if err != nil {
			return nil, nil, err
		}
		out[t.f.Path] = src
		vs = append(append(vs, libs...), v...)
	}
	return out, vs, nil
}

// pool reads the base of every file the change touches (a declaration may move between
// them) and keeps the changed files' heads for what they define.
func (j *job) pool(parse parser) *pool {
	bases, heads := map[string][]byte{}, map[string][]byte{}
	for _, f := range j.req.Changes.Files {
		if f.Base != nil && !f.Binary && !f.TooLarge && !f.Symlink { // deleted ones too
			bases[cmp.Or(f.OldPath, f.Path)] = f.Base
		}
	}
	for _, t := range j.targets {
		heads[t.f.Path] = t.src
	}
	return newPool(bases, heads, parse)
}

// inPlace reports whether the compiler can read the repository itself: the disk holds
// the head tree and every changed source as the compiler must read it.
func (j *job) inPlace(content map[string][]byte) bool {
	set := j.req.Changes
	if !set.OnDisk || set.Root == "" {
		return false
	}
	for _, f := range set.Files {
		if !tsc.Watched(f.Path) && !tsc.Watched(f.OldPath) {
			continue
		}
		disk := filepath.Join(set.Root, filepath.FromSlash(f.Path))
		want, ok := content[f.Path]
		if !ok {
			want = f.Head
		}
		if !f.Analyzable() || f.Head == nil {
			if _, err := os.Lstat(disk); err == nil {
				return false // absent from the head, still on disk
			}
			continue
		}
		data, err := os.ReadFile(disk)
		if err != nil || !bytes.Equal(data, want) {
			return false
		}
	}
	return true
}

// mirror writes the head tree's sources and configuration files to a temporary
// directory, the changed files as content has them, and links the repository's
// node_modules directories in, so that the compiler checks the head without touching
// the repository. It returns the directory and its cleanup.
func (j *job) mirror(content map[string][]byte) (string, func(), error) {
	tmp, err := os.MkdirTemp("", "agentverify-tsc-")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.RemoveAll(tmp) }
	if real, err := filepath.EvalSymlinks(tmp); err == nil {
		tmp = real
	}
	set := j.req.Changes
	if set.HeadFS != nil {
		err = copyTree(set.HeadFS, tmp)
	}
	for p, data := range content {
		if err != nil {
			break
		}
		err = writeFile(filepath.Join(tmp, filepath.FromSlash(p)), data)
	}
	if err == nil && set.Root != "" {
		err = linkModules(set.Root, tmp)
	}
	if err != nil {
		cleanup()
		return "", nil, fmt.Errorf("copying the head's TypeScript files for the compiler: %w", err)
	}
	return tmp, cleanup, nil
}

// copyTree copies the files the compiler reads (tsc.Watched) from fsys to dir, hidden
// directories and node_modules left out.
func copyTree(fsys fs.FS, dir string) error {
	return fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir() && p != "." && tsc.SkipDir(p):
			return fs.SkipDir
		case d.IsDir() || !d.Type().IsRegular() || !tsc.Watched(p):
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		return writeFile(filepath.Join(dir, filepath.FromSlash(p)), data)
	})
}

func writeFile(p string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o644)
}

// linkModules links every node_modules directory of the repository at root (outside
// hidden directories, not nested in another node_modules) into dir at the same place.
func linkModules(root, dir string) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		base := d.Name()
		if p != root && strings.HasPrefix(base, ".") {
			return filepath.SkipDir
		}
		if base != "node_modules" {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.Symlink(p, target); err != nil && !os.IsExist(err) {
			return err
		}
		return filepath.SkipDir
	})
}

// slash is p relative to dir with '/' separators, "" when p is outside dir.
func slash(dir, p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return path.Clean(filepath.ToSlash(rel))
}
