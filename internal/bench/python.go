package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"slices"
	"strconv"
	"strings"
)

// pythonShare times issue #29's Python goal in the same run: our share of the CPU of a
// one-file Python verification, against pyright's, on Debian's setuptools (50k lines),
// cold and warm, for a leaf module and the hub most of the package imports. It runs the
// BenchmarkResolve of lang/python in this source tree (it needs pyright, found as the
// tests find it, and python3-setuptools; without them the row says it was skipped).
func pythonShare(t *table) {
	const scenario = "one-file Python change on setuptools, our CPU as a share of pyright's"
	cmd := exec.Command("go", "test", "-run", "^$", "-bench", "^BenchmarkResolve$/^(cold|warm)$/", "-benchtime", "3x", "./lang/python")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.rows = append(t.rows, row{scenario, "agentverify (this source)", "failed: " + firstLine(out.Bytes())})
		return
	}
	found := false
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		name, share, ok := shareOf(sc.Text())
		if !ok {
			continue
		}
		found = true
		t.rows = append(t.rows, row{scenario + ", " + name, "agentverify (this source)", fmt.Sprintf("%.1f %%", share)})
		t.goal("our share of a Python verification, "+name, "#29", fmt.Sprintf("%.1f %% against 10 %%", share), share/10, 1)
	}
	if !found {
		t.rows = append(t.rows, row{scenario, "agentverify (this source)", "skipped: " + skipped(out.String())})
	}
}

// shareOf reads one benchmark line: "BenchmarkResolve/cold/hub-2 3 … 9.05 share-% …"
// (go test prints a benchmark's metrics in the order of their units' names).
func shareOf(line string) (name string, share float64, ok bool) {
	f := strings.Fields(line)
	if len(f) < 2 || !strings.HasPrefix(f[0], "BenchmarkResolve/") {
		return "", 0, false
	}
	i := slices.Index(f, "share-%")
	if i < 2 {
		return "", 0, false
	}
	v, err := strconv.ParseFloat(f[i-1], 64)
	if err != nil {
		return "", 0, false
	}
	name = strings.TrimPrefix(f[0], "BenchmarkResolve/")
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		name = name[:i] // the GOMAXPROCS suffix
	}
	return strings.ReplaceAll(name, "/", " "), v, true
}

// skipped returns the reason a benchmark gave for skipping, or what go test printed last.
func skipped(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if i := strings.Index(l, ".go:"); i >= 0 && strings.Contains(l, "install") {
			return strings.TrimSpace(l)
		}
	}
	return firstLine([]byte(strings.TrimSpace(out)))
}
