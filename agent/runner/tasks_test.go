package runner_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/agent/llm"
)

// Each task file runs as its own agent in its own git worktree, at most N at once; every
// result is collected and printed in task order, and the main working tree is untouched.
func TestParallelTasksInWorktrees(t *testing.T) {
	dir := newRepo(t, nil)
	tasks := t.TempDir()
	for _, name := range []string{"a", "b", "c"} {
		os.WriteFile(filepath.Join(tasks, "TASK_"+name+".md"), []byte("create "+name+".go"), 0o644)
	}
	s := newServer(t)
	// The model answers by task: write NAME.go, then finish.
	s.fallback = func(w http.ResponseWriter, req *llm.Request) {
		_, task, _ := strings.Cut(req.Messages[0].Content, "The task:\n")
		name := strings.TrimSuffix(strings.TrimPrefix(task, "create "), ".go")
		if req.Messages[len(req.Messages)-1].Role == "tool" {
			call("finish", map[string]string{"answer": "made " + name + ".go"})(w, req)
			return
		}
		call("write_file", map[string]string{"path": name + ".go", "content": "package m\n\n// " + strings.ToUpper(name) + " is " + name + ".\nconst " + strings.ToUpper(name) + " = 1\n"})(w, req)
	}
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	o := agent(t, runArgs(s, dir, "--task-file", filepath.Join(tasks, "TASK_*.md"), "--parallel", "2", "--audit", audit)...)
	if o.code != 0 {
		t.Fatalf("%s", o)
	}
	wtRoot := filepath.Join(dir, ".git", "agentverify", "worktrees")
	var blocks []string
	for _, name := range []string{"a", "b", "c"} {
		wt := filepath.Join(wtRoot, "TASK_"+name)
		if got, ok := readFile(t, filepath.Join(wt, name+".go")); !ok || !strings.Contains(got, "const") {
			t.Errorf("task %s: %s.go missing in its worktree", name, name)
		}
		if _, ok := readFile(t, filepath.Join(dir, name+".go")); ok {
			t.Errorf("task %s wrote into the main working tree", name)
		}
		if _, ok := readFile(t, wt+".report.json"); !ok {
			t.Errorf("task %s: no report", name)
		}
		if recs := readAudit(t, strings.TrimSuffix(audit, ".jsonl")+".TASK_"+name+".jsonl"); recs[len(recs)-1].Answer != "made "+name+".go" {
			t.Errorf("task %s: audit ends with %+v", name, recs[len(recs)-1])
		}
		blocks = append(blocks, "== "+filepath.Join(tasks, "TASK_"+name+".md")+": done (worktree "+wt+", final verification passed)\nmade "+name+".go\n")
	}
	if want := strings.Join(blocks, ""); o.stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", o.stdout, want)
	}
	if st := gitCmd(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("main tree changed: %q", st)
	}
	// Each replays on its own.
	if r := agent(t, "replay", strings.TrimSuffix(audit, ".jsonl")+".TASK_b.jsonl"); r.code != 0 {
		t.Errorf("replay: %s", r)
	}
}

func TestUsage(t *testing.T) {
	dir := newRepo(t, nil)
	cases := []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "usage: agentverify agent run"},
		{[]string{"help"}, 0, "usage: agentverify agent run"},
		{[]string{"run", "--help"}, 0, "-token-budget"},
		{[]string{"fly"}, 2, `unknown subcommand "fly"`},
		{[]string{"run", "--base-url", "http://127.0.0.1:1/v1", "--model", "m"}, 2, "exactly one of --task and --task-file"},
		{[]string{"run", "--task", "t", "--model", "m"}, 2, "--base-url and --model are required"},
		{[]string{"run", "--task", "t", "--base-url", "u", "--model", "m", "--access", "root"}, 2, "--access"},
		{[]string{"run", "--task", "t", "--base-url", "u", "--model", "m", "--max-steps", "0"}, 2, "--max-steps must be positive"},
		{[]string{"run", "--task", "t", "--base-url", "u", "--model", "m", "--dir", filepath.Join(dir, "nope")}, 2, "not a directory"},
		{[]string{"run", "--task-file", filepath.Join(dir, "TASK_*.md"), "--base-url", "u", "--model", "m"}, 2, "no such file"},
		{[]string{"run", "--task", "t", "--base-url", "u", "--model", "m", "--api-key-env", "AGENTVERIFY_SURELY_UNSET"}, 2, "AGENTVERIFY_SURELY_UNSET is not set"},
		{[]string{"run", "--task", "t", "--base-url", "u", "--model", "m", "--policy", filepath.Join(dir, "m.go")}, 2, "--policy"},
		{[]string{"replay"}, 2, "exactly one audit FILE"},
		{[]string{"replay", filepath.Join(dir, "missing.jsonl")}, 2, "no such file"},
		{[]string{"run", "--task", "t", "--base-url", "u", "--model", "m", "extra"}, 2, `unexpected argument "extra"`},
	}
	for _, c := range cases {
		o := agent(t, c.args...)
		if o.code != c.code || !strings.Contains(o.stdout+o.stderr, c.want) {
			t.Errorf("%v: want exit %d and %q, got %s", c.args, c.code, c.want, o)
		}
	}
}
