// Package fanout runs several agents at once within a fixed capacity. Pool
// is the pure bookkeeping — which task starts next, which are running, which
// results are in — and Run is a bounded parallel map built on it. Their
// guarantees are the agent-loop invariants INV-008 (never more than the
// capacity running), INV-009 (every task started exactly once) and INV-010
// (every result collected, in submission order).
package fanout

import (
	"context"
	"errors"
	"fmt"
)

// Pool tracks tasks 0…n−1 through start and finish. It is not safe for
// concurrent use: one goroutine owns it (as Run does).
type Pool[R any] struct {
	capacity int
	started  int // tasks 0…started−1 have been started
	running  int
	finished []bool
	results  []R
	nDone    int
}

// NewPool returns a pool for tasks tasks of which at most capacity run at once.
func NewPool[R any](capacity, tasks int) (*Pool[R], error) {
	if capacity < 1 {
		return nil, fmt.Errorf("fan-out capacity %d: want at least 1", capacity)
	}
	if tasks < 0 {
		return nil, fmt.Errorf("fan-out of %d tasks: want 0 or more", tasks)
	}
	return &Pool[R]{capacity: capacity, finished: make([]bool, tasks), results: make([]R, tasks)}, nil
}

// Start returns the next task to run, in submission order, when a slot is
// free and a task is left; otherwise ok is false.
func (p *Pool[R]) Start() (task int, ok bool) {
	if p.running >= p.capacity || p.started >= len(p.results) {
		return 0, false
	}
	p.running++
	p.started++
	return p.started - 1, true
}

// Finish records the result of a running task and frees its slot. A task
// that is not running (never started, or finished already) is an error and
// changes nothing.
func (p *Pool[R]) Finish(task int, r R) error {
	switch {
	case task < 0 || task >= len(p.results):
		return fmt.Errorf("finish task %d: there are %d tasks", task, len(p.results))
	case task >= p.started:
		return fmt.Errorf("finish task %d: it was never started", task)
	case p.finished[task]:
		return fmt.Errorf("finish task %d: it already finished", task)
	}
	p.finished[task] = true
	p.results[task] = r
	p.running--
	p.nDone++
	return nil
}

// Capacity is the most tasks that may run at once.
func (p *Pool[R]) Capacity() int { return p.capacity }

// Running is how many tasks are started and not finished.
func (p *Pool[R]) Running() int { return p.running }

// Started is how many tasks have been started.
func (p *Pool[R]) Started() int { return p.started }

// Done reports whether every task has finished.
func (p *Pool[R]) Done() bool { return p.nDone == len(p.results) }

// Results returns the results in submission order once every task has
// finished, and an error saying how many are missing before that.
func (p *Pool[R]) Results() ([]R, error) {
	if !p.Done() {
		return nil, fmt.Errorf("%d of %d tasks have no result yet", len(p.results)-p.nDone, len(p.results))
	}
	return append([]R(nil), p.results...), nil
}

// Run calls fn(ctx, i) for i in 0…n−1 with at most capacity calls at once
// and returns the results in order. Every task runs even when ctx is
// cancelled — fn sees the context and should return quickly — so every
// result is collected. A panicking fn leaves the zero result for its task
// and is reported in the error; the other tasks are unaffected.
func Run[R any](ctx context.Context, capacity, n int, fn func(ctx context.Context, i int) R) ([]R, error) {
	p, err := NewPool[R](capacity, n)
	if err != nil {
		return nil, err
	}
	type done struct {
		task  int
		r     R
		panic any
	}
	ch := make(chan done)
	var panics []error
	for {
		for {
			i, ok := p.Start()
			if !ok {
				break
			}
			go func() {
				d := done{task: i}
				defer func() {
					d.panic = recover()
					ch <- d
				}()
				d.r = fn(ctx, i)
			}()
		}
		if p.Done() {
			break
		}
		d := <-ch
		if d.panic != nil {
			panics = append(panics, fmt.Errorf("task %d panicked: %v", d.task, d.panic))
		}
		if err := p.Finish(d.task, d.r); err != nil {
			return nil, err // unreachable: only started tasks report
		}
	}
	results, err := p.Results()
	if err != nil {
		return nil, err
	}
	return results, errors.Join(panics...)
}
