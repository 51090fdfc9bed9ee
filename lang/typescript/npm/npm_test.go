package npm

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
)

func TestPackageName(t *testing.T) {
	for spec, want := range map[string]string{
		"react": "react", "lodash/fp": "lodash", "@scope/pkg": "@scope/pkg", "@scope/pkg/sub/x.js": "@scope/pkg",
		"./a": "", "../a": "", "/abs": "", "#internal": "", "node:fs": "", "https://x/y": "", "virtual:pwa": "",
		"~/x": "", "@/components/x": "", "@scope": "", "": "", "npm:left-pad": "left-pad", "$lib/x": "",
		"pkg@1.2.3": "pkg",
	} {
		if got := PackageName(spec); got != want {
			t.Errorf("PackageName(%q) = %q, want %q", spec, got, want)
		}
	}
	for spec, want := range map[string]bool{"fs": true, "node:fs": true, "fs/promises": true, "node:test": true,
		"test": false, "node:nope": false, "lodash": false, "node:sqlite": true} {
		if Builtin(spec) != want {
			t.Errorf("Builtin(%q) = %v", spec, !want)
		}
	}
}

func TestLockfiles(t *testing.T) {
	fsys := fstest.MapFS{
		"package-lock.json": {Data: []byte(`{"packages": {"": {}, "node_modules/a": {}, "node_modules/b/node_modules/@s/c": {}}}`)},
		"yarn.lock":         {Data: []byte("# yarn\n\"@babel/core@^7.0.0\", \"@babel/core@^7.1.0\":\n  version \"7.1.0\"\nlodash@^4.17.21:\n  version \"4.17.21\"\n\"left-pad@npm:^1.0.0\":\n")},
		"pnpm-lock.yaml":    {Data: []byte("lockfileVersion: '9.0'\npackages:\n  /zod@3.22.0:\n    resolution: {}\n  '@types/node@20.1.0':\n    resolution: {}\n  react@18.2.0:\n")},
	}
	for file, want := range map[string][]string{
		"package-lock.json": {"a", "@s/c"},
		"yarn.lock":         {"@babel/core", "lodash", "left-pad"},
		"pnpm-lock.yaml":    {"zod", "@types/node", "react"},
	} {
		got := Locked(fsys, file)
		for _, w := range want {
			if !got[w] {
				t.Errorf("%s: %s not locked (%v)", file, w, got)
			}
		}
	}
}

func TestRegistry(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.EscapedPath() {
		case "/lodash", "/@scope%2Fpkg", "/@scope%2fpkg":
			w.Write([]byte(`{"name":"lodash","time":{"created":"2012-04-23T16:37:11.912Z"}}`))
		case "/broken":
			http.Error(w, "down", http.StatusBadGateway)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	home := t.TempDir()
	root := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("NPM_CONFIG_REGISTRY", "")
	t.Setenv("npm_config_registry", "")
	if err := os.WriteFile(filepath.Join(root, ".npmrc"), []byte("registry="+srv.URL+"\n@other:registry=http://127.0.0.1:1/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := NewRegistryFrom(os.DirFS(root))
	ctx := context.Background()
	if info, err := r.Lookup(ctx, "lodash", true); err != nil || info.Created.Year() != 2012 {
		t.Errorf("lodash: %+v %v", info, err)
	}
	if _, err := r.Lookup(ctx, "@scope/pkg", false); err != nil {
		t.Errorf("@scope/pkg: %v", err)
	}
	if _, err := r.Lookup(ctx, "lodahs", false); !errors.Is(err, ErrNotFound) {
		t.Errorf("lodahs: %v, want ErrNotFound", err)
	}
	if _, err := r.Lookup(ctx, "broken", false); err == nil || errors.Is(err, ErrNotFound) {
		t.Errorf("a failing registry: %v, want an error that is not ErrNotFound", err)
	}
	if _, err := r.Lookup(ctx, "@other/x", false); err == nil || errors.Is(err, ErrNotFound) {
		t.Errorf("the scope's registry (closed port) answered: %v", err)
	}
	t.Setenv("NPM_CONFIG_REGISTRY", "http://127.0.0.1:9/")
	if got := NewRegistry(root).URL("x"); got != "http://127.0.0.1:9/" {
		t.Errorf("NPM_CONFIG_REGISTRY ignored: %s", got)
	}
}

// The registry is the one the project's package manager is configured for: yarn's
// .yarnrc (yarn 1) and .yarnrc.yml (yarn 2+, which ignores .npmrc) and
// pnpm-workspace.yaml override .npmrc, scope by scope.
func TestRegistryFiles(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("NPM_CONFIG_REGISTRY", "")
	t.Setenv("npm_config_registry", "")
	tests := []struct {
		name  string
		files fstest.MapFS
		want  map[string]string // package → registry URL
	}{
		{"npmrc", fstest.MapFS{".npmrc": {Data: []byte("registry=http://npm.test\n@a:registry=http://a.test/\n")}},
			map[string]string{"x": "http://npm.test/", "@a/x": "http://a.test/"}},
		{"yarn 1", fstest.MapFS{".npmrc": {Data: []byte("registry=http://npm.test\n")}, ".yarnrc": {Data: []byte("registry \"http://yarn1.test\"\n\"@a:registry\" \"http://a1.test\"\nyarn-path \"./y.js\"\n")}},
			map[string]string{"x": "http://yarn1.test/", "@a/x": "http://a1.test/", "@b/x": "http://yarn1.test/"}},
		{"yarn 2+", fstest.MapFS{".npmrc": {Data: []byte("registry=http://npm.test\n")}, ".yarnrc.yml": {Data: []byte("nodeLinker: node-modules\nnpmRegistryServer: \"http://berry.test\"\nnpmScopes:\n  acme:\n    npmRegistryServer: http://acme.test\n  other:\n    npmAlwaysAuth: true\n")}},
			map[string]string{"x": "http://berry.test/", "@acme/x": "http://acme.test/", "@other/x": "http://berry.test/"}},
		{"pnpm by scope", fstest.MapFS{"pnpm-workspace.yaml": {Data: []byte("packages: [\"p/*\"]\nregistries:\n  default: http://pnpm.test\n  \"@acme\": http://acme.test\n")}},
			map[string]string{"x": "http://pnpm.test/", "@acme/x": "http://acme.test/"}},
		{"pnpm by URL", fstest.MapFS{"pnpm-workspace.yaml": {Data: []byte("registry: http://pnpm.test\nregistries:\n  http://corp.test/:\n    scopes: [\"@acme\", \"@corp\"]\n")}},
			map[string]string{"x": "http://pnpm.test/", "@acme/x": "http://corp.test/", "@corp/y": "http://corp.test/"}},
		{"broken files", fstest.MapFS{".yarnrc.yml": {Data: []byte("npmRegistryServer: [")}, "pnpm-workspace.yaml": {Data: []byte("registries: 3")}},
			map[string]string{"x": DefaultRegistry}},
	}
	for _, tt := range tests {
		r := NewRegistryFrom(tt.files)
		for pkg, want := range tt.want {
			if got := r.URL(pkg); got != want {
				t.Errorf("%s: URL(%s) = %s, want %s", tt.name, pkg, got, want)
			}
		}
	}
}

func TestReadExports(t *testing.T) {
	fsys := fstest.MapFS{
		"node_modules/a/package.json": {Data: []byte(`{"name":"a","exports":{".":{"require":"./c.js","import":"./e.mjs"}}}`)},
		"node_modules/a/c.js":         {Data: []byte("exports.x = 1;\nmodule.exports.y = 2;\nexports.deep.z = 3;\n")},
		"node_modules/b/package.json": {Data: []byte(`{"name":"b"}`)},
		"node_modules/b/index.js":     {Data: []byte("Object.assign(exports, require('./x'));\n")},
		"node_modules/c/package.json": {Data: []byte(`{"name":"c","main":"m"}`)},
		"node_modules/c/m.js":         {Data: []byte("export * from './n';\nexport default 1;\n")},
		"node_modules/c/n.js":         {Data: []byte("export const n1 = 1, n2 = 2;\nexport { n1 as alias };\n")},
	}
	for dir, want := range map[string]string{"node_modules/a": "x y", "node_modules/b": "open", "node_modules/c": "alias default n1 n2"} {
		data, _ := fs.ReadFile(fsys, dir+"/package.json")
		m, err := ParseManifest(dir+"/package.json", data)
		if err != nil {
			t.Fatal(err)
		}
		x := ReadExports(fsys, m)
		got := "open"
		if !x.Open {
			var names []string
			for n := range x.Names {
				names = append(names, n)
			}
			sort.Strings(names)
			got = strings.Join(names, " ")
		}
		if got != want {
			t.Errorf("%s: exports %q, want %q", dir, got, want)
		}
	}
}

// The aliases of a manifest are found wherever an install follows them: dependencies,
// npm's nested overrides, yarn's resolutions, pnpm.overrides; other specs are none.
func TestRedirects(t *testing.T) {
	m, err := ParseManifest("package.json", []byte(`{
  "dependencies": { "lodash": "npm:evil-lodash@1", "zod": "^3", "x": "github:a/b" },
  "devDependencies": { "@acme/ui": "npm:@evil/ui@^2.0.0" },
  "overrides": { "axios": { ".": "1.0.0", "follow-redirects": "npm:fr@1" }, "a@1.0.0": "npm:b" },
  "resolutions": { "**/left-pad": " npm:lefpad " },
  "pnpm": { "overrides": { "react": "npm:preact@10", "bad": "npm:../x" } }
}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"dependencies.lodash": "evil-lodash", "devDependencies.@acme/ui": "@evil/ui",
		"overrides.axios.follow-redirects": "fr", "overrides.a@1.0.0": "b", "resolutions.**/left-pad": "lefpad",
		"pnpm.overrides.react": "preact"}
	if !maps.Equal(m.Redirects, want) {
		t.Errorf("Redirects = %v, want %v", m.Redirects, want)
	}
	if _, err := ParseManifest("package.json", []byte(`{"pnpm": "not an object", "overrides": 3}`)); err != nil {
		t.Errorf("a manifest with odd tool fields does not read: %v", err)
	}
}

func FuzzParseManifest(f *testing.F) {
	f.Add([]byte(`{"name":"a","dependencies":{"b":"1"},"workspaces":{"packages":["p/*"]}}`))
	f.Add([]byte(`{"overrides":{"a":{"b":"npm:c@1"}},"resolutions":{"d":"npm:@e/f"},"pnpm":{"overrides":{"g":"npm:h"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ParseManifest("package.json", data)
		_ = npmLocked(data)
		_ = lineLocked(data, yarnEntry)
	})
}

func TestMinVersion(t *testing.T) {
	for _, tt := range []struct {
		rng  string
		want string // "" when there is no floor
	}{
		{">=18", "v18.0.0"}, {"^20.9.0", "v20.9.0"}, {"18.x || >=20", "v18.0.0"}, {">=20 || 16.14 - 18", "v16.14.0"},
		{">= 16.14.0 < 19", "v16.14.0"}, {"~18.17.1", "v18.17.1"}, {"v20", "v20.0.0"}, {"22.0.0-rc.1", "v22.0.0"},
		{"*", ""}, {"", ""}, {"<20", ""}, {">=18 || *", ""}, {"lts", ""},
	} {
		v, ok := MinVersion(tt.rng)
		got := ""
		if ok {
			got = v.String()
		}
		if got != tt.want {
			t.Errorf("MinVersion(%q) = %q, want %q", tt.rng, got, tt.want)
		}
	}
}

func TestAvailable(t *testing.T) {
	v := func(s string) Version { x, _ := ParseVersion(s); return x }
	styleText := []Version{v("21.7.0"), v("20.12.0")}
	for _, tt := range []struct {
		sinces    []Version
		floor     string
		majorOnly bool
		want      bool
	}{
		{styleText, "18.0.0", false, false}, {styleText, "20.11.0", false, false}, {styleText, "20.12.0", false, true},
		{styleText, "21.6.0", false, true}, // an earlier line has it: lenient where the backport list is silent
		{styleText, "22.0.0", false, true}, {styleText, "20", true, true}, {styleText, "18", true, false},
		{[]Version{v("22.0.0")}, "20.19.0", false, false}, {nil, "10", false, true},
	} {
		if got := Available(tt.sinces, v(tt.floor), tt.majorOnly); got != tt.want {
			t.Errorf("Available(%v, %s, %v) = %v, want %v", tt.sinces, tt.floor, tt.majorOnly, got, tt.want)
		}
	}
}

// FuzzMinVersion: any engines range reads without a panic, and a floor it finds is one
// the range's own text names.
func FuzzMinVersion(f *testing.F) {
	for _, s := range []string{">=18", "^20.9.0 || >=22", ">= 16.14.0 < 19", "1.2.3 - 2", "<", ">=", "||", "v", "x.x.x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rng string) {
		if v, ok := MinVersion(rng); ok && v[0] < 0 {
			t.Errorf("MinVersion(%q) = %v", rng, v)
		}
	})
}

// FuzzNodeAPIs: any declaration file indexes without a panic.
func FuzzNodeAPIs(f *testing.F) {
	f.Add("declare module \"util\" {\n/**\n * @since v21.7.0, v20.12.0\n */\nexport function styleText(): string;\n}")
	f.Add("/** @since */ export const")
	f.Fuzz(func(t *testing.T, src string) {
		a := NewNodeAPIs(fstest.MapFS{"t/util.d.ts": {Data: []byte(src)}}, "t")
		_ = a.Since("util", "styleText")
	})
}
