package resolve_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/internal/testkit/checktest"
	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/internal/testkit/tsctest"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript"
	"github.com/agentverify/agentverify/lang/typescript/tsc"
)

// problems resolves the case's head with fe and renders the problems.
func problems(t *testing.T, c *checktest.Case, fe *typescript.Frontend) []string {
	t.Helper()
	ps, err := fe.Resolve(c.Pass(lang.Registry{fe}).Request())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range ps {
		// The compilers word some messages differently; the code says what it is.
		code := p.Message[strings.LastIndex(p.Message, "(")+1:]
		out = append(out, fmt.Sprintf("%s:%d:%d: %s %s %s", p.Location.File, p.Location.Line, p.Location.Column, p.Kind, strings.TrimSuffix(code, ")"), p.Suggestion))
	}
	return out
}

const want = `src/app.ts:1:17: unknown-symbol TS2724 did you mean greet?
src/app.ts:3:29: wrong-arity TS2554 
src/app.ts:4:14: type-error TS2322 `

// The language server (warm) and the batch compiler report the same problems, and an
// added @ts-expect-error hides none; the warm server answers again after an edit and
// after the edit is taken back.
func TestWarmEqualsBatch(t *testing.T) {
	tool := tsctest.Require(t)
	c := checktest.Load(t, "testdata/project.txtar")
	if got := strings.Join(problems(t, c, typescript.New()), "\n"); got != want {
		t.Errorf("batch:\n%s\nwant:\n%s", got, want)
	}
	if !tool.Native() {
		t.Skip("the language server needs TypeScript 7")
	}
	servers := tsc.NewServers()
	defer servers.Close()
	warm := typescript.NewWarm(servers)
	for i := 0; i < 2; i++ {
		if got := strings.Join(problems(t, c, warm), "\n"); got != want {
			t.Errorf("warm run %d:\n%s\nwant:\n%s", i, got, want)
		}
	}
}

// Without a compiler the verification cannot be made: a SetupError naming the install
// command, never a pass.
func TestNoCompilerIsSetupError(t *testing.T) {
	c := checktest.Load(t, "testdata/project.txtar")
	t.Setenv(tsc.EnvVar, "")
	t.Setenv("PATH", t.TempDir())
	_, err := typescript.New().Resolve(c.Pass(lang.Registry{typescript.New()}).Request())
	var se *lang.SetupError
	if !asSetup(err, &se) || !strings.Contains(err.Error(), "npm install -g typescript@"+tsc.Version) {
		t.Fatalf("error %v, want a SetupError with the install line", err)
	}
}

func asSetup(err error, se **lang.SetupError) bool {
	s, ok := err.(*lang.SetupError)
	*se = s
	return ok
}

// A project whose configuration TypeScript 7 refuses (baseUrl, moduleResolution node)
// is checked by the older compiler it is written for.
func TestFallbackToOlderCompiler(t *testing.T) {
	if testing.Short() {
		t.Skip("runs TypeScript 5's compiler: not in -short")
	}
	tool := tsctest.Require(t)
	if !tool.Native() {
		t.Skip("needs TypeScript 7 to refuse the configuration")
	}
	older := olderTSC(t)
	c := checktest.Load(t, "testdata/project.txtar")
	// The project's own configuration, the same at the base (which the options are
	// trusted from) and the head.
	for _, dir := range []string{c.BaseDir, c.HeadDir} {
		cfg := filepath.Join(dir, "tsconfig.json")
		if err := os.WriteFile(cfg, []byte(`{ "compilerOptions": { "target": "es2022", "strict": true, "baseUrl": ".", "moduleResolution": "node", "types": [] }, "include": ["src"] }`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(tsc.EnvVar+"_FALLBACK", "")
	if _, err := typescript.New().Resolve(c.Pass(lang.Registry{typescript.New()}).Request()); err == nil || !strings.Contains(err.Error(), "refuses") {
		t.Errorf("without an older compiler: %v, want a SetupError saying TypeScript 7 refuses the configuration", err)
	}
	t.Setenv(tsc.EnvVar+"_FALLBACK", older)
	if got := strings.Join(problems(t, c, typescript.New()), "\n"); got != want {
		t.Errorf("with TypeScript 5:\n%s\nwant:\n%s", got, want)
	}
}

// olderTSC returns a TypeScript 5 tsc: the one installed with the ESLint oracle.
func olderTSC(t *testing.T) string {
	dir, _ := filepath.Abs(".")
	for ; dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		p := filepath.Join(dir, ".cache", "eslint", "node_modules", "typescript", "bin", "tsc")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skip("no TypeScript 5 (npm install --prefix .cache/eslint typescript@5)")
	return ""
}

// corpusRegistry serves an npm registry on 127.0.0.1 that knows the corpus's real
// packages and nothing else.
func corpusRegistry(t *testing.T) string {
	t.Helper()
	known := map[string]bool{"lodash": true, "axios": true, "zod": true, "express": true, "typed-lib": true, "tiny-cjs": true, "tiny-esm": true}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, _ := url.PathUnescape(strings.TrimPrefix(r.URL.EscapedPath(), "/"))
		if !known[name] {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintf(w, `{"name":%q,"time":{"created":"2015-01-01T00:00:00Z"}}`, name)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// Project references: two projects of a workspace, app referencing core and importing
// it by its package name (linked into node_modules as npm links workspaces), core never
// built. A change in app is checked against core's sources; a change in core's API is
// reported at app's caller, a file the change does not touch; batch and warm agree.
func TestProjectReferences(t *testing.T) {
	shorttest.Slow(t, "runs tsc over several projects")
	tool := tsctest.Require(t)
	for _, tt := range []struct{ txtar, want string }{
		{"references_app.txtar", "packages/app/src/main.ts:3:42: wrong-arity TS2554 \npackages/app/src/main.ts:4:22: unknown-member TS2339 "},
		{"references_core.txtar", "packages/app/src/main.ts:3:28: wrong-arity TS2554 \npackages/app/src/other.ts:2:22: wrong-arity TS2554 "},
	} {
		t.Run(tt.txtar, func(t *testing.T) {
			c := checktest.Load(t, filepath.Join("testdata", tt.txtar))
			linkWorkspaces(t, c.HeadDir, c.BaseDir)
			if got := strings.Join(problems(t, c, typescript.New()), "\n"); got != tt.want {
				t.Errorf("batch:\n%s\nwant:\n%s", got, tt.want)
			}
			if !tool.Native() {
				return
			}
			servers := tsc.NewServers()
			defer servers.Close()
			if got := strings.Join(problems(t, c, typescript.NewWarm(servers)), "\n"); got != tt.want {
				t.Errorf("warm:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// linkWorkspaces links the workspace packages into node_modules, as npm install does.
func linkWorkspaces(t *testing.T, dirs ...string) {
	t.Helper()
	for _, dir := range dirs {
		if err := os.MkdirAll(filepath.Join(dir, "node_modules", "@acme"), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"core", "app"} {
			if err := os.Symlink(filepath.Join("..", "..", "packages", p), filepath.Join(dir, "node_modules", "@acme", p)); err != nil {
				t.Fatal(err)
			}
		}
	}
}
