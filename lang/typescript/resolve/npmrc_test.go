package resolve_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/internal/testkit/checktest"
	"github.com/agentverify/agentverify/internal/testkit/tsctest"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript"
	"github.com/agentverify/agentverify/lang/typescript/resolve"
)

// A change that points .npmrc at a registry of its own (one that says every name exists)
// does not make its made-up package known: the lookup asks the base's registry, and the
// redirect is scope/gate-config-changed; a change to another setting of .npmrc is not.
func TestNpmrcFromTrustedSide(t *testing.T) {
	honest, liar := registries(t)
	archive := fmt.Sprintf(`-- package.json --
{ "name": "app", "type": "module" }
-- tsconfig.json --
{ "compilerOptions": { "target": "es2022", "module": "esnext", "moduleResolution": "bundler", "types": [] }, "include": ["src"] }
-- base/.npmrc --
registry=%[1]s
-- head/.npmrc --
registry=%[2]s
-- base/packages/tool/.npmrc --
save-exact=true
-- head/packages/tool/.npmrc --
save-exact=false
-- head/src/app.ts --
import { sanitize } from "made-up-sanitizer";
export const s = sanitize;
`, honest.URL+"/", liar.URL+"/")
	req, ps := resolveArchive(t, archive)
	if !slices.ContainsFunc(ps, func(p lang.Problem) bool { return p.Kind == lang.UnknownPackage && p.Symbol == "made-up-sanitizer" }) {
		t.Errorf("the made-up package was not unknown-package (the head's .npmrc was asked?): %v", ps)
	}
	ws := resolve.Weakenings(req)
	var files []string
	for _, w := range ws {
		if w.Kind == lang.GateConfigChanged {
			files = append(files, w.Location.File)
		}
	}
	if !slices.Equal(files, []string{".npmrc"}) {
		t.Errorf("gate-config-changed on %v, want on .npmrc only: %v", files, ws)
	}
}

// registries starts an honest registry (it has no package) and a liar (it has every
// one) for the rest of the test, with no other registry configured.
func registries(t *testing.T) (honest, liar *httptest.Server) {
	tsctest.Require(t)
	honest = httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(honest.Close)
	liar = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"name":%q,"time":{"created":"2015-01-01T00:00:00Z"}}`, strings.TrimPrefix(r.URL.Path, "/"))
	}))
	t.Cleanup(liar.Close)
	t.Setenv("NPM_CONFIG_REGISTRY", "")
	t.Setenv("npm_config_registry", "")
	t.Setenv("HOME", t.TempDir())
	return honest, liar
}

// resolveArchive resolves the change a checktest archive describes with the TypeScript
// frontend.
func resolveArchive(t *testing.T, archive string) (*lang.Request, []lang.Problem) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "case.txtar")
	if err := os.WriteFile(path, []byte(archive), 0o644); err != nil {
		t.Fatal(err)
	}
	c := checktest.Load(t, path)
	fe := typescript.New()
	req := c.Pass(lang.Registry{fe}).Request()
	ps, err := fe.Resolve(req)
	if err != nil {
		t.Fatal(err)
	}
	return req, ps
}

// The lookup asks the registry the project's package manager installs from, as the
// trusted side configures it: yarn 2+ reads .yarnrc.yml, not .npmrc (here a liar's), and
// the change's own .yarnrc.yml is not asked; likewise yarn 1's .yarnrc and pnpm's
// pnpm-workspace.yaml.
func TestYarnAndPnpmRegistriesFromTrustedSide(t *testing.T) {
	honest, liar := registries(t)
	for name, files := range map[string]string{
		"yarn 2+": "-- base/.yarnrc.yml --\nnpmRegistryServer: \"%[1]s\"\n-- head/.yarnrc.yml --\nnpmRegistryServer: \"%[2]s\"\n",
		"yarn 1":  "-- base/.yarnrc --\nregistry \"%[1]s\"\n-- head/.yarnrc --\nregistry \"%[2]s\"\n",
		"pnpm":    "-- base/pnpm-workspace.yaml --\nregistry: %[1]s\n-- head/pnpm-workspace.yaml --\nregistry: %[2]s\n",
	} {
		t.Run(name, func(t *testing.T) {
			archive := fmt.Sprintf(`-- package.json --
{ "name": "app", "type": "module" }
-- tsconfig.json --
{ "compilerOptions": { "target": "es2022", "module": "esnext", "moduleResolution": "bundler", "types": [] }, "include": ["src"] }
-- .npmrc --
registry=%[2]s
`+files+`-- head/src/app.ts --
import { sanitize } from "made-up-sanitizer";
export const s = sanitize;
`, honest.URL+"/", liar.URL+"/")
			_, ps := resolveArchive(t, archive)
			if !slices.ContainsFunc(ps, func(p lang.Problem) bool { return p.Kind == lang.UnknownPackage && p.Symbol == "made-up-sanitizer" }) {
				t.Errorf("the made-up package was not unknown-package (.npmrc or the head's configuration was asked?): %v", ps)
			}
		})
	}
}
