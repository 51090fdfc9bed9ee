package golangci

import (
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/agentverify/agentverify/analyzer"
)

// TestRegistered: golangci-lint finds the plugin under its name and gets the analyzers.
func TestRegistered(t *testing.T) {
	newPlugin, err := register.GetPlugin(Name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(nil)
	if err != nil {
		t.Fatal(err)
	}
	as, err := p.BuildAnalyzers()
	if err != nil || len(as) != len(analyzer.Analyzers()) || p.GetLoadMode() != register.LoadModeSyntax {
		t.Fatalf("analyzers %v, %v, load mode %q", as, err, p.GetLoadMode())
	}
	if err := analysis.Validate(as); err != nil {
		t.Error(err)
	}
	if _, err := newPlugin(map[string]any{"max_cyclomatic": 3}); err == nil {
		t.Error("settings were accepted; the policy file is the configuration")
	}
}
