package runner_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentverify/agentverify/agent/runner"
	"github.com/agentverify/agentverify/agent/runner/tools"
)

// BenchmarkGatedWrite is one write_file through the real engine (warm checker): the
// price of the gate per edit.
func BenchmarkGatedWrite(b *testing.B) {
	dir := newRepo(b, nil)
	box, err := tools.New(tools.Options{Dir: dir, Verifier: checker})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		args := fmt.Sprintf(`{"path":"rev.go","content":"package m\n\n// N is a number.\nconst N = %d\n"}`, i)
		if r := box.Run(context.Background(), tools.WriteFile, args); r.Failed {
			b.Fatal(r.Observation)
		}
	}
}

// BenchmarkReplay replays a recorded 4-turn session: the cost of the loop's decisions
// without model or tools.
func BenchmarkReplay(b *testing.B) {
	dir := newRepo(b, nil)
	s := newServer(b,
		call("write_file", map[string]string{"path": "rev.go", "content": hallucinated}),
		call("write_file", map[string]string{"path": "rev.go", "content": corrected}),
		call("verify", map[string]string{}),
		answer("done"),
	)
	audit := filepath.Join(b.TempDir(), "audit.jsonl")
	if o := agent(b, runArgs(s, dir, "--task", "t", "--audit", audit)...); o.code != 0 {
		b.Fatal(o)
	}
	f, _ := os.Open(audit)
	recs, err := runner.ReadAudit(f, audit)
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, diffs, err := runner.Replay(context.Background(), recs); err != nil || len(diffs) > 0 {
			b.Fatal(err, diffs)
		}
	}
}
