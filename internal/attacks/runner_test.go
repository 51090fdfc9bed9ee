package attacks

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentverify/agentverify/internal/testkit/testrepo"
)

// defaultTimeout bounds one run; a run that takes longer has hung, and hanging is a failure
// (Claude Code lets the tool run when its hook times out).
const defaultTimeout = 120 * time.Second

// baseTime is the modification time every base file gets, so a touch-reset edit looks
// exactly like the committed file to a size+mtime cache.
var baseTime = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

// outcome is what one run produced.
type outcome struct {
	cmd  string
	exit int
	out  string // stdout and stderr (or the MCP result text, or the HTTP body)
	http int    // the HTTP status of an mcp-http run
	hung bool
}

// runner plays one script in its own repository.
type runner struct {
	t       *testing.T
	s       *script
	repo    *testrepo.Repo
	root    string
	stdin   string
	timeout time.Duration
	last    *outcome
	cache   string // XDG_CACHE_HOME of the served runs
	home    string // HOME of the real processes, outside the repository
	fails   []string
	trace   []string // one line per run: what it answered
}

// play sets the repository up, runs the steps and returns what did not hold and what
// each run answered.
func play(t *testing.T, s *script) (fails, trace []string) {
	r := &runner{t: t, s: s, timeout: defaultTimeout}
	r.repo = testrepo.New(t, s.base)
	r.root = r.repo.Dir
	t.Cleanup(r.unblockFIFOs)
	r.ageBase()
	r.stdin = r.expand(s.named["stdin"])
	last := -1
	for i, st := range s.steps {
		if st.verb == "commit" {
			last = i
		}
	}
	for i, st := range s.steps {
		if i == last+1 {
			r.repo.Write(s.head)
		}
		r.step(st)
	}
	return r.fails, r.trace
}

// ageBase gives every base file baseTime and refreshes the index, so the index's stat
// data matches the files exactly.
func (r *runner) ageBase() {
	for p := range r.s.base {
		full := filepath.Join(r.root, filepath.FromSlash(p))
		if err := os.Chtimes(full, baseTime, baseTime); err != nil {
			r.t.Fatal(err)
		}
	}
	r.repo.Git("update-index", "-q", "--refresh")
}

func (r *runner) expand(s string) string { return strings.ReplaceAll(s, "$ROOT", r.root) }

func (r *runner) path(p string) string { return filepath.Join(r.root, filepath.FromSlash(r.expand(p))) }

// step runs one line of the script; a malformed line is a defect of the script.
func (r *runner) step(st step) {
	r.t.Helper()
	if err := r.do(st); err != nil {
		r.t.Fatalf("%s: %v", st, err)
	}
}

func (r *runner) do(st step) error {
	switch st.verb {
	case "run":
		r.run(st)
		return nil
	case "want":
		return r.want(st)
	case "commit":
		r.repo.Commit("base")
		r.ageBase()
		return nil
	case "hook-install", "submodule", "subcommit":
		return r.gitStep(st)
	}
	return r.prepare(st)
}

// prepare runs a step that changes the repository as the agent would.
func (r *runner) prepare(st step) error {
	a := st.args
	need := map[string]int{"git": 1, "rm": 1, "symlink": 2, "mkfifo": 1, "chmod": 2, "touch-reset": 1,
		"write": 2, "bigfile": 2, "append-nul": 1, "many": 2, "hook-write": 2, "timeout": 1}
	n, ok := need[st.verb]
	if !ok {
		return fmt.Errorf("unknown step %q", st.verb)
	}
	if len(a) < n {
		return fmt.Errorf("%s takes %d arguments", st.verb, n)
	}
	switch st.verb {
	case "git":
		expanded := make([]string, len(a))
		for i, x := range a {
			expanded[i] = r.expand(x)
		}
		r.repo.Git(expanded...)
		return nil
	case "rm":
		return os.RemoveAll(r.path(a[0]))
	case "symlink":
		return mkdirFor(r.path(a[0]), func(p string) error { return os.Symlink(r.expand(a[1]), p) })
	case "mkfifo":
		return mkdirFor(r.path(a[0]), func(p string) error { return syscall.Mkfifo(p, 0o644) })
	case "touch-reset":
		return os.Chtimes(r.path(a[0]), baseTime, baseTime)
	}
	return r.generate(st)
}

// generate runs a step that writes generated or named content.
func (r *runner) generate(st step) error {
	a := st.args
	switch st.verb {
	case "chmod":
		mode, err := strconv.ParseUint(a[0], 8, 32)
		if err != nil {
			return err
		}
		return os.Chmod(r.path(a[1]), fs.FileMode(mode))
	case "write":
		content, ok := r.s.named[a[1]]
		if !ok {
			return fmt.Errorf("no section %q", a[1])
		}
		return writeFile(r.path(a[0]), content)
	case "bigfile":
		size, err := strconv.Atoi(a[1])
		if err != nil {
			return err
		}
		return writeFile(r.path(a[0]), bigGo(size))
	case "append-nul":
		return appendFile(r.path(a[0]), "\x00\n")
	case "many":
		return r.many(a[0], a[1])
	case "hook-write":
		return r.hookWrite(a[0], a[1])
	case "timeout":
		d, err := time.ParseDuration(a[0])
		r.timeout = d
		return err
	}
	return fmt.Errorf("unknown step %q", st.verb)
}

// many writes n small text files into dir.
func (r *runner) many(dir, count string) error {
	n, err := strconv.Atoi(count)
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		if err := writeFile(r.path(fmt.Sprintf("%s/f%04d.txt", dir, i)), fmt.Sprintf("file %d\n", i)); err != nil {
			return err
		}
	}
	return nil
}

// hookWrite makes stdin a Claude Code Write payload whose content is a Go file of size bytes.
func (r *runner) hookWrite(path, size string) error {
	n, err := strconv.Atoi(size)
	if err != nil {
		return err
	}
	b, err := json.Marshal(map[string]any{
		"session_id": "attack", "transcript_path": "/tmp/t.jsonl", "cwd": r.root, "permission_mode": "default",
		"hook_event_name": "PreToolUse", "tool_name": "Write",
		"tool_input": map[string]any{"file_path": r.path(path), "content": bigGo(n)},
	})
	r.stdin = string(b)
	return err
}

func mkdirFor(p string, create func(string) error) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return create(p)
}

func writeFile(p, content string) error {
	return mkdirFor(p, func(p string) error { return os.WriteFile(p, []byte(content), 0o644) })
}

func appendFile(p, content string) error {
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(content); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// snapshot records the working tree (not .git) without opening anything but regular files,
// so a run can be checked to have written nothing.
func (r *runner) snapshot() map[string]string {
	snap := map[string]string{}
	filepath.WalkDir(r.root, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(r.root, p)
		switch {
		case err != nil:
			snap[rel] = "error " + err.Error()
		case d.IsDir() && d.Name() == ".git":
			return filepath.SkipDir
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			snap[rel] = "symlink " + target
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			snap[rel] = fmt.Sprintf("file %x %v", sha256.Sum256(data), err)
		default:
			snap[rel] = d.Type().String()
		}
		return nil
	})
	return snap
}

// unblockFIFOs opens every FIFO of the tree for writing, so a run stuck reading one returns
// and the test binary can clean up.
func (r *runner) unblockFIFOs() {
	filepath.WalkDir(r.root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type()&fs.ModeNamedPipe != 0 {
			if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
		}
		return nil
	})
}

// timed runs fn with the script's time limit; a run still going when the limit passes has
// hung, whatever it returns after being cancelled.
func (r *runner) timed(fn func(ctx context.Context) outcome) outcome {
	ctx, cancel := context.WithTimeout(context.Background(), r.timeout)
	defer cancel()
	ch := make(chan outcome, 1)
	go func() { ch <- fn(ctx) }()
	select {
	case o := <-ch:
		o.hung = ctx.Err() != nil
		return o
	case <-time.After(r.timeout + 15*time.Second):
		return outcome{hung: true}
	}
}
