package modfetch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
)

// result is one module of `go mod download -json` or `go list -m -json`.
type result struct {
	Path, Version string
	Zip           string
	Time          *time.Time
	Versions      []string
	// Error is a string for `go mod download`, {"Err": "..."} for `go list -m`.
	Error json.RawMessage
}

// err returns the module's error message, or "".
func (r result) err() string {
	if len(r.Error) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(r.Error, &s) == nil {
		return s
	}
	var obj struct{ Err string }
	if json.Unmarshal(r.Error, &obj) == nil {
		return obj.Err
	}
	return string(r.Error)
}

// run runs the go command in dir with env and returns the JSON objects it printed and the
// problems it reported on standard error (progress lines left out). A failing exit is no
// error here (the objects and lines say what failed); a go command that cannot run, or a
// cancelled context, is.
func run(ctx context.Context, dir string, env []string, args ...string) ([]result, []string, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return nil, nil, &toolError{fmt.Errorf("go %s: %w", args[0], err)}
	}
	var out []result
	dec := json.NewDecoder(&stdout)
	for {
		var r result
		if err := dec.Decode(&r); err == io.EOF {
			break
		} else if err != nil {
			return nil, nil, &toolError{fmt.Errorf("go %s: reading its output: %w", strings.Join(args, " "), err)}
		}
		out = append(out, r)
	}
	if err == nil {
		return out, nil, nil // what it says on standard error is progress and notes
	}
	var problems []string
	for _, l := range strings.Split(stderr.String(), "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "go: downloading ") && !strings.HasPrefix(l, "go: finding ") {
			problems = append(problems, l)
		}
	}
	if len(problems) == 0 && !anyError(out) {
		problems = append(problems, err.Error())
	}
	return out, problems, nil
}

func anyError(rs []result) bool {
	for _, r := range rs {
		if r.err() != "" {
			return true
		}
	}
	return false
}

// scratchModule writes a copy of a module's go.mod and go.sum into a new temporary
// directory, for go commands that must not write the user's files: directory
// replacements are made absolute, relative to the module's real directory dir. It
// returns the directory and a function removing it.
func scratchModule(dir string, goMod, goSum []byte) (string, func(), error) {
	mf, err := modfile.Parse("go.mod", goMod, nil)
	if err != nil {
		return "", nil, err
	}
	for _, r := range mf.Replace {
		if r.New.Version == "" && !filepath.IsAbs(r.New.Path) {
			if err := mf.AddReplace(r.Old.Path, r.Old.Version, filepath.Join(dir, filepath.FromSlash(r.New.Path)), ""); err != nil {
				return "", nil, err
			}
		}
	}
	data, err := mf.Format()
	if err != nil {
		return "", nil, err
	}
	return scratchDir(map[string][]byte{"go.mod": data, "go.sum": goSum})
}

// scratchDir returns a new temporary directory holding files, and a function removing it.
func scratchDir(files map[string][]byte) (string, func(), error) {
	tmp, err := os.MkdirTemp("", "agentverify-modfetch-")
	if err != nil {
		return "", nil, err
	}
	done := func() { _ = os.RemoveAll(tmp) }
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(tmp, name), data, 0o600); err != nil {
			done()
			return "", nil, err
		}
	}
	return tmp, done, nil
}

// oneLine joins a message's lines and spaces into one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
