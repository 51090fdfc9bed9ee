package resolve

import (
	"strings"
	"testing"

	"github.com/agentverify/agentverify/change"
)

// A change to what steers the package managers' installs (registries, the binary and
// plugins yarn runs, pnpm's hooks and overrides) is a change to the gate's
// configuration; a change to their other settings is not.
func TestInstallChanges(t *testing.T) {
	tests := []struct {
		path, base, head string
		want             string // what the message names; "" for no finding
	}{
		{".npmrc", "registry=https://registry.npmjs.org/\n", "registry=http://127.0.0.1:8/\n", "registry https://registry.npmjs.org/ → http://127.0.0.1:8/"},
		{".npmrc", "save-exact=true\n", "save-exact=false\n", ""},
		{".yarnrc", "registry \"https://registry.yarnpkg.com\"\n", "registry \"http://127.0.0.1:8\"\n", "registry https://registry.yarnpkg.com → http://127.0.0.1:8"},
		{"pkg/.yarnrc", "", "\"@acme:registry\" \"http://127.0.0.1:8\"\n", "@acme:registry=http://127.0.0.1:8 added"},
		{".yarnrc", "", "yarn-path \".yarn/releases/evil.cjs\"\n", "yarn-path=.yarn/releases/evil.cjs added"},
		{".yarnrc", "network-timeout 1000\n", "network-timeout 60000\n", ""},
		{".yarnrc.yml", "nodeLinker: node-modules\n", "nodeLinker: node-modules\nnpmRegistryServer: \"http://127.0.0.1:8\"\n", "npmRegistryServer=http://127.0.0.1:8 added"},
		{".yarnrc.yml", "", "npmScopes:\n  acme:\n    npmRegistryServer: http://127.0.0.1:8\n", "npmScopes.acme.npmRegistryServer=http://127.0.0.1:8 added"},
		{".yarnrc.yml", "", "plugins:\n  - path: .yarn/plugins/evil.cjs\n", "plugins.0.path=.yarn/plugins/evil.cjs added"},
		{".yarnrc.yml", "enableTelemetry: true\n", "enableTelemetry: false\n", ""},
		{".yarnrc.yml", "npmRegistryServer: a\n", "npmRegistryServer: [\n", "(content that does not parse)"},
		{".pnpmfile.cjs", "", "module.exports = { hooks: { readPackage(p) { return p; } } };\n", "its install hooks=sha256:"},
		{".pnpmfile.cjs", "module.exports = {a:1};\n", "module.exports = {b:1};\n", "its install hooks sha256:"},
		{".pnpmfile.cjs", "x", "x", ""},
		{"pnpm-workspace.yaml", "packages:\n  - packages/*\n", "packages:\n  - packages/*\n  - apps/*\n", ""},
		{"pnpm-workspace.yaml", "packages:\n  - packages/*\n", "packages:\n  - packages/*\noverrides:\n  lodash: npm:lodash-fork@1\n", "overrides.lodash=npm:lodash-fork@1 added"},
		{"pnpm-workspace.yaml", "", "registries:\n  default: http://127.0.0.1:8/\n", "registries.default=http://127.0.0.1:8/ added"},
		{"src/app.ts", "a", "b", ""},
	}
	for _, tt := range tests {
		t.Run(tt.path+" "+tt.head, func(t *testing.T) {
			f := &change.File{Path: tt.path, Op: change.Modify, Base: []byte(tt.base), Head: []byte(tt.head)}
			ps := installChanges([]*change.File{f})
			switch {
			case tt.want == "" && len(ps) > 0:
				t.Errorf("finding %q, want none", ps[0].Message)
			case tt.want != "" && len(ps) != 1:
				t.Errorf("%d findings, want one naming %q", len(ps), tt.want)
			case tt.want != "" && !strings.Contains(ps[0].Message, tt.want):
				t.Errorf("message %q, want it to name %q", ps[0].Message, tt.want)
			}
		})
	}
	// Deleting the file is a change too, and so is one that cannot be read.
	del := &change.File{Path: ".yarnrc.yml", Op: change.Delete, Base: []byte("npmRegistryServer: https://registry.yarnpkg.com\n")}
	big := &change.File{Path: ".pnpmfile.cjs", Op: change.Modify, TooLarge: true}
	if ps := installChanges([]*change.File{del, big}); len(ps) != 2 {
		t.Errorf("deleted and unreadable: %d findings, want 2", len(ps))
	}
}
