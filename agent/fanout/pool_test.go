package fanout

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// poolMachine drives a Pool through any interleaving of starts and
// finishes and checks the three invariants after every step.
type poolMachine struct {
	p        *Pool[int]
	cap, n   int
	running  []int        // tasks started, not finished (model)
	startedN map[int]int  // task → times started
	finished map[int]bool // task → finished
}

func newMachine(t *rapid.T) *poolMachine {
	c, n := rapid.IntRange(1, 6).Draw(t, "capacity"), rapid.IntRange(0, 20).Draw(t, "tasks")
	p, err := NewPool[int](c, n)
	if err != nil {
		t.Fatalf("NewPool: %v", err)
	}
	return &poolMachine{p: p, cap: c, n: n, startedN: map[int]int{}, finished: map[int]bool{}}
}

func (m *poolMachine) start(t *rapid.T) {
	task, ok := m.p.Start()
	canStart := len(m.running) < m.cap && len(m.startedN) < m.n
	if ok != canStart {
		t.Fatalf("Start ok=%v with %d running of %d, %d of %d started", ok, len(m.running), m.cap, len(m.startedN), m.n)
	}
	if ok {
		if task != len(m.startedN) {
			t.Fatalf("started task %d, want %d (submission order)", task, len(m.startedN))
		}
		m.startedN[task]++
		m.running = append(m.running, task)
	}
}

func (m *poolMachine) finish(t *rapid.T) {
	if len(m.running) == 0 {
		// Finishing something not running must be refused.
		bad := rapid.IntRange(-1, m.n).Draw(t, "bad")
		if err := m.p.Finish(bad, 0); err == nil {
			t.Fatalf("Finish(%d) of a task not running succeeded", bad)
		}
		return
	}
	i := rapid.IntRange(0, len(m.running)-1).Draw(t, "which")
	task := m.running[i]
	if err := m.p.Finish(task, task*10); err != nil {
		t.Fatalf("Finish(%d): %v", task, err)
	}
	m.running = slices.Delete(m.running, i, i+1)
	m.finished[task] = true
	if err := m.p.Finish(task, -1); err == nil {
		t.Fatalf("second Finish(%d) succeeded", task)
	}
}

func (m *poolMachine) check(t *rapid.T) {
	if m.p.Running() > m.cap || m.p.Running() != len(m.running) {
		t.Fatalf("running %d, model %d, capacity %d", m.p.Running(), len(m.running), m.cap)
	}
	for task, k := range m.startedN {
		if k != 1 {
			t.Fatalf("task %d started %d times", task, k)
		}
	}
}

// drain finishes the run the way Run does and returns the results.
func (m *poolMachine) drain(t *rapid.T) []int {
	for len(m.finished) < m.n {
		m.start(t)
		if len(m.running) > 0 {
			m.finish(t)
		}
		m.check(t)
	}
	res, err := m.p.Results()
	if err != nil {
		t.Fatalf("Results after all finished: %v", err)
	}
	return res
}

func runMachine(t *rapid.T) *poolMachine {
	m := newMachine(t)
	for i := range rapid.IntRange(0, 60).Draw(t, "ops") {
		if rapid.Bool().Draw(t, fmt.Sprint("start", i)) {
			m.start(t)
		} else {
			m.finish(t)
		}
		m.check(t)
		if _, err := m.p.Results(); (err == nil) != (len(m.finished) == m.n) {
			t.Fatalf("Results error %v with %d of %d finished", err, len(m.finished), m.n)
		}
	}
	return m
}

func TestINV008PoolCapacity(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) { runMachine(t) })
}

func TestINV009FanOutCount(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := runMachine(t)
		m.drain(t)
		if m.p.Started() != m.n || len(m.startedN) != m.n {
			t.Fatalf("started %d (model %d) of %d tasks", m.p.Started(), len(m.startedN), m.n)
		}
		if _, ok := m.p.Start(); ok {
			t.Fatal("Start succeeded after every task started")
		}
	})
}

func TestINV010EveryResultCollected(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := runMachine(t)
		res := m.drain(t)
		if len(res) != m.n {
			t.Fatalf("%d results for %d tasks", len(res), m.n)
		}
		for i, r := range res {
			if r != i*10 {
				t.Fatalf("result %d = %d, want %d (submission order)", i, r, i*10)
			}
		}
	})
	p, _ := NewPool[string](2, 3)
	p.Start()
	if _, err := p.Results(); err == nil || err.Error() != "3 of 3 tasks have no result yet" {
		t.Fatalf("Results early: %v", err)
	}
}

func TestNewPoolRejects(t *testing.T) {
	if _, err := NewPool[int](0, 3); err == nil || !strings.Contains(err.Error(), "capacity 0") {
		t.Errorf("capacity 0: %v", err)
	}
	if _, err := NewPool[int](1, -1); err == nil || !strings.Contains(err.Error(), "-1 tasks") {
		t.Errorf("-1 tasks: %v", err)
	}
}

// TestINV008RunCapacity runs real goroutines (use -race) and watches how
// many are inside fn at once.
func TestINV008RunCapacity(t *testing.T) {
	for _, tc := range []struct{ capacity, n int }{{1, 5}, {3, 20}, {8, 4}, {4, 0}} {
		t.Run(fmt.Sprintf("cap%d_n%d", tc.capacity, tc.n), func(t *testing.T) {
			var inside, peak atomic.Int32
			var mu sync.Mutex
			calls := map[int]int{}
			res, err := Run(context.Background(), tc.capacity, tc.n, func(_ context.Context, i int) string {
				now := inside.Add(1)
				for p := peak.Load(); now > p && !peak.CompareAndSwap(p, now); p = peak.Load() {
				}
				time.Sleep(time.Duration(i%3) * time.Millisecond)
				mu.Lock()
				calls[i]++
				mu.Unlock()
				inside.Add(-1)
				return fmt.Sprint("r", i)
			})
			if err != nil {
				t.Fatal(err)
			}
			if int(peak.Load()) > tc.capacity {
				t.Fatalf("%d ran at once, capacity %d", peak.Load(), tc.capacity)
			}
			if len(res) != tc.n || len(calls) != tc.n {
				t.Fatalf("%d results, %d tasks called, want %d", len(res), len(calls), tc.n)
			}
			for i, r := range res {
				if r != fmt.Sprint("r", i) || calls[i] != 1 {
					t.Fatalf("task %d: result %q, called %d times", i, r, calls[i])
				}
			}
		})
	}
}

func TestINV010RunCollectsPanicsAndCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Run(ctx, 2, 5, func(ctx context.Context, i int) int {
		if i == 3 {
			panic("boom")
		}
		if ctx.Err() != nil {
			return -i
		}
		return i
	})
	if err == nil || err.Error() != "task 3 panicked: boom" {
		t.Fatalf("error = %v", err)
	}
	if !slices.Equal(res, []int{0, -1, -2, 0, -4}) {
		t.Fatalf("results = %v", res)
	}
}
