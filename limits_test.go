package agentverify_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/policy"
	"github.com/agentverify/agentverify/report"
)

// TestPolicyLimitsApply checks that the policy's limits are the ones in force: a dimension
// still running after limits.dimension_timeout fails the gate as an internal error, and
// the defaults agree across the packages that state them.
func TestPolicyLimitsApply(t *testing.T) {
	if policy.DefaultMaxFileSize != change.DefaultMaxFileSize || agentverify.DefaultTimeout != policy.DefaultDimensionTimeout {
		t.Fatal("the default limits of policy, change and agentverify disagree")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n"), 0o644)
	pol := filepath.Join(t.TempDir(), "p.yaml")
	os.WriteFile(pol, []byte("version: 1\nstyle: {}\nlimits:\n  dimension_timeout: 1s\n"), 0o644)
	slow := &check.Dimension{Name: policy.Style, Doc: "hangs", Run: func(p *check.Pass) ([]check.Finding, error) {
		select { // a dimension that ignores its context is abandoned at the deadline too
		case <-time.After(time.Minute):
		case <-p.Context.Done():
		}
		return nil, nil
	}}
	start := time.Now()
	rep, err := (&agentverify.Checker{Dimensions: []*check.Dimension{slow}}).Check(context.Background(),
		agentverify.Request{Dir: dir, Source: agentverify.Paths, PolicyFile: pol})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("took %s, want about the 1s limit", took)
	}
	if rep.Status != report.Errored || len(rep.Violations) != 1 || rep.Violations[0].Rule != "style/internal-error" ||
		!strings.Contains(rep.Violations[0].Message, "timed out after 1s") {
		t.Errorf("status %s, violations %+v; want style/internal-error timed out after 1s", rep.Status, rep.Violations)
	}
}
