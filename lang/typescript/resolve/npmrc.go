package resolve

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript/npm"
	"go.yaml.in/yaml/v3"
)

// An .npmrc decides which registry the unknown-package check asks (and where npm
// installs from): a change that points it at a server of its own gets any made-up name
// "found". The check reads the trusted side's .npmrc (packages.go); a change to the
// registry settings of any .npmrc in the repository (npm reads the one of the project
// it runs in) is a change to the gate's configuration. So is a change to what steers
// the other package managers' installs the same way: the registries of .yarnrc (yarn
// 1) and .yarnrc.yml (yarn 2+, with the yarn binary and plugins it runs), pnpm's
// .pnpmfile.cjs (code pnpm runs on every install, rewriting what packages depend on)
// and the overrides, package extensions, registries and pnpmfile of
// pnpm-workspace.yaml, and the fields of package.json that redirect what a name installs
// (npm's overrides, yarn's resolutions, pnpm's overrides, package extensions and
// patches: `"lodash": "npm:evil-lodash@1"`). An install from a registry of the change's own fetches whatever
// it serves for a made-up name; the user installs what the change says exists.

// installSteering reads, by the base name of a file, the settings of it that steer
// installs, by key; nil for a file that steers nothing.
var installSteering = map[string]func([]byte) map[string]string{
	".npmrc":              npm.RegistrySettings,
	".yarnrc":             yarnrcSettings,
	".yarnrc.yml":         yamlSettings(yarnKeys),
	"pnpm-workspace.yaml": yamlSettings(pnpmWorkspaceKeys),
	".pnpmfile.cjs":       wholeFile,
	".pnpmfile.mjs":       wholeFile,
	"package.json":        manifestSettings,
}

// installChanges reports each changed file that steers installs whose settings differ
// from the base's.
func installChanges(files []*change.File) []lang.Problem {
	var out []lang.Problem
	for _, f := range files {
		read := installSteering[path.Base(f.Path)]
		if read == nil {
			read = installSteering[path.Base(f.OldPath)]
		}
		if read == nil {
			continue
		}
		var changed []string
		if f.TooLarge || f.Binary {
			changed = []string{"its content (unreadable here)"}
		} else {
			changed = registryDiff(read(f.Base), read(f.Head))
		}
		if len(changed) > 0 {
			out = append(out, installProblem(f.Path, changed))
		}
	}
	return out
}

func installProblem(file string, changed []string) lang.Problem {
	msg := fmt.Sprintf("the change's %s changes which npm registry packages are looked up in (%s): the unknown-package check asked the base's registry instead",
		file, strings.Join(changed, ", "))
	if path.Base(file) != ".npmrc" {
		msg = fmt.Sprintf("the change's %s changes where packages are installed from or what installs run (%s): every install of the project would follow it",
			file, strings.Join(changed, ", "))
	}
	return lang.Problem{Kind: lang.GateConfigChanged, Location: lang.Location{File: file, Line: 1}, Symbol: file, Message: msg,
		Suggestion: "revert the change; where the project's packages come from needs a human (or scope.allow_gate_config_changes in the base policy)"}
}

// yarnrcSettings reads the settings of a yarn 1 .yarnrc that steer installs: the
// registries and the yarn binary it runs (yarn-path).
func yarnrcSettings(data []byte) map[string]string {
	out := npm.YarnrcSettings(data)
	maps.DeleteFunc(out, func(k, _ string) bool { return !strings.HasSuffix(k, "registry") && k != "yarn-path" })
	return out
}

// yarnKeys are the settings of .yarnrc.yml that steer installs: the registries, the
// yarn binary and plugins it runs, plain-HTTP hosts it allows, dependencies it adds.
func yarnKeys(key string) bool {
	return strings.Contains(key, "npmRegistryServer") || hasTop(key, "npmRegistries", "npmScopes", "yarnPath", "plugins",
		"unsafeHttpWhitelist", "packageExtensions")
}

// pnpmWorkspaceKeys are the settings of pnpm-workspace.yaml that steer installs (the
// packages list and catalogs do not).
func pnpmWorkspaceKeys(key string) bool {
	return strings.Contains(strings.ToLower(key), "registr") || hasTop(key, "overrides", "packageExtensions", "pnpmfile",
		"globalPnpmfile", "patchedDependencies")
}

// hasTop reports whether the dotted key is, or is under, one of tops.
func hasTop(key string, tops ...string) bool {
	top, _, _ := strings.Cut(key, ".")
	return slices.Contains(tops, top)
}

// yamlSettings reads a YAML file into its leaves by dotted key, those keep accepts; a
// file that does not parse is one setting of its own (its content).
func yamlSettings(keep func(string) bool) func([]byte) map[string]string {
	return func(data []byte) map[string]string {
		out := map[string]string{}
		if len(bytes.TrimSpace(data)) == 0 {
			return out
		}
		var doc any
		if err := yaml.Unmarshal(data, &doc); err != nil {
			out["(content that does not parse)"] = string(data)
			return out
		}
		flatten(out, "", doc, keep)
		return out
	}
}

// flatten adds the leaves of v under prefix to out.
func flatten(out map[string]string, prefix string, v any, keep func(string) bool) {
	join := func(k string) string {
		if prefix == "" {
			return k
		}
		return prefix + "." + k
	}
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			flatten(out, join(k), e, keep)
		}
	case []any:
		for i, e := range v {
			flatten(out, join(fmt.Sprint(i)), e, keep)
		}
	default:
		if prefix != "" && keep(prefix) {
			out[prefix] = fmt.Sprint(v)
		}
	}
}

// manifestSettings reads the fields of a package.json that steer installs, by dotted
// key: npm's overrides, yarn's resolutions, pnpm's overrides, packageExtensions and
// patchedDependencies. A package.json that does not read steers nothing here (it is the
// resolver's syntax error, and no package manager installs from it).
func manifestSettings(data []byte) map[string]string {
	out := map[string]string{}
	var doc map[string]any
	if json.Unmarshal(data, &doc) != nil {
		return out
	}
	fields := map[string]any{"overrides": doc["overrides"], "resolutions": doc["resolutions"]}
	if pnpm, ok := doc["pnpm"].(map[string]any); ok {
		for _, k := range []string{"overrides", "packageExtensions", "patchedDependencies"} {
			fields["pnpm."+k] = pnpm[k]
		}
	}
	for k, v := range fields {
		if v != nil {
			flatten(out, k, v, func(string) bool { return true })
		}
	}
	return out
}

// wholeFile is a file every change of which counts (its hooks: code).
func wholeFile(data []byte) map[string]string {
	if len(data) == 0 {
		return map[string]string{}
	}
	return map[string]string{"its install hooks": fmt.Sprintf("sha256:%.12x", sha256.Sum256(data))}
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
