package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentverify/agentverify/lazyregexp"
)

// Oracle statuses.
const (
	passes       = "pass"    // go build ./... && go vet ./... exit 0
	compileFails = "compile" // a package or test does not compile
	vetFails     = "vet"     // everything compiles; a vet analyzer reports something
	envFails     = "env"     // the toolchain could not run here (go.sum, modules, toolchain)
)

// oracle is what the Go toolchain says about a tree.
type oracle struct {
	Status string `json:"status"`
	Output string `json:"output,omitempty"` // the failing command's output, shortened
}

// goEnv is the environment every go command of the measurement runs with: the installed
// toolchain, never a download of another.
func goEnv(extra ...string) []string {
	return append(append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS="), extra...)
}

// goRun runs the go command in dir; it returns the combined output and whether it exited 0.
func goRun(ctx context.Context, dir string, env []string, args ...string) (string, bool) {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err == nil
}

// downloadModules warms the module cache with what go.mod requires at the checked-out
// tree (failures show in the oracle).
func downloadModules(ctx context.Context, dir string) {
	goRun(ctx, dir, goEnv(), "mod", "download")
}

// downloadModulesAt warms the module cache with what go.mod requires at revision rev of
// the repository at dir: the base of a change that bumps a requirement needs the old
// version, which agentverify reads to tell the base's findings (it fetches nothing).
func downloadModulesAt(ctx context.Context, dir, rev string) {
	tmp, err := os.MkdirTemp("", "precision-mod-")
	if err != nil {
		return
	}
	defer os.RemoveAll(tmp)
	for _, name := range []string{"go.mod", "go.sum"} {
		if content, err := git(ctx, dir, "show", rev+":"+name); err == nil {
			os.WriteFile(filepath.Join(tmp, name), []byte(content+"\n"), 0o644)
		}
	}
	goRun(ctx, tmp, goEnv(), "mod", "download")
}

// oracleAt runs the oracle on the working tree at dir, whose tree hash is tree.
func (m *measure) oracleAt(ctx context.Context, dir, tree string) oracle {
	if o, ok := m.oracles[tree]; ok {
		return o
	}
	o := runOracle(ctx, dir, goEnv(), []string{"./..."})
	m.oracles[tree] = o
	return o
}

// runOracle runs go build and go vet over patterns with env.
func runOracle(ctx context.Context, dir string, env []string, patterns []string, flags ...string) oracle {
	build := append(append([]string{"build"}, flags...), patterns...)
	if out, ok := goRun(ctx, dir, env, build...); !ok {
		return oracle{Status: classify(out, true), Output: shorten(out)}
	}
	vet := append(append([]string{"vet"}, flags...), patterns...)
	if out, ok := goRun(ctx, dir, env, vet...); !ok {
		return oracle{Status: classify(out, false), Output: shorten(out)}
	}
	return oracle{Status: passes}
}

// envFailure matches what says the toolchain could not run, not that the code is wrong.
var envFailure = lazyregexp.New(`missing go\.sum entry|updates to go\.mod needed|go\.mod requires go >=|` +
	`toolchain not available|cannot find module providing|no required module provides|module lookup disabled|` +
	`dial tcp|verifying .*: checksum mismatch|invalid version|unknown revision|go: inconsistent vendoring`)

// classify names the failure in out: a compile failure when go build failed or go vet
// could not type-check ("vet: …" lines), a vet finding otherwise.
func classify(out string, fromBuild bool) string {
	if envFailure.MatchString(out) {
		return envFails
	}
	if fromBuild {
		return compileFails
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "vet: ") || strings.Contains(l, "[setup failed]") {
			return compileFails
		}
	}
	if strings.Contains(out, "[build failed]") {
		return compileFails
	}
	return vetFails
}

func shorten(s string) string {
	const max = 2000
	if len(s) > max {
		return s[:max] + "…"
	}
	return s
}

// buildConfig matches the build configuration a finding names: "built for GOOS=x
// GOARCH=y[ -tags=a,b]".
var buildConfig = lazyregexp.New(`built for GOOS=(\S+) GOARCH=(\S+)(?: -tags=(\S+))?`)

// confirm runs the oracle for the package directory pkgDir in the configuration named by
// a finding's message, and reports whether it fails to compile there too.
func confirm(ctx context.Context, dir, pkgDir, config string) bool {
	m := buildConfig.FindStringSubmatch(config)
	if m == nil {
		return false
	}
	env := goEnv("GOOS="+m[1], "GOARCH="+m[2])
	if m[1] != hostGOOS() || m[2] != hostGOARCH() {
		env = append(env, "CGO_ENABLED=0")
	}
	var flags []string
	if tags := strings.TrimSuffix(m[3], ")"); tags != "" {
		flags = append(flags, "-tags="+strings.TrimRight(tags, ",.;:)"))
	}
	o := runOracle(ctx, dir, env, []string{"./" + pkgDir}, flags...)
	return o.Status == compileFails
}
