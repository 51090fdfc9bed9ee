package tsc

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// tool returns the compiler the tests use, skipping with the install line without one.
func tool(t *testing.T) *Tool {
	t.Helper()
	if os.Getenv(EnvVar) == "" {
		dir, _ := filepath.Abs(".")
		for ; dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
			if tl, err := fromPackage(filepath.Join(dir, ".cache", "typescript", "node_modules", "typescript")); err == nil {
				return tl
			}
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				break
			}
		}
	}
	tl, err := Find("")
	if err != nil {
		t.Skipf("%v (from the repository root: npm install --prefix .cache/typescript typescript@%s)", err, Version)
	}
	return tl
}

func project(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, s := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var sample = map[string]string{
	"tsconfig.json": `{ "compilerOptions": { "target": "es2020", "lib": ["es2020"], "strict": true, "types": [] } }`,
	"a.ts":          "import { foo } from \"./b\";\nconst s = \"é\";\ns.toUpperCas();\nfoo(1, 2);\n",
	"b.ts":          "export function foo(a: number) { return a; }\n",
}

func TestBatch(t *testing.T) {
	tl := tool(t)
	dir := project(t, sample)
	ds, err := tl.Check(context.Background(), Options{Config: filepath.Join(dir, "tsconfig.json"), Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		got = append(got, d.File+":"+strconv.Itoa(d.Line)+":"+strconv.Itoa(d.Column)+": TS"+strconv.Itoa(d.Code))
	}
	want := "a.ts:3:3: TS2551\na.ts:4:8: TS2554"
	if strings.Join(got, "\n") != want {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
}

func TestServer(t *testing.T) {
	tl := tool(t)
	if !tl.Native() {
		t.Skip("the language server needs TypeScript 7")
	}
	dir := project(t, sample)
	s := NewServers()
	defer s.Close()
	ctx := context.Background()
	for i, src := range []string{sample["a.ts"], "import { foo } from \"./b\";\nfoo(1);\n", sample["a.ts"]} {
		ds, err := s.Check(ctx, tl, dir, map[string][]byte{"a.ts": []byte(src)})
		if err != nil {
			t.Fatal(err)
		}
		var codes []string
		for _, d := range ds {
			if d.Category == "error" {
				codes = append(codes, d.File+":"+strconv.Itoa(d.Line)+":TS"+strconv.Itoa(d.Code))
			}
		}
		want := []string{"a.ts:3:TS2551,a.ts:4:TS2554", "", "a.ts:3:TS2551,a.ts:4:TS2554"}[i]
		if strings.Join(codes, ",") != want {
			t.Errorf("check %d: %v, want %s", i, codes, want)
		}
	}
	// A change on disk behind the server's back is seen.
	if err := os.WriteFile(filepath.Join(dir, "b.ts"), []byte("export function foo(a: number, b: number) { return a + b; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ds, err := s.Check(ctx, tl, dir, map[string][]byte{"a.ts": []byte(sample["a.ts"])})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if d.Code == 2554 {
			t.Errorf("the server kept b.ts as it was: %+v", d)
		}
	}
}
