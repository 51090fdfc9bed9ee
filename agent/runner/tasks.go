package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/agentverify/agentverify/agent/fanout"
)

// taskOutcome is one task's result in a parallel run.
type taskOutcome struct {
	res      Result
	dir, err string
}

// runTasks runs each task as its own agent in its own git worktree (detached at HEAD),
// at most f.parallel at once (fanout: INV-008 capacity, INV-009 each task started
// once, INV-010 every result collected), and prints one block per task in task order.
func runTasks(ctx context.Context, tasks []task, f *runFlags, base Config, env []string, model Model, v Verifier, stdout, stderr io.Writer) int {
	top, prefix, err := repoPrefix(ctx, f.dir)
	if err != nil {
		return usageErr(stderr, "%v", err)
	}
	wts, err := makeWorktrees(ctx, top, tasks)
	if err != nil {
		fmt.Fprintf(stderr, "agentverify agent: %v\n", err)
		return ExitStopped
	}
	capacity := max(f.parallel, 1)
	var mu sync.Mutex
	outs, ferr := fanout.Run(ctx, capacity, len(tasks), func(ctx context.Context, i int) taskOutcome {
		cfg := base
		cfg.Task = tasks[i].text
		cfg.Progress = syncWriter{mu: &mu, w: stderr, p: "[" + tasks[i].name + "] "}
		return runInWorktree(ctx, cfg, tasks[i], wts[i], filepath.Join(wts[i], prefix), f, env, model, v)
	})
	code := printOutcomes(tasks, outs, stdout)
	if ferr != nil {
		fmt.Fprintf(stderr, "agentverify agent: %v\n", ferr)
		code = ExitStopped
	}
	return code
}

// repoPrefix returns the repository's top directory and --dir relative to it, so each
// task works at the same place inside its own worktree.
func repoPrefix(ctx context.Context, dir string) (top, prefix string, err error) {
	top, err = repoTop(ctx, dir)
	if err != nil {
		return "", "", fmt.Errorf("several tasks need a git repository (one worktree each): %v", err)
	}
	absDir, err := filepath.Abs(dir)
	if err == nil {
		absDir, err = filepath.EvalSymlinks(absDir)
	}
	if err == nil {
		prefix, err = filepath.Rel(top, absDir)
	}
	if err != nil {
		return "", "", fmt.Errorf("--dir: %v", err)
	}
	return top, prefix, nil
}

// makeWorktrees adds one worktree per task, one after the other: git locks its worktree
// list.
func makeWorktrees(ctx context.Context, top string, tasks []task) ([]string, error) {
	common, err := git(ctx, top, nil, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return nil, err
	}
	wts := make([]string, len(tasks))
	for i, t := range tasks {
		wt, err := addWorktree(ctx, top, filepath.Join(common, "agentverify", "worktrees"), t.name)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", t.name, err)
		}
		wts[i] = wt
	}
	return wts, nil
}

// runInWorktree runs one task in its worktree, with its own audit file, and leaves the
// final report beside the worktree.
func runInWorktree(ctx context.Context, cfg Config, t task, wt, dir string, f *runFlags, env []string, model Model, v Verifier) taskOutcome {
	if f.audit != "" {
		ext := filepath.Ext(f.audit)
		file, err := os.OpenFile(f.audit[:len(f.audit)-len(ext)]+"."+t.name+ext, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return taskOutcome{dir: dir, err: err.Error()}
		}
		defer file.Close()
		cfg.Audit = NewAudit(file, cfg.Secrets...)
	}
	res, err := runOne(ctx, cfg, dir, f.policyFile, env, model, v)
	if err != nil {
		return taskOutcome{dir: dir, err: err.Error()}
	}
	if res.Final.Report != nil {
		data, err := json.MarshalIndent(res.Final.Report, "", "  ")
		if err == nil {
			err = os.WriteFile(wt+".report.json", append(data, '\n'), 0o644)
		}
		if err != nil {
			return taskOutcome{res: res, dir: dir, err: "writing the report: " + err.Error()}
		}
	}
	return taskOutcome{res: res, dir: dir}
}

// printOutcomes prints one line per task and returns the exit code: ExitOK only when
// every task finished with a passing final verification.
func printOutcomes(tasks []task, outs []taskOutcome, stdout io.Writer) int {
	code := ExitOK
	for i, o := range outs {
		t := tasks[i]
		switch {
		case o.err != "":
			code = ExitStopped
			fmt.Fprintf(stdout, "== %s: error: %s\n", t.file, o.err)
		case !o.res.OK():
			code = ExitStopped
			fmt.Fprintf(stdout, "== %s: stopped: %s (worktree %s, final verification %s)\n", t.file, o.res.Reason, o.dir, statusText(o.res.Final.Verdict))
		default:
			fmt.Fprintf(stdout, "== %s: done (worktree %s, final verification %s)\n", t.file, o.dir, statusText(o.res.Final.Verdict))
		}
		if o.res.Answer != "" {
			fmt.Fprintln(stdout, o.res.Answer)
		}
	}
	return code
}

// addWorktree adds a worktree detached at HEAD under parent, named after the task
// (with a numeric suffix when the name is taken).
func addWorktree(ctx context.Context, top, parent, name string) (string, error) {
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(parent, name)
	for n := 2; ; n++ {
		if _, err := os.Lstat(path); os.IsNotExist(err) {
			break
		}
		path = filepath.Join(parent, name+"-"+strconv.Itoa(n))
	}
	if _, err := git(ctx, top, nil, "worktree", "add", "--detach", path, "HEAD"); err != nil {
		return "", err
	}
	return path, nil
}
