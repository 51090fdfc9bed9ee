// Package golangci registers agentverify's complexity and style analyzers as a
// golangci-lint module plugin, so teams that already run golangci-lint get them in the same
// run. Build a custom golangci-lint with it (`golangci-lint custom`, see
// docs/integrations.md) and enable the linter "agentverify". The analyzers read the
// repository's .agentverify.yaml, as `agentverify check` does; the plugin takes no settings.
package golangci

import (
	"fmt"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/agentverify/agentverify/analyzer"
)

// Name is the linter's name in golangci-lint's configuration.
const Name = "agentverify"

func init() { register.Plugin(Name, New) }

// New builds the plugin; settings must be empty: the policy file is the configuration.
func New(settings any) (register.LinterPlugin, error) {
	if m, ok := settings.(map[string]any); settings != nil && (!ok || len(m) > 0) {
		return nil, fmt.Errorf("%s: the plugin takes no settings (the policy is .agentverify.yaml), got %v", Name, settings)
	}
	return plugin{}, nil
}

type plugin struct{}

// BuildAnalyzers returns the complexity and style analyzers.
func (plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) { return analyzer.Analyzers(), nil }

// GetLoadMode is syntax: the analyzers parse the files themselves and need no type
// information from golangci-lint.
func (plugin) GetLoadMode() string { return register.LoadModeSyntax }
