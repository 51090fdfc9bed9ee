package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// TestMCPStdioSurvivesBadInputAndAnswersBeforeEOF: `agentverify mcp` on real pipes. A
// line that is not JSON gets a -32700 error, one that is JSON but no request a -32600, and
// the server reads on; requests written just before the client closes its side are all
// answered before the server exits (exit 0).
func TestMCPStdioSurvivesBadInputAndAnswersBeforeEOF(t *testing.T) {
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan int, 1)
	go func() {
		var errb strings.Builder
		code := Main(context.Background(), []string{"mcp"}, &Env{Stdin: inR, Stdout: outW, Stderr: &errb, Dir: r.Dir, Getenv: func(string) string { return "" }})
		outW.Close()
		inR.Close()
		done <- code
	}()
	edit, _ := json.Marshal(map[string]any{"path": "m.go", "content": cleanGo + "\nfunc Sub(a, b int) int { return a - b + undefinedThing }\n"})
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`this is not json`,
		`{"jsonrpc":"2.0","id":"x","method":42}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"explain_rule","arguments":{"rule":"scope/forbidden-path"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"verify_edit","arguments":` + string(edit) + `}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/list"}`,
	}
	go func() {
		inW.Write([]byte(strings.Join(lines, "\n") + "\n"))
		inW.Close() // EOF right after the requests
	}()
	answers := map[string]map[string]any{}
	var refusals []map[string]any
	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("not JSON on stdout: %q", sc.Text())
		}
		id, _ := json.Marshal(m["id"])
		if m["id"] == nil || string(id) == `"x"` {
			refusals = append(refusals, m)
			continue
		}
		answers[string(id)] = m
	}
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d, want 0", code)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("the server did not exit at the end of its input")
	}
	for _, id := range []string{"1", "2", "3", "4"} {
		if answers[id] == nil {
			t.Errorf("request %s was not answered (answers %v)", id, answers)
		}
	}
	if a := answers["3"]; a != nil {
		res, _ := json.Marshal(a["result"])
		if !strings.Contains(string(res), "undefinedThing") || !strings.Contains(string(res), `"status":"failed"`) {
			t.Errorf("verify_edit answer: %s", res)
		}
	}
	codes := map[float64]bool{}
	for _, m := range refusals {
		if e, ok := m["error"].(map[string]any); ok {
			codes[e["code"].(float64)] = true
		}
	}
	if !codes[-32700] || !codes[-32600] || len(refusals) != 2 {
		t.Errorf("refusals %v, want one -32700 and one -32600", refusals)
	}
	io.Copy(io.Discard, outR)
}
