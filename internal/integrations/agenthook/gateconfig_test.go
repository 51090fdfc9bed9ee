package agenthook

import (
	"context"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/dimensions/scope"
	"github.com/agentverify/agentverify/policy"
)

// TestEveryHookConfigIsGateConfig: the file 'init --agent' writes for each agent is the
// gate's configuration, so an agent that edits it to remove its own hook is reported.
func TestEveryHookConfigIsGateConfig(t *testing.T) {
	for _, a := range Agents {
		for _, op := range []change.Op{change.Modify, change.Delete} {
			set := &change.Set{Files: []*change.File{change.NewFile(a.Config, a.Config, []byte("x"), []byte("y"))}}
			set.Files[0].Op = op
			fs, err := scope.Dimension.Run(&check.Pass{Context: context.Background(), Changes: set,
				Policy: &policy.Policy{Scope: &policy.ScopeOptions{AllowedOperations: []string{"create", "modify", "delete", "rename"}}}, Trust: &check.Trust{}})
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, f := range fs {
				found = found || f.Rule == "scope/gate-config-changed"
			}
			if !found {
				t.Errorf("%s: %s %s is not scope/gate-config-changed: %+v", a.Name, op, a.Config, fs)
			}
		}
	}
}
