package resolve

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentverify/agentverify/lang/typescript/tsc"
)

// The batch compiler runs incrementally: each check of a project starts from the
// compiler's own record of the last check of the same project under the same options
// (its .tsbuildinfo: every file's content hash, declaration signature and diagnostics),
// kept in the user's cache directory. The compiler re-checks only the files whose
// content changed and, when a file's declarations changed, the files that import it;
// the others' diagnostics it replays from the record. So a one-file diff of a large
// project costs about a re-parse, not a whole check, from the second run on. Files are
// matched by content hash, not by time, so a stale record is never believed; the
// record is the compiler's, written by it, never read by agentverify.
//
// The record's paths are relative to where it lies, so a check in place keeps it in the
// cache directory (the repository stays untouched) and a check over a mirror of the
// head (tree.go) copies it into the mirror, whose temporary name then does not matter.

// buildInfo is one check's incremental record: cache is where it is kept between
// checks, work where the compiler reads and writes it during this one.
type buildInfo struct{ cache, work string }

// buildInfoDir is where the records are kept: beside the result cache, in its directory
// when $AGENTVERIFY_CACHE_DIR names one (resultcache.EnvDir; a directory an agent cannot
// write keeps its records out of the agent's reach too, docs/security.md §8), else in
// the user's cache directory; "" (no record kept) when there is none.
func buildInfoDir() string {
	if d := os.Getenv("AGENTVERIFY_CACHE_DIR"); d != "" {
		return filepath.Join(d, "tsc")
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "agentverify", "tsc")
}

// incremental sets, in the wrapper configuration w the compiler runs with over dir (the
// repository, or a mirror of its head), an
// incremental record of its own, copied from the cache when one is there; nil when
// none can be kept or the verification is to be computed afresh (--no-cache,
// lang.Request.Fresh: the compiler checks every file, and no record is read or kept). The record is named by what the check's outcome depends on besides
// the files' content: the compiler, the repository, whether the check runs in place,
// and the options (the changed files left out, so that each new edit finds the record
// of the last).
//
// TypeScript 7.0.2 does not re-check the files that use a global a changed script
// declares (a file without imports or exports): the record replays their diagnostics. So
// the record is named by the content of every file of the project that may declare
// globals too (globalRoots), and a change to one starts from no record.
func (j *job) incremental(tool *tsc.Tool, dir string, mirror bool, w map[string]any, g *group) *buildInfo {
	cacheDir := buildInfoDir()
	if j.req.Fresh || cacheDir == "" || os.MkdirAll(cacheDir, 0o700) != nil {
		return nil
	}
	globals, ok := j.globalsHash(g)
	if !ok {
		return nil
	}
	files := w["files"]
	delete(w, "files")
	shape, err := json.Marshal(w)
	w["files"] = files
	if err != nil {
		return nil
	}
	place := dir
	if mirror {
		place = "\x00mirror"
		shape = bytes.ReplaceAll(shape, []byte(dir), []byte(place))
	}
	h := sha256.New()
	for _, s := range []string{tool.Exe, tool.Version, j.req.Changes.Root, place} {
		h.Write([]byte(s + "\x00"))
	}
	h.Write(shape)
	h.Write(globals)
	bi := &buildInfo{cache: filepath.Join(cacheDir, hex.EncodeToString(h.Sum(nil))[:32]+".tsbuildinfo")}
	if !mirror {
		f, err := os.CreateTemp(cacheDir, "run-*.tsbuildinfo")
		if err != nil {
			return nil
		}
		f.Close()
		bi.work = f.Name()
	} else {
		bi.work = filepath.Join(dir, ".agentverify.tsbuildinfo")
	}
	if data, err := os.ReadFile(bi.cache); err == nil {
		_ = os.WriteFile(bi.work, data, 0o600)
	} else {
		_ = os.Remove(bi.work) // an empty record does not read: start without one
	}
	opts := w["compilerOptions"].(map[string]any)
	opts["incremental"], opts["tsBuildInfoFile"] = true, bi.work
	return bi
}

// keep puts the record the compiler wrote in the cache, whole (a rename: a concurrent
// check reads the old record or the new one), or drops it when the check failed.
func (bi *buildInfo) keep(ok bool) {
	if bi == nil {
		return
	}
	if ok && copyInto(bi.work, bi.cache) == nil {
		trim(filepath.Dir(bi.cache), time.Now())
	}
	_ = os.Remove(bi.work)
}

// unusedFor is how long a record may go unused before trim removes it: a record serves
// one repository and options, and repositories come and go.
const unusedFor = 30 * 24 * time.Hour

// trim removes the records of dir unused for unusedFor, and what a run that died left
// behind (its private copy) after a day. A record is touched each time it is written.
func trim(dir string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !strings.HasSuffix(e.Name(), ".tsbuildinfo") {
			continue
		}
		age := now.Sub(info.ModTime())
		if age > unusedFor || age > 24*time.Hour && (strings.HasPrefix(e.Name(), "run-") || strings.HasPrefix(e.Name(), "new-")) {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// copyInto replaces dst by src's content through a temporary file beside dst.
func copyInto(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(dst), "new-*.tsbuildinfo")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), dst)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// globalsHash hashes the paths and head content of the files of g's project that may
// declare globals; ok is false when they cannot be read.
func (j *job) globalsHash(g *group) ([]byte, bool) {
	h := sha256.New()
	if g.config == nil {
		return h.Sum(nil), true
	}
	fsys := j.headFS()
	roots, ok := g.roots, g.narrow
	if !ok {
		roots, ok = globalRoots(fsys, g)
	}
	for _, p := range roots {
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, false
		}
		h.Write([]byte(p + "\x00"))
		h.Write(data)
	}
	return h.Sum(nil), ok
}
