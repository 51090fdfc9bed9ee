package tsconfig

import (
	"testing"
	"testing/fstest"
)

func TestOwnerAndIncludes(t *testing.T) {
	fsys := fstest.MapFS{
		"tsconfig.json": {Data: []byte(`{
  // a solution: the app and the node scripts
  "files": [],
  "references": [{ "path": "./tsconfig.app.json" }, { "path": "./tsconfig.node.json" },],
}`)},
		"tsconfig.base.json":                          {Data: []byte(`{ "compilerOptions": { "strict": true, "target": "ES2022", "paths": { "@/*": ["./src/*"] } } }`)},
		"tsconfig.app.json":                           {Data: []byte(`{ "extends": "./tsconfig.base.json", "compilerOptions": { "lib": ["ES2022", "DOM"] }, "include": ["src"], "exclude": ["src/**/*.test.ts"] }`)},
		"tsconfig.node.json":                          {Data: []byte(`{ "extends": "@tsconfig/node20/tsconfig.json", "include": ["vite.config.ts"] }`)},
		"node_modules/@tsconfig/node20/tsconfig.json": {Data: []byte(`{ "compilerOptions": { "target": "es2023", "module": "node16" } }`)},
		"packages/lib/tsconfig.json":                  {Data: []byte(`{ "compilerOptions": { "allowJs": true, "checkJs": true, "baseUrl": "." } }`)},
	}
	cache := map[string]*Config{}
	for _, tt := range []struct{ file, owner, target string }{
		{"src/main.ts", "tsconfig.app.json", "es2022"},
		{"src/deep/x.tsx", "tsconfig.app.json", "es2022"},
		{"vite.config.ts", "tsconfig.node.json", "es2023"},
		{"src/a.test.ts", "tsconfig.json", ""}, // excluded everywhere: the nearest one
		{"packages/lib/index.js", "packages/lib/tsconfig.json", ""},
	} {
		c, err := Owner(fsys, tt.file, cache)
		if err != nil {
			t.Fatal(err)
		}
		if c == nil || c.Path != tt.owner || c.Options.Target != tt.target {
			t.Errorf("%s: owner %+v, want %s with target %q", tt.file, c, tt.owner, tt.target)
		}
	}
	app := cache["tsconfig.app.json"]
	if app.Options.PathsDir != "." || app.Options.Paths["@/*"][0] != "./src/*" || len(app.Options.Lib) != 2 {
		t.Errorf("app options: %+v", app.Options)
	}
	lib := cache["packages/lib/tsconfig.json"]
	if lib.Options.AllowJs == nil || !*lib.Options.CheckJs || lib.Options.BaseURL != "packages/lib" {
		t.Errorf("lib options: %+v", lib.Options)
	}
	if c, _ := Owner(fstest.MapFS{"a.ts": {}}, "a.ts", cache); c != nil {
		t.Errorf("owner without a configuration: %+v", c)
	}
}

func TestJSONC(t *testing.T) {
	var v map[string]any
	src := "{\n  // c\n  \"a\": \"http://x/*y*/\", /* b */\n  \"b\": [1, 2,],\n}\n"
	if err := DecodeJSONC([]byte(src), &v); err != nil {
		t.Fatal(err)
	}
	if v["a"] != "http://x/*y*/" || len(v["b"].([]any)) != 2 {
		t.Errorf("decoded %v", v)
	}
	if err := DecodeJSONC([]byte("{\n\n  \"a\": tru\n}"), &v); err == nil || err.Error()[:6] != "line 3" {
		t.Errorf("error %v, want one on line 3", err)
	}
}

func FuzzDecodeJSONC(f *testing.F) {
	f.Add([]byte(`{"a": [1,], /* x */ "b": "//"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var v any
		_ = DecodeJSONC(data, &v)
	})
}
