package lspclient

import (
	"context"
	"crypto/sha256"
	"io/fs"
	"os"
	"time"
)

type stamp struct {
	mod  time.Time
	size int64
}

// scan returns the stamps of the watched files under the root.
func scan(cfg *Config) map[string]stamp {
	out := map[string]stamp{}
	fsys := os.DirFS(cfg.Root)
	_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil // a directory that vanished or cannot be read: nothing to report
		case d.IsDir() && p != "." && cfg.SkipDir(fsys, p):
			return fs.SkipDir
		case d.IsDir() || !d.Type().IsRegular() || !cfg.Watched(p):
			return nil
		}
		if info, err := d.Info(); err == nil {
			out[p] = stamp{info.ModTime(), info.Size()}
		}
		return nil
	})
	return out
}

// LSP FileChangeType values.
const (
	created = 1
	changed = 2
	deleted = 3
)

// watch tells the server which files changed on disk since the last check: a file
// changed by a commit, a checkout or an accepted edit must not be seen as it was.
func (s *server) watch(ctx context.Context) error {
	now := scan(&s.cfg)
	var changes []map[string]any
	event := func(p string, typ int) { changes = append(changes, map[string]any{"uri": s.uri(p), "type": typ}) }
	for p, st := range now {
		old, ok := s.stamps[p]
		switch {
		case !ok:
			event(p, created)
		case old != st:
			event(p, changed)
		}
	}
	for p := range s.stamps {
		if _, ok := now[p]; !ok {
			event(p, deleted)
		}
	}
	s.stamps = now
	if len(changes) == 0 {
		return nil
	}
	return s.conn.Notify(ctx, "workspace/didChangeWatchedFiles", map[string]any{"changes": changes})
}

// sync makes the server's open documents exactly paths, with the given content.
func (s *server) sync(ctx context.Context, paths []string, files map[string][]byte) error {
	uris := map[string]bool{}
	for _, p := range paths {
		uris[s.uri(p)] = true
	}
	for uri := range s.open {
		if !uris[uri] {
			delete(s.open, uri)
			if err := s.conn.Notify(ctx, "textDocument/didClose", map[string]any{"textDocument": map[string]string{"uri": uri}}); err != nil {
				return err
			}
		}
	}
	s.version++
	for _, p := range paths {
		uri := s.uri(p)
		sum := sha256.Sum256(files[p])
		old, open := s.open[uri]
		if open && old == sum {
			// The server has this text: any change on disk since has been reported
			// (watch), so its diagnostics are current, and an update would only make it
			// discard what it inferred and check the file again.
			continue
		}
		var err error
		if open {
			err = s.conn.Notify(ctx, "textDocument/didChange", map[string]any{
				"textDocument":   map[string]any{"uri": uri, "version": s.version},
				"contentChanges": []map[string]string{{"text": string(files[p])}},
			})
		} else {
			doc := map[string]any{"uri": uri, "languageId": s.cfg.LanguageID(p), "version": s.version, "text": string(files[p])}
			err = s.conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": doc})
		}
		if err != nil {
			return err
		}
		s.open[uri] = sum
	}
	return nil
}
