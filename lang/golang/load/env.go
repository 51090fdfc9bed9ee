package load

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"

	"github.com/agentverify/agentverify/lang/golang/goenv"
)

// Env returns the environment `go list` runs with for a module at dir: no network, no
// toolchain switch, no go.mod rewrite. The -mod flag is the one the go command would use
// by itself, except that it never writes: -mod=vendor when the user asked for it or the
// module vendors its dependencies (vendor/modules.txt and go ≥ 1.14, or a workspace's
// vendor directory), else -mod=readonly.
func (l *Loader) Env(dir string) []string {
	env := append(os.Environ(), l.env...)
	var flags []string
	userMod := ""
	for _, f := range strings.Fields(goenv.Last(env, "GOFLAGS")) {
		if v, ok := cutModFlag(f); ok {
			userMod = v
			continue
		}
		flags = append(flags, f)
	}
	flags = append(flags, "-mod="+modMode(dir, userMod, goenv.Last(env, "GOWORK")))
	env = append(env, "GOPROXY=off", "GOTOOLCHAIN=local", "GOFLAGS="+strings.Join(flags, " "))
	return env
}

// cutModFlag returns the value of a -mod flag.
func cutModFlag(f string) (string, bool) {
	f = strings.TrimPrefix(f, "-")
	v, ok := strings.CutPrefix(f, "-mod=")
	if !ok {
		v, ok = strings.CutPrefix(f, "mod=")
	}
	return v, ok
}

// modMode decides the -mod value for a module at dir.
func modMode(dir, userMod, gowork string) string {
	if userMod == "vendor" {
		return "vendor"
	}
	if work := workFile(dir, gowork); work != "" {
		if fileExists(filepath.Join(filepath.Dir(work), "vendor", "modules.txt"), nil) {
			return "vendor"
		}
		return "readonly"
	}
	if fileExists(filepath.Join(dir, "vendor", "modules.txt"), nil) && goAtLeast(filepath.Join(dir, "go.mod"), "v1.14") {
		return "vendor"
	}
	return "readonly"
}

// workFile returns the go.work file that applies to dir, as the go command finds it.
func workFile(dir, gowork string) string {
	switch {
	case gowork == "off":
		return ""
	case gowork != "":
		return gowork
	}
	for d := dir; ; {
		if p := filepath.Join(d, "go.work"); fileExists(p, nil) {
			return p
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// goAtLeast reports whether the go directive of the go.mod at path is at least v (as a
// semver "v1.14").
func goAtLeast(path, v string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	mf, err := modfile.ParseLax(path, data, nil)
	if err != nil || mf.Go == nil {
		return false
	}
	return semver.Compare("v"+mf.Go.Version, v) >= 0
}

// Vendored reports whether `go list` builds the module at dir from its vendor directory
// (Env's -mod=vendor): nothing is then fetched for it.
func (l *Loader) Vendored(dir string) bool {
	return strings.Contains(goenv.Last(l.Env(dir), "GOFLAGS"), "-mod=vendor")
}

// CgoEnabled reports whether cgo is on for host builds of the module at dir, as the go
// command decides it: CGO_ENABLED from the environment or the go env file, else whether a
// C compiler is found.
func (l *Loader) CgoEnabled(ctx context.Context, dir string) bool {
	cmd := exec.CommandContext(ctx, "go", "env", "CGO_ENABLED")
	cmd.Dir, cmd.Env = dir, l.Env(dir)
	out, err := cmd.Output()
	return err == nil && strings.TrimSpace(string(out)) == "1"
}
