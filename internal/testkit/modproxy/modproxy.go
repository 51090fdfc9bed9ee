// Package modproxy builds Go module proxies for tests: the given module versions as the
// go command's proxy protocol serves them (version lists, .info with a publication time,
// .mod, .zip), in a directory for GOPROXY=file://…, and over HTTP on 127.0.0.1 together
// with a checksum database that signs exactly those modules (GOSUMDB). Nothing is mocked:
// the go command downloads and verifies them as it would from proxy.golang.org and
// sum.golang.org.
package modproxy

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
	"golang.org/x/mod/sumdb"
	"golang.org/x/mod/sumdb/dirhash"
	"golang.org/x/mod/sumdb/note"
	modzip "golang.org/x/mod/zip"
)

// Module is one version of a module the proxy serves.
type Module struct {
	Path, Version string
	// Time is the version's publication time (.info); zero means 2020-01-01.
	Time time.Time
	// Files are the module's files by slash-separated path; a go.mod is added when
	// there is none ("module Path" at go 1.21).
	Files map[string]string
}

// Proxy is a module proxy and checksum database for tests.
type Proxy struct {
	// Dir holds the proxy's files: GOPROXY=file://Dir (see FileURL).
	Dir string
	// URL is the proxy over HTTP (GOPROXY=URL), and SumDB the GOSUMDB value of its
	// checksum database.
	URL, SumDB string
	sums       map[string][]byte // "path version" → its two go.sum lines
}

// New writes the modules into a proxy directory and starts the HTTP proxy and checksum
// database, stopped when the test ends.
func New(tb testing.TB, mods ...Module) *Proxy {
	tb.Helper()
	p := &Proxy{Dir: tb.TempDir(), sums: map[string][]byte{}}
	versions := map[string][]string{}
	for _, m := range mods {
		if err := p.add(tb, m); err != nil {
			tb.Fatalf("module %s@%s: %v", m.Path, m.Version, err)
		}
		versions[m.Path] = append(versions[m.Path], m.Version)
	}
	for path, vs := range versions {
		semver.Sort(vs)
		if err := os.WriteFile(filepath.Join(p.dlDir(tb, path), "list"), []byte(strings.Join(vs, "\n")+"\n"), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	p.serve(tb)
	return p
}

// FreshEnv is the environment of a machine where nothing was downloaded yet: an empty
// GOPATH and module cache (writable, so the test can remove it: -modcacherw), no
// workspace, and none of the user's exemptions from the proxy or checksum database.
// Tests add GOPROXY and GOSUMDB.
func FreshEnv(tb testing.TB) []string {
	gopath := tb.TempDir()
	return []string{"GOPATH=" + gopath, "GOMODCACHE=" + filepath.Join(gopath, "pkg", "mod"), "GOFLAGS=-modcacherw",
		"GONOSUMDB=", "GOPRIVATE=", "GONOPROXY=", "GOINSECURE=", "GOWORK=off", "GOTOOLCHAIN=local"}
}

// FileURL is the proxy as a file URL, for GOPROXY.
func (p *Proxy) FileURL() string { return "file://" + filepath.ToSlash(p.Dir) }

// GoSum returns the go.sum lines of the given module versions ("path@version").
func (p *Proxy) GoSum(versions ...string) string {
	var b strings.Builder
	for _, v := range versions {
		path, ver, _ := strings.Cut(v, "@")
		b.Write(p.sums[path+" "+ver])
	}
	return b.String()
}

func (p *Proxy) dlDir(tb testing.TB, path string) string {
	esc, err := module.EscapePath(path)
	if err != nil {
		tb.Fatal(err)
	}
	dir := filepath.Join(p.Dir, filepath.FromSlash(esc), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// add writes the .info, .mod and .zip of m and records its checksums.
func (p *Proxy) add(tb testing.TB, m Module) error {
	files := map[string]string{}
	for k, v := range m.Files {
		files[k] = v
	}
	if _, ok := files["go.mod"]; !ok {
		files["go.mod"] = fmt.Sprintf("module %s\n\ngo 1.21\n", m.Path)
	}
	when := m.Time
	if when.IsZero() {
		when = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	src := tb.TempDir()
	for name, content := range files {
		full := filepath.Join(src, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			return err
		}
	}
	var zbuf bytes.Buffer
	mv := module.Version{Path: m.Path, Version: m.Version}
	if err := modzip.CreateFromDir(&zbuf, mv, src); err != nil {
		return err
	}
	dir := p.dlDir(tb, m.Path)
	ver, err := module.EscapeVersion(m.Version)
	if err != nil {
		return err
	}
	info, _ := json.Marshal(struct {
		Version string
		Time    time.Time
	}{m.Version, when})
	for suffix, data := range map[string][]byte{".info": info, ".mod": []byte(files["go.mod"]), ".zip": zbuf.Bytes()} {
		if err := os.WriteFile(filepath.Join(dir, ver+suffix), data, 0o644); err != nil {
			return err
		}
	}
	zipHash, err := dirhash.HashZip(filepath.Join(dir, ver+".zip"), dirhash.Hash1)
	if err != nil {
		return err
	}
	modHash, err := dirhash.Hash1([]string{"go.mod"}, func(string) (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(files["go.mod"])), nil
	})
	if err != nil {
		return err
	}
	p.sums[m.Path+" "+m.Version] = fmt.Appendf(nil, "%s %s %s\n%s %s/go.mod %s\n", m.Path, m.Version, zipHash, m.Path, m.Version, modHash)
	return nil
}

// serve starts the HTTP proxy (/mod/) and checksum database (/sumdb/).
func (p *Proxy) serve(tb testing.TB) {
	// A name of its own: the go command remembers each database's latest signed tree (in
	// GOPATH/pkg/sumdb) and would reject another key's under the same name.
	skey, vkey, err := note.GenerateKey(rand.Reader, fmt.Sprintf("sumdb-%d.agentverify.test", time.Now().UnixNano()))
	if err != nil {
		tb.Fatal(err)
	}
	db := sumdb.NewTestServer(skey, func(path, vers string) ([]byte, error) {
		if s, ok := p.sums[path+" "+vers]; ok {
			return s, nil
		}
		return nil, os.ErrNotExist // the database answers 404
	})
	mux := http.NewServeMux()
	mux.Handle("/mod/", http.StripPrefix("/mod", http.FileServer(http.Dir(p.Dir))))
	mux.Handle("/sumdb/", http.StripPrefix("/sumdb", sumdb.NewServer(db)))
	srv := httptest.NewServer(mux)
	tb.Cleanup(srv.Close)
	p.URL = srv.URL + "/mod"
	p.SumDB = vkey + " " + srv.URL + "/sumdb"
}
