// Package tsc runs the TypeScript compiler as the oracle for what exists: TypeScript 7
// (npm "typescript" 7.x, the Go-native compiler, a native executable in the
// @typescript/typescript-<os>-<arch> package it depends on), or where it is absent the
// JavaScript compiler of TypeScript 6 or 5. It runs in batch mode (`tsc -p CONFIG
// --noEmit --pretty false`, Check) for one verification and as a language server
// (`tsc --lsp --stdio`, Servers) for long-lived processes. It knows the compiler's command
// line, its diagnostics' text and the protocol; turning diagnostics into problems is the
// resolver's business.
package tsc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Version is the TypeScript release agentverify is tested with (.ci/run installs it).
const Version = "7.0.2"

// EnvVar names the environment variable that says where the compiler is: the path of a
// `tsc` command (a TypeScript 7 executable, or the tsc of TypeScript 6 or 5).
const EnvVar = "AGENTVERIFY_TSC"

// ErrNotInstalled is returned by Find when no TypeScript compiler is anywhere it looks.
var ErrNotInstalled = errors.New("TypeScript is not installed: TypeScript and JavaScript code cannot be verified without its compiler; install it with `npm install -g typescript@" + Version + "` (or `npm install -D typescript` in the project, or set " + EnvVar + " to a `tsc` command)")

// Tool is one TypeScript installation.
type Tool struct {
	// Exe is the command to run: the native executable of TypeScript 7, else the tsc
	// script of the npm package.
	Exe string
	// Version is the compiler's version ("7.0.2"), Major its major version.
	Version string
	Major   int
	// Lib is the directory of the compiler's lib.*.d.ts files.
	Lib string
}

// Native reports whether the compiler is TypeScript 7's executable, which has a
// language server (--lsp).
func (t *Tool) Native() bool { return t.Major >= 7 }

// Find locates the compiler: $AGENTVERIFY_TSC, then the project's own typescript
// package (root/node_modules), then `tsc` on PATH. TypeScript 7 wins over an older one
// found before it; an older one is used only when no TypeScript 7 is found.
func Find(root string) (*Tool, error) {
	if p := os.Getenv(EnvVar); p != "" {
		t, err := probe(p)
		if err != nil {
			return nil, fmt.Errorf("%s=%s: %w; install TypeScript with `npm install -g typescript@%s` and point %s at its `tsc`", EnvVar, p, err, Version, EnvVar)
		}
		return t, nil
	}
	var best *Tool
	for _, t := range installs(root) {
		if best == nil || t.Major >= 7 && best.Major < 7 {
			best = t
		}
	}
	if best == nil {
		return nil, ErrNotInstalled
	}
	return best, nil
}

// FindOlder returns the best TypeScript older than 7 where Find looks (the project's
// own first), for a project whose configuration TypeScript 7 refuses (options it
// removed: baseUrl, moduleResolution node10, target ES5, …); nil when there is none.
func FindOlder(root string) *Tool {
	for _, t := range installs(root, EnvVar+"_FALLBACK") {
		if t.Major < 7 {
			return t
		}
	}
	return nil
}

// installs lists the compilers of TypeScript 5 or later in the order Find looks: the
// project's own typescript package (under root), then the tsc each of the environment
// variables envs names, then `tsc` on PATH. An older one is left out, so that a
// project's TypeScript 4 does not hide a usable compiler on PATH.
func installs(root string, envs ...string) []*Tool {
	var found []*Tool
	add := func(t *Tool, err error) {
		if err == nil && t.Major >= 5 {
			found = append(found, t)
		}
	}
	if root != "" {
		add(fromPackage(filepath.Join(root, "node_modules", "typescript")))
	}
	for _, v := range envs {
		if p := os.Getenv(v); p != "" {
			add(probe(p))
		}
	}
	if p, err := exec.LookPath("tsc"); err == nil {
		add(probe(p))
	}
	return found
}

// Removed reports whether d is TypeScript 7's refusal of a configuration option it
// removed or stopped supporting.
func Removed(d Diagnostic) bool {
	return d.Code >= 5101 && d.Code <= 5110
}

// probe returns the installation whose command is cmd: an npm package's bin/tsc (found
// through its link) or any tsc that answers --version.
func probe(cmd string) (*Tool, error) {
	if _, err := os.Stat(cmd); err != nil {
		return nil, fmt.Errorf("no tsc command: %w", err)
	}
	if real, err := filepath.EvalSymlinks(cmd); err == nil && filepath.Base(filepath.Dir(real)) == "bin" {
		if t, err := fromPackage(filepath.Dir(filepath.Dir(real))); err == nil {
			return t, nil
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, cmd, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("%s --version: %w", cmd, err)
	}
	v := strings.TrimPrefix(strings.TrimSpace(string(out)), "Version ")
	t := &Tool{Exe: cmd, Version: v, Major: major(v)}
	if t.Major == 0 {
		return nil, fmt.Errorf("%s --version says %q", cmd, strings.TrimSpace(string(out)))
	}
	t.Lib = filepath.Dir(cmd)
	return t, nil
}

// fromPackage returns the installation of the npm package typescript at dir.
func fromPackage(dir string) (*Tool, error) {
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return nil, err
	}
	var pkg struct {
		Name, Version string
	}
	if err := json.Unmarshal(data, &pkg); err != nil || pkg.Name != "typescript" {
		return nil, fmt.Errorf("%s is not the typescript package", dir)
	}
	t := &Tool{Version: pkg.Version, Major: major(pkg.Version), Exe: filepath.Join(dir, "bin", "tsc"), Lib: filepath.Join(dir, "lib")}
	if t.Major >= 7 {
		exe, err := nativeExe(dir)
		if err != nil {
			return nil, err
		}
		t.Exe, t.Lib = exe, filepath.Dir(exe)
	}
	if _, err := os.Stat(t.Exe); err != nil {
		return nil, err
	}
	return t, nil
}

// nativeExe finds TypeScript 7's executable: in the platform package
// @typescript/typescript-<os>-<arch>, installed beside the typescript package or inside
// it, as the package's own getExePath looks for it.
func nativeExe(dir string) (string, error) {
	plat := "typescript-" + map[string]string{"windows": "win32"}[runtime.GOOS]
	if plat == "typescript-" {
		plat += runtime.GOOS
	}
	plat += "-" + map[string]string{"amd64": "x64", "386": "ia32"}[runtime.GOARCH]
	if strings.HasSuffix(plat, "-") {
		plat += runtime.GOARCH
	}
	name := "tsc"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	for _, base := range []string{filepath.Join(dir, "node_modules"), filepath.Dir(dir), filepath.Join(filepath.Dir(dir), "..")} {
		p := filepath.Join(base, "@typescript", plat, "lib", name)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("typescript %s at %s has no executable for this platform (@typescript/%s); reinstall it", filepath.Base(dir), dir, plat)
}

// major is the major version of a semantic version ("7.0.2" → 7), 0 when unreadable.
func major(v string) int {
	m, _, _ := strings.Cut(v, ".")
	n, _ := strconv.Atoi(m)
	return n
}

// run runs the compiler with args in dir and returns its standard output; exit status 1
// and 2 mean "errors reported" (TypeScript's DiagnosticsPresent_OutputsSkipped and
// _OutputsGenerated), anything else is a failure to check.
func (t *Tool) run(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, t.Exe, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && (exit.ExitCode() == 1 || exit.ExitCode() == 2)) {
		return nil, fmt.Errorf("tsc: %w: %s", err, firstLine(stderr.String()+stdout.String()))
	}
	return stdout.Bytes(), nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
