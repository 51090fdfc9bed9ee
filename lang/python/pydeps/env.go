package pydeps

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Dist is one installed distribution.
type Dist struct {
	// Name is the distribution's name as its metadata spells it; Key is normalised.
	Name, Key string
	// Meta is the path of its .dist-info or .egg-info.
	Meta string
}

// Env is an index of the distributions and modules installed in an environment.
type Env struct {
	// Where says which environment this is ("/p/.venv", "python3 on PATH"), for
	// messages.
	Where string
	// Dirs are the site-packages directories scanned, in order.
	Dirs []string
	// dists by key; providers by module name (top level, and two levels for namespace
	// packages: "google.protobuf"); present holds the top-level modules on disk,
	// owned by a distribution or not.
	dists     map[string]*Dist
	providers map[string][]*Dist
	present   map[string]bool
}

// Installed returns the installed distribution with the normalised name key, or nil.
func (e *Env) Installed(key string) *Dist { return e.dists[key] }

// Providers returns the installed distributions that provide module mod (dotted): those
// of its two-level prefix when a distribution claims it, else those of its top-level
// package. Found is set when the module's top-level package is installed at all, with
// metadata or without (Debian's loose modules).
func (e *Env) Providers(mod string) (dists []*Dist, found bool) {
	parts := strings.SplitN(mod, ".", 3)
	if len(parts) > 1 {
		if ds := e.providers[parts[0]+"."+parts[1]]; len(ds) > 0 {
			return ds, true
		}
	}
	return e.providers[parts[0]], e.present[parts[0]]
}

// ScanEnv indexes the site-packages directories dirs; a directory that does not exist
// is skipped.
func ScanEnv(where string, dirs []string) (*Env, error) {
	e := &Env{Where: where, dists: map[string]*Dist{}, providers: map[string][]*Dist{}, present: map[string]bool{}}
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("reading the environment: %w", err)
		}
		e.Dirs = append(e.Dirs, dir)
		for _, ent := range entries {
			e.entry(dir, ent.Name(), ent.IsDir())
		}
	}
	for k, ds := range e.providers {
		sort.Slice(ds, func(i, j int) bool { return ds[i].Key < ds[j].Key })
		e.providers[k] = ds
	}
	return e, nil
}

// entry indexes one entry of a site-packages directory.
func (e *Env) entry(dir, name string, isDir bool) {
	switch {
	case strings.HasSuffix(name, ".dist-info"), strings.HasSuffix(name, ".egg-info"):
		e.dist(filepath.Join(dir, name), isDir)
	case isDir:
		if isModuleName(name) {
			e.present[name] = true
		}
	default:
		if mod := moduleOfFile(name); mod != "" {
			e.present[mod] = true
		}
	}
}

// dist indexes one distribution's metadata: its name, and the modules its
// top_level.txt and RECORD (or installed-files.txt) name.
func (e *Env) dist(meta string, isDir bool) {
	d := &Dist{Meta: meta}
	base := filepath.Base(meta)
	stem := strings.TrimSuffix(strings.TrimSuffix(base, ".dist-info"), ".egg-info")
	d.Name, _, _ = strings.Cut(stem, "-")
	if !isDir { // an .egg-info file is PKG-INFO itself
		d.Name = firstOr(metaName(meta), d.Name)
		e.add(d)
		return
	}
	d.Name = firstOr(metaName(filepath.Join(meta, "METADATA")), metaName(filepath.Join(meta, "PKG-INFO")), d.Name)
	e.add(d)
	mods := map[string]bool{}
	for _, l := range readLines(filepath.Join(meta, "top_level.txt")) {
		if l = strings.ReplaceAll(l, "/", "."); l != "" {
			mods[l] = true
		}
	}
	for _, l := range readLines(filepath.Join(meta, "RECORD")) {
		recordModules(recordPath(l), mods)
	}
	for _, l := range readLines(filepath.Join(meta, "installed-files.txt")) {
		if rel, ok := strings.CutPrefix(filepath.ToSlash(l), "../"); ok {
			recordModules(rel, mods)
		}
	}
	for m := range mods {
		e.providers[m] = append(e.providers[m], d)
		top, _, _ := strings.Cut(m, ".")
		e.present[top] = true
	}
}

func (e *Env) add(d *Dist) {
	d.Key = Normalize(d.Name)
	if _, ok := e.dists[d.Key]; !ok {
		e.dists[d.Key] = d
	}
}

func firstOr(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// metaName reads the Name: header of a METADATA or PKG-INFO file.
func metaName(file string) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := s.Text()
		if line == "" {
			break // the headers end at the first empty line
		}
		if v, ok := strings.CutPrefix(line, "Name:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func readLines(file string) []string {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var out []string
	for _, l := range strings.Split(string(bytes.TrimSpace(data)), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// recordPath is the path field of a RECORD line (CSV: path,hash,size; a path with a
// comma is quoted).
func recordPath(line string) string {
	if strings.HasPrefix(line, `"`) {
		if end := strings.Index(line[1:], `"`); end >= 0 {
			return line[1 : end+1]
		}
	}
	p, _, _ := strings.Cut(line, ",")
	return p
}

// recordModules adds the importable modules an installed file provides: its top-level
// module, and for a file in a package directory also the two-level one.
func recordModules(p string, mods map[string]bool) {
	parts := strings.Split(p, "/")
	if len(parts) == 0 || parts[0] == ".." || strings.HasSuffix(parts[0], ".dist-info") ||
		strings.HasSuffix(parts[0], ".data") || strings.HasSuffix(parts[0], ".egg-info") || parts[0] == "__pycache__" {
		return
	}
	if len(parts) == 1 {
		if m := moduleOfFile(parts[0]); m != "" {
			mods[m] = true
		}
		return
	}
	if !isModuleName(parts[0]) {
		return
	}
	mods[parts[0]] = true
	second := parts[1]
	if len(parts) == 2 {
		second = moduleOfFile(second)
	} else if !isModuleName(second) {
		second = ""
	}
	if second != "" && second != "__init__" && second != "__pycache__" {
		mods[parts[0]+"."+second] = true
	}
}

// moduleOfFile is the module a file in a package directory defines: "six" for six.py,
// "_yaml" for _yaml.cpython-311-x86_64-linux-gnu.so; "" for other files.
func moduleOfFile(name string) string {
	for _, ext := range []string{".py", ".pyi", ".so", ".pyd"} {
		if strings.HasSuffix(name, ext) {
			stem, _, _ := strings.Cut(name, ".")
			if isModuleName(stem) {
				return stem
			}
		}
	}
	return ""
}

// isModuleName reports whether s is a Python identifier (ASCII, which covers every
// published package).
func isModuleName(s string) bool {
	if s == "" || s == "__pycache__" {
		return false
	}
	for i, r := range s {
		ok := r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9'
		if !ok {
			return false
		}
	}
	return true
}

// Locator finds the environment a project's code runs in.
type Locator struct {
	// Getenv reads the environment (os.Getenv when nil).
	Getenv func(string) string
	// Python is the interpreter asked for its sys.path when no virtual environment is
	// found ("python3" when empty).
	Python string
	// wait bounds how long the interpreter may take to answer (askTimeout when zero).
	wait time.Duration
}

// askTimeout is how long an interpreter may take to print its sys.path: it starts in
// milliseconds, so one that has not answered by then hangs or the machine is overloaded.
const askTimeout = 10 * time.Second

// Locate returns the site-packages directories of the environment for a project at
// root (absolute, on disk): the project's .venv (as uv and Poetry's in-project setting
// make it, and as pyright finds it), else the active VIRTUAL_ENV, else the sys.path of
// python3 on PATH and Debian's /usr/lib/python3/dist-packages. A virtual environment
// that includes the system site-packages gets the interpreter's too.
func (l Locator) Locate(ctx context.Context, root string) (where string, dirs []string, err error) {
	getenv := l.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	for _, venv := range []string{filepath.Join(root, ".venv"), getenv("VIRTUAL_ENV")} {
		if venv == "" {
			continue
		}
		cfg, err := os.ReadFile(filepath.Join(venv, "pyvenv.cfg"))
		if err != nil {
			continue
		}
		dirs, _ = filepath.Glob(filepath.Join(venv, "lib", "python3*", "site-packages"))
		dirs = append(dirs, filepath.Join(venv, "Lib", "site-packages"))
		where = venv
		if rel, err := filepath.Rel(root, venv); err == nil && !strings.HasPrefix(rel, "..") {
			where = filepath.ToSlash(rel) // the project's own .venv, named as its users do
		}
		if !includesSystem(cfg) {
			return where, dirs, nil
		}
		sys, err := l.sysPath(ctx)
		return where, append(dirs, sys...), err
	}
	dirs, err = l.sysPath(ctx)
	return "the environment of " + l.python() + " on PATH", dirs, err
}

func (l Locator) python() string {
	if l.Python == "" {
		return "python3"
	}
	return l.Python
}

func includesSystem(cfg []byte) bool {
	for _, line := range strings.Split(string(cfg), "\n") {
		k, v, ok := strings.Cut(line, "=")
		if ok && strings.TrimSpace(k) == "include-system-site-packages" {
			return strings.EqualFold(strings.TrimSpace(v), "true")
		}
	}
	return false
}

// sysPath asks the interpreter once for the site-packages directories on its sys.path.
// No interpreter on PATH is no error: the environment is then empty, and every
// third-party import is reported as not installed, which the messages say. An
// interpreter that fails or does not answer in time is an error that says so.
func (l Locator) sysPath(ctx context.Context) ([]string, error) {
	dirs := []string{"/usr/lib/python3/dist-packages"}
	exe, err := exec.LookPath(l.python())
	if err != nil {
		return dirs, nil
	}
	wait := l.wait
	if wait == 0 {
		wait = askTimeout
	}
	ask, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	cmd := exec.CommandContext(ask, exe, "-c", "import sys\nfor p in sys.path: print(p)")
	cmd.Dir = os.TempDir()      // sys.path[0] is the working directory: not the project's
	cmd.WaitDelay = time.Second // a child the interpreter started may hold its output open
	out, err := cmd.Output()
	if err != nil {
		return nil, interpreterError(ctx, ask, exe, wait, err)
	}
	var got []string
	for _, p := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		b := filepath.Base(p)
		if filepath.IsAbs(p) && (b == "site-packages" || b == "dist-packages") {
			got = append(got, p)
		}
	}
	return append(got, dirs...), nil
}

// interpreterError says why the interpreter exe did not print its sys.path: the
// verification's own end (ctx), the interpreter's time-out (ask), or its failure, with
// the command that shows what is wrong.
func interpreterError(ctx, ask context.Context, exe string, wait time.Duration, err error) error {
	try := fmt.Sprintf("check that `%s -c 'import sys; print(sys.path)'` answers", exe)
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("asking %s for its sys.path: %w", exe, ctx.Err())
	case ask.Err() != nil:
		return fmt.Errorf("%s did not print its sys.path within %v (the machine is overloaded or the interpreter hangs at start-up): %s", exe, wait, try)
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(bytes.TrimSpace(ee.Stderr)) > 0 {
		last := bytes.TrimSpace(ee.Stderr)
		if i := bytes.LastIndexByte(last, '\n'); i >= 0 {
			last = last[i+1:]
		}
		err = fmt.Errorf("%w: %s", err, last)
	}
	return fmt.Errorf("%s failed to print its sys.path (%v): %s", exe, err, try)
}
