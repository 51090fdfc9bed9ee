package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// mcpRuns times MCP verify_edit of a one-function edit of file in one `agentverify mcp`
// session over standard input and output, as an agent's session calls it: the first
// call loads the module (reported on its own), the next n-1 are the warm ones the p50
// and p95 are of, each a new edit.
func mcpRuns(t *table, repo, av string, env []string, file string, n int) error {
	if n < 2 {
		return nil
	}
	const scenario = "one agent edit, MCP `verify_edit` (one session)"
	orig, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(file)))
	if err != nil {
		return err
	}
	s, err := startMCP(repo, av, env)
	if err != nil {
		t.add(scenario, "agentverify", result{}, err)
		return nil
	}
	defer s.close()
	var walls []time.Duration
	for i := range n {
		content := fmt.Sprintf("%s\n// benchMCP%d is added by the benchmark.\nfunc benchMCP%d() int { return %d }\n", orig, i, i, i)
		start := time.Now()
		res, err := s.call("tools/call", map[string]any{"name": "verify_edit", "arguments": map[string]string{"path": file, "content": content}})
		wall := time.Since(start)
		if err == nil && (strings.Contains(string(res), `"isError":true`) || !strings.Contains(string(res), `"passed":true`)) {
			err = fmt.Errorf("verify_edit did not pass: %.200s", res)
		}
		if err != nil {
			t.add(scenario, "agentverify", result{}, err)
			return nil
		}
		walls = append(walls, wall)
	}
	rest := walls[1:]
	sort.Slice(rest, func(i, j int) bool { return rest[i] < rest[j] })
	p := func(q float64) time.Duration { return rest[min(len(rest)-1, int(q*float64(len(rest))))] }
	t.rows = append(t.rows, row{scenario, "agentverify", fmt.Sprintf("first %d ms, then p50 %.1f ms, p95 %.1f ms (%d calls)",
		walls[0].Milliseconds(), float64(p(0.5).Microseconds())/1000, float64(p(0.95).Microseconds())/1000, len(rest))})
	t.latencyGoal("MCP `verify_edit` of one edit in a running session", "#29", p(0.5), 20)
	return nil
}

// mcpSession is a running `agentverify mcp` spoken to in newline-delimited JSON-RPC.
type mcpSession struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
	id  int
}

func startMCP(repo, av string, env []string) (*mcpSession, error) {
	cmd := exec.Command(av, "mcp")
	cmd.Dir, cmd.Env, cmd.Stderr = repo, append(os.Environ(), env...), os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &mcpSession{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
	if _, err := s.call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]string{"name": "bench", "version": "1"}}); err != nil {
		s.close()
		return nil, fmt.Errorf("mcp initialize: %w", err)
	}
	if err := s.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

func (s *mcpSession) send(msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	_, err = s.in.Write(append(b, '\n'))
	return err
}

// call sends a request and returns its result, skipping the notifications before it.
func (s *mcpSession) call(method string, params any) (json.RawMessage, error) {
	s.id++
	if err := s.send(map[string]any{"jsonrpc": "2.0", "id": s.id, "method": method, "params": params}); err != nil {
		return nil, err
	}
	for {
		line, err := s.out.ReadBytes('\n')
		if err != nil {
			return nil, fmt.Errorf("mcp %s: %w", method, err)
		}
		var resp struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(line, &resp); err != nil {
			return nil, fmt.Errorf("mcp %s: %w: %.200s", method, err, line)
		}
		if resp.ID == nil || *resp.ID != s.id {
			continue
		}
		if resp.Error != nil {
			return nil, fmt.Errorf("mcp %s: %s", method, resp.Error.Message)
		}
		return resp.Result, nil
	}
}

func (s *mcpSession) close() {
	s.in.Close() // the session ends with its input
	kill := time.AfterFunc(10*time.Second, func() { s.cmd.Process.Kill() })
	defer kill.Stop()
	s.cmd.Wait()
}
