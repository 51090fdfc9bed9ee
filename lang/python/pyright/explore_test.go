package pyright_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentverify/agentverify/internal/testkit/pyrighttest"
	"github.com/agentverify/agentverify/lang/python/pyright"
)

func TestExplore(t *testing.T) {
	if os.Getenv("EXPLORE") == "" {
		t.Skip()
	}
	tool := pyrighttest.Require(t)
	root := t.TempDir()
	if out, err := exec.Command("cp", "-r", "/usr/lib/python3/dist-packages/setuptools", root).CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	s := pyright.NewServers()
	defer s.Close()
	ctx := context.Background()
	file := os.Getenv("EXPLORE")
	src, _ := os.ReadFile(filepath.Join(root, file))
	o := pyright.Options{Python: "/usr/bin/python3"}
	for i, v := range []string{"a", "a", "b", "c", "c", "d"} {
		content := append(append([]byte{}, src...), []byte("\n\ndef _added_"+v+"(x):\n    return len(x)\n")...)
		start := time.Now()
		cpu0 := childCPU()
		diags, err := s.Check(ctx, tool, root, o, map[string][]byte{file: content})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("check %d (%s): %v, %d diagnostics, node cpu %v", i, v, time.Since(start), len(diags), childCPU()-cpu0)
	}
}

func childCPU() time.Duration {
	var total time.Duration
	tasks, _ := filepath.Glob("/proc/self/task/*/children")
	for _, f := range tasks {
		b, _ := os.ReadFile(f)
		for _, pid := range strings.Fields(string(b)) {
			st, err := os.ReadFile("/proc/" + pid + "/stat")
			if err != nil {
				continue
			}
			s := string(st)
			fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
			u, _ := strconv.Atoi(fields[11])
			k, _ := strconv.Atoi(fields[12])
			total += time.Duration(u+k) * 10 * time.Millisecond
		}
	}
	return total
}
