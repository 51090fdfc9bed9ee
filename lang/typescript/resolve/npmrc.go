package resolve

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript/npm"
)

// An .npmrc decides which registry the unknown-package check asks (and where npm
// installs from): a change that points it at a server of its own gets any made-up name
// "found". The check reads the trusted side's .npmrc (packages.go); a change to the
// registry settings of any .npmrc in the repository (npm reads the one of the project
// it runs in) is a change to the gate's configuration.

// npmrcChanges reports each changed .npmrc whose registry settings differ from the
// base's.
func npmrcChanges(files []*change.File) []lang.Problem {
	var out []lang.Problem
	for _, f := range files {
		if path.Base(f.Path) != ".npmrc" && path.Base(f.OldPath) != ".npmrc" {
			continue
		}
		var changed []string
		if f.TooLarge || f.Binary {
			changed = []string{"its content (unreadable here)"}
		} else {
			changed = registryDiff(npm.RegistrySettings(f.Base), npm.RegistrySettings(f.Head))
		}
		if len(changed) == 0 {
			continue
		}
		out = append(out, lang.Problem{Kind: lang.GateConfigChanged, Location: lang.Location{File: f.Path, Line: 1}, Symbol: f.Path,
			Message: fmt.Sprintf("the change's %s changes which npm registry packages are looked up in (%s): the unknown-package check asked the base's registry instead",
				f.Path, strings.Join(changed, ", ")),
			Suggestion: "revert the registry change; where the project's packages come from needs a human (or scope.allow_gate_config_changes in the base policy)"})
	}
	return out
}

// registryDiff names the settings head sets differently from base.
func registryDiff(base, head map[string]string) []string {
	keys := slices.Collect(maps.Keys(head))
	for k := range base {
		if _, ok := head[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var out []string
	for _, k := range keys {
		b, inBase := base[k]
		h, inHead := head[k]
		switch {
		case !inBase:
			out = append(out, fmt.Sprintf("%s=%s added", k, h))
		case !inHead:
			out = append(out, k+" removed")
		case b != h:
			out = append(out, fmt.Sprintf("%s %s → %s", k, b, h))
		}
	}
	return out
}
