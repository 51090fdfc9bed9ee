package engine

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/crash"
	"github.com/agentverify/agentverify/policy"
)

// Outcome is what one dimension produced.
type Outcome struct {
	Dimension string
	Skipped   bool
	Findings  []check.Finding // as the dimension returned them
	Err       error           // set when the dimension could not complete
	Duration  time.Duration
}

// Options tune a run.
type Options struct {
	// Timeout bounds each dimension; 0 means no bound beyond the context.
	Timeout time.Duration
	// Parallelism bounds how many dimensions run at once; 0 means GOMAXPROCS.
	Parallelism int
}

// Run runs every dimension in dims over pass, in parallel, and returns one Outcome per
// dimension in the order of dims. Dimensions the policy skips are reported as skipped and
// not run. Run never fails: a dimension's error, panic or timeout is in its Outcome.
func Run(ctx context.Context, pass *check.Pass, dims []*check.Dimension, opts Options) []Outcome {
	out := make([]Outcome, len(dims))
	var run []int
	for i, d := range dims {
		out[i].Dimension = d.Name
		if !pass.Policy.Enabled(d.Name) {
			out[i].Skipped = true
			continue
		}
		run = append(run, i)
	}
	parallel(len(run), opts.Parallelism, func(j int) {
		i := run[j]
		start := time.Now()
		defer func() { out[i].Duration = time.Since(start) }()
		defer crash.Recover(&out[i].Err)
		out[i].Findings, out[i].Err = runOne(ctx, pass, dims[i], opts.Timeout)
	})
	return out
}

// parallel calls fn(0) … fn(n-1), at most limit at once (0: GOMAXPROCS), and waits.
func parallel(n, limit int, fn func(int)) {
	if limit <= 0 {
		limit = runtime.GOMAXPROCS(0)
	}
	sem := make(chan struct{}, limit)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done() // fn recovers its own panics: parallel knows no place to put them
			sem <- struct{}{}
			defer func() { <-sem }()
			fn(i)
		}()
	}
	wg.Wait()
}

// runOne runs d with panic isolation and a deadline. A dimension that ignores its context
// is abandoned at the deadline: its goroutine may linger, but its result is never used.
func runOne(ctx context.Context, pass *check.Pass, d *check.Dimension, timeout time.Duration) ([]check.Finding, error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	p := *pass // each dimension gets its own copy of the Pass header; the data is shared
	p.Context = ctx
	type result struct {
		fs  []check.Finding
		err error
	}
	done := make(chan result, 1)
	go func() {
		var r result
		defer func() { done <- r }()
		defer crash.Recover(&r.err)
		r.fs, r.err = d.Run(&p)
	}()
	select {
	case r := <-done:
		if r.err == nil && ctx.Err() != nil {
			r.err = ctx.Err()
		}
		return r.fs, r.err
	case <-ctx.Done():
		if ctx.Err() == context.DeadlineExceeded && timeout > 0 {
			return nil, fmt.Errorf("timed out after %s", timeout)
		}
		return nil, fmt.Errorf("interrupted: %w", ctx.Err())
	}
}

// InternalErrorRule returns the rule under which a dimension's failure is reported.
func InternalErrorRule(dim string) *check.Rule {
	return &check.Rule{
		ID:      dim + "/internal-error",
		Default: policy.Error,
		Short:   "the " + dim + " dimension could not complete",
		Doc: "The " + dim + " dimension returned an error, panicked or timed out, so it could not " +
			"verify the change: a tool or module it needs is missing here, or agentverify has a bug. " +
			"The gate fails closed: this is always an error, whatever the policy says, and the run's " +
			"status is error (exit 2, not 1: the change is not known to be wrong, it is unverified). " +
			"The message carries the cause and, for a crash, the first frame of agentverify's code.",
	}
}
