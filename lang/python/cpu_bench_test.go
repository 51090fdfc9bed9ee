//go:build unix

package python_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cpuClock measures the CPU time a benchmark's loop spends, ours and pyright's apart: on
// a shared machine wall time says little. It is Linux's: elsewhere it reports nothing.
type cpuClock struct{ self, children time.Duration }

func startCPU() cpuClock { return cpuClock{selfCPU(), childrenCPU()} }

// report adds go-cpu-ms/op (this process), tool-cpu-ms/op (pyright's processes,
// finished or running) and share-% (ours as a percentage of pyright's: issue #29's goal
// is ≤ 10) to the benchmark's results.
func (c cpuClock) report(b *testing.B) {
	if b.N == 0 {
		return
	}
	self, tool := selfCPU()-c.self, childrenCPU()-c.children
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
	b.ReportMetric(ms(self), "go-cpu-ms/op")
	b.ReportMetric(ms(tool), "tool-cpu-ms/op")
	if tool >= 10*time.Millisecond*time.Duration(b.N) { // below a clock tick per op, pyright did nothing to compare with
		b.ReportMetric(100*float64(self)/float64(tool), "share-%")
	}
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// childrenCPU is the CPU time of the finished children waited for, and of the running
// ones (the language server) from /proc.
func childrenCPU() time.Duration {
	var ru syscall.Rusage
	var total time.Duration
	if syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru) == nil {
		total = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	lists, _ := filepath.Glob("/proc/self/task/*/children")
	for _, l := range lists {
		data, _ := os.ReadFile(l)
		for _, pid := range strings.Fields(string(data)) {
			total += procCPU(pid)
		}
	}
	return total
}

// procCPU is the user and system time of a running process (clock ticks of 10 ms).
func procCPU(pid string) time.Duration {
	st, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0
	}
	s := string(st)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 > len(s) {
		return 0
	}
	f := strings.Fields(s[i+2:])
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.Atoi(f[11])
	k, _ := strconv.Atoi(f[12])
	return time.Duration(u+k) * 10 * time.Millisecond
}
