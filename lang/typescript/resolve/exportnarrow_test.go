package resolve

import (
	"io/fs"
	"path"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript/tsconfig"
)

// reachProject is a project whose files import src/lib.ts every way the narrowing
// follows; the compiler is not run: TestNarrowedCheckFindsWhatTheWholeProjectFinds
// proves against it that what is reached is enough.
var reachProject = map[string]string{
	"package.json":       `{ "name": "pkg", "exports": { "./lib": { "source": "./src/lib.ts", "types": "./dist/lib.d.ts" }, "./src": { "types": "./src/lib.ts" } } }`,
	"tsconfig.json":      `{ "compilerOptions": { "strict": true, "paths": { "@/*": ["./src/*"] } }, "include": ["src"] }`,
	"dist/lib.d.ts":      "export declare function twice(n: number): number;\n",
	"src/lib.ts":         "import { helper } from \"./helper\";\n\nexport type Size = number;\n\nexport function twice(n: Size): number {\n  return helper(n);\n}\n\nexport function label(n: number): string {\n  return String(n);\n}\n",
	"src/helper.ts":      "export function helper(n: number): number {\n  return 2 * n;\n}\n",
	"src/use.ts":         "import { twice } from \"./lib.js\";\nexport const four = twice(2);\n",
	"src/useUse.ts":      "import { four } from \"./use\";\nexport const f: number = four;\n",
	"src/reexport.ts":    "export * from \"./lib\";\n",
	"src/viaReexport.ts": "import { twice } from \"./reexport\";\nexport const eight: number = twice(4);\n",
	"src/ns.ts":          "export * as L from \"./lib\";\n",
	"src/viaNs.ts":       "import { L } from \"./ns\";\nexport function n(): number {\n  return L.twice(1);\n}\n",
	"src/useN.ts":        "import { n } from \"./viaNs\";\nexport const m: number = n();\n",
	"src/nsLabel.ts":     "import * as lib from \"./lib\";\n// lib.twice is not used here\nexport const s: string = lib.label(1);\n",
	"src/nsWhole.ts":     "import * as lib from \"./lib\";\nexport const all = Object.keys(lib);\n",
	"src/typeOnly.ts":    "import type { Size } from \"./lib\";\nexport const s: Size = 1;\n",
	"src/typeImport.ts":  "export type T = typeof import(\"./lib\").twice;\n",
	"src/augment.ts":     "export {};\ndeclare module \"./lib\" {\n  interface Extra {\n    x: number;\n  }\n}\n",
	"src/alias.ts":       "import { twice } from \"@/lib\";\nexport const a: number = twice(1);\n",
	"src/selfSrc.ts":     "import { twice } from \"pkg/src\";\nexport const b: number = twice(1);\n",
	"src/selfDist.ts":    "import { twice } from \"pkg/lib\";\nexport const c: number = twice(1);\n",
	"src/more.ts":        "export const extra = 1;\n",
	"src/both.ts":        "export * from \"./lib\";\nexport * from \"./more\";\n",
	"src/global.ts":      "declare const APP: string;\n",
}

// TestExportNarrowingReaches: which unchanged files a change of src/lib.ts's exports
// reaches, and when the check does not narrow.
func TestExportNarrowingReaches(t *testing.T) {
	always := []string{"src/augment.ts", "src/nsWhole.ts", "src/typeImport.ts"} // the module as a whole
	for _, tc := range []struct {
		name, from, to string
		extra          map[string]string // files added to the project
		narrow         bool
		want           []string // reached besides always; empty: none at all
	}{
		{"an export added", "export function label", "export const added = 1;\n\nexport function label", nil, true, nil},
		{"an export added: a static import beside a dynamic one, and an augmentation", "export function label", "export const added = 1;\n\nexport function label",
			map[string]string{
				"src/dyn.ts": "import { label } from \"./lib\";\nexport const m = import(\"./lib\");\nexport const l = label;\n",
				"src/aug.ts": "import { label } from \"./lib\";\ndeclare module \"./lib\" {\n  interface Extra {\n    y: number;\n  }\n}\nexport const l2 = label;\n",
			}, true, []string{"src/aug.ts", "src/dyn.ts"}},
		{"an export added that another export * gives", "export function label", "export const extra = 1;\n\nexport function label", nil, true, []string{"src/both.ts", "src/reexport.ts"}},
		{"a signature changed", "twice(n: Size): number", "twice(n: string): number", nil, true,
			[]string{"src/alias.ts", "src/selfSrc.ts", "src/use.ts", "src/useUse.ts", "src/viaNs.ts", "src/viaReexport.ts"}},
		{"a type changed through a local declaration", "export type Size = number;", "export type Size = string;", nil, true,
			[]string{"src/alias.ts", "src/selfSrc.ts", "src/typeOnly.ts", "src/use.ts", "src/useUse.ts", "src/viaNs.ts", "src/viaReexport.ts"}},
		{"an import the exports do not name changed", "import { helper } from \"./helper\";", "import { helper } from \"./helper.js\";", nil, true, []string{}},
		{"a body without a return type changed", "export function label", "export function other() {\n  return 1;\n}\n\nexport function label", nil, true, nil},
		{"the label export removed", "export function label(n: number): string {\n  return String(n);\n}\n", "", nil, true, []string{"src/nsLabel.ts"}},
		{"a re-export added", "export type Size", "export * from \"./more\";\nexport type Size", nil, false, nil},
		{"an import that leaves the project", "export function label", "export const added = 1;\n\nexport function label",
			map[string]string{"src/out.ts": "import { x } from \"../../elsewhere/x\";\n"}, false, nil},
		{"a package no file imports", "export function label", "import \"side-effects\";\nexport function label", nil, false, nil},
		{"a global declared with a changed type", "export type Size = number;", "export type Size = string;",
			map[string]string{"src/globalUse.ts": "import type { Size } from \"./lib\";\ndeclare global {\n  var SIZE: Size;\n}\nexport {};\n"}, false, nil},
		{"another module augmented with a changed type", "export type Size = number;", "export type Size = string;",
			map[string]string{"src/augmentMore.ts": "import type { Size } from \"./lib\";\ndeclare module \"./more\" {\n  interface Extra {\n    s: Size;\n  }\n}\n"}, false, nil},
		{"a global declared with an unchanged type", "export type Size = number;", "export type Size = string;",
			map[string]string{"src/globalUse.ts": "import type { Other } from \"./lib\";\ndeclare global {\n  var O: Other;\n}\nexport {};\n"}, true,
			[]string{"src/alias.ts", "src/selfSrc.ts", "src/typeOnly.ts", "src/use.ts", "src/useUse.ts", "src/viaNs.ts", "src/viaReexport.ts"}},
		{"an included hidden directory", "export function twice", "export function thrice",
			map[string]string{"tsconfig.json": `{ "include": ["src", ".gen"] }`, ".gen/g.ts": "import { twice } from \"../src/lib\";\nexport const g = twice;\n"}, true,
			[]string{".gen/g.ts", "src/selfSrc.ts", "src/use.ts", "src/useUse.ts", "src/viaNs.ts", "src/viaReexport.ts"}},
		{"a linked directory", "export function label", "export const added = 1;\n\nexport function label",
			map[string]string{"src/linked": "../elsewhere"}, false, nil},
		{"an importer the project does not include", "export function twice", "export function thrice",
			map[string]string{"tools/t.ts": "import { twice } from \"../src/lib\";\nexport const t = twice;\n"}, true,
			[]string{"src/alias.ts", "src/selfSrc.ts", "src/use.ts", "src/useUse.ts", "src/viaNs.ts", "src/viaReexport.ts"}},
		{"an importer the project does not include, imported by one it does", "export function twice", "export function thrice",
			map[string]string{"tools/t.ts": "import { twice } from \"../src/lib\";\nexport const t = twice;\n",
				"src/usesTools.ts": "import { t } from \"../tools/t\";\nexport const u = t;\n"}, false, nil},
		{"a subpath import (package.json imports)", "export function twice", "export function thrice",
			map[string]string{"package.json": `{ "name": "pkg", "imports": { "#lib": "./src/lib.ts" } }`,
				"src/hash.ts": "import { twice } from \"#lib\";\nexport const h: number = twice(1);\n"}, false, nil},
		{"an export added that a package re-exported through a module gives", "export function label", "export const fromPkg = 1;\n\nexport function label",
			map[string]string{"src/pkgStar.ts": "export * from \"some-package\";\n", "src/both2.ts": "export * from \"./lib\";\nexport * from \"./pkgStar\";\n"}, true, []string{"src/both2.ts"}},
		{"an import of globals the project does not include removed", "import \"../types/globals\";\n", "export const added = 1;\n",
			map[string]string{"src/lib.ts": "import \"../types/globals\";\n" + reachProject["src/lib.ts"],
				"types/globals.ts": "export {};\ndeclare global {\n  var APP: string;\n}\n", "src/app.ts": "export const app: string = APP;\n"}, false, nil},
		{"an import of an included module removed", "import { helper } from \"./helper\";", "export const added = 1;", nil, true, nil},
		{"classic resolution (TypeScript 5's default for an ES module kind)", "export function twice", "export function thrice",
			map[string]string{"tsconfig.json": `{ "compilerOptions": { "module": "esnext" }, "include": ["src"] }`,
				"src/bare.ts": "import { twice } from \"lib\";\nexport const b: number = twice(1);\n"}, false, nil},
		{"bundler resolution", "export function twice", "export function thrice",
			map[string]string{"tsconfig.json": `{ "compilerOptions": { "module": "esnext", "moduleResolution": "bundler" }, "include": ["src"] }`}, true,
			[]string{"src/selfSrc.ts", "src/use.ts", "src/useUse.ts", "src/viaNs.ts", "src/viaReexport.ts"}},
		{"an import inside a module declaration", "twice(n: Size): number", "twice(n: string): number",
			map[string]string{"src/nested.ts": "import { label } from \"./lib\";\ndeclare module \"other\" {\n  import { twice } from \"./lib\";\n  export const t: typeof twice;\n}\nexport const l = label;\n"}, false, nil},
		{"rootDirs", "export function label", "export const added = 1;\n\nexport function label",
			map[string]string{"tsconfig.json": `{ "compilerOptions": { "rootDirs": ["src", "gen"] }, "include": ["src"] }`}, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := reachFS(tc.extra)
			base := libBase(tc.extra)
			head := strings.Replace(base, tc.from, tc.to, 1)
			if head == base {
				t.Fatal("the edit does not apply")
			}
			fsys["src/lib.ts"] = &fstest.MapFile{Data: []byte(head)}
			cfg, err := tsconfig.Load(fsys, "tsconfig.json")
			if err != nil {
				t.Fatal(err)
			}
			f := change.NewFile("src/lib.ts", "src/lib.ts", []byte(base), []byte(head))
			j := &job{req: &lang.Request{Changes: &change.Set{HeadFS: fsys, Files: []*change.File{f}}}}
			g := &group{config: cfg, targets: []*target{{f: f, src: []byte(head)}}}
			j.narrowing(g, map[string][]byte{"src/lib.ts": []byte(head)})
			if g.narrow != tc.narrow {
				t.Fatalf("narrow = %v, want %v", g.narrow, tc.narrow)
			}
			if !tc.narrow {
				return
			}
			want := tc.want // nil: only the files that take the module as a whole
			if want == nil || len(want) > 0 {
				want = slices.Concat(always, tc.want)
			}
			slices.Sort(want)
			if !slices.Equal(g.reached, want) {
				t.Errorf("reached %v\nwant    %v", g.reached, want)
			}
			if !slices.Contains(g.roots, "src/augment.ts") || !slices.Contains(g.roots, "src/global.ts") {
				t.Errorf("roots %v, want the augmentation and the script", g.roots)
			}
		})
	}
}

// libBase is the base of the edited src/lib.ts: reachProject's, unless extra gives one.
func libBase(extra map[string]string) string {
	if b, ok := extra["src/lib.ts"]; ok {
		return b
	}
	return reachProject["src/lib.ts"]
}

// reachFS is reachProject with extra files; one named "linked" is a link to a
// directory.
func reachFS(extra map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for p, s := range reachProject {
		fsys[p] = &fstest.MapFile{Data: []byte(s)}
	}
	for p, s := range extra {
		fsys[p] = &fstest.MapFile{Data: []byte(s)}
		if path.Base(p) == "linked" {
			fsys[p].Mode = fs.ModeSymlink
			fsys["elsewhere/e.ts"] = &fstest.MapFile{Data: []byte("export {};\n")}
		}
	}
	return fsys
}

// TestSpecifiers: every string that may name a module, and no other.
func TestSpecifiers(t *testing.T) {
	src := "import a from \"./a\";\nimport {\n  b,\n} from './b';\nexport * from \"./c\";\nimport \"./d\";\nconst e = require( \"./e\" );\nconst f = await import('./f');\ntype G = import(\"./g\").G;\n/// <reference path=\"./h.d.ts\" />\n/// <reference types=\"node\" />\ndeclare module \"./i\" {}\nimport j = require(\"./j\");\nconst k = \"./not-a-module\";\nlabel(\"from\");\n"
	want := []string{"./a", "./b", "./c", "./d", "./e", "./f", "./g", "./h.d.ts", "./i", "./j", "node"}
	if got := specifiers([]byte(src)); !slices.Equal(got, want) {
		t.Errorf("specifiers = %q, want %q", got, want)
	}
}

// TestChangedExports: the names an edit changes, and the edits that cannot be put in
// names.
func TestChangedExports(t *testing.T) {
	const base = "import { h } from \"./h\";\n\ntype Local = number;\n\nexport interface Shape {\n  w: Local;\n}\n\nexport function f(): number {\n  return h();\n}\n\nexport const g = () => h();\n\nexport { f as alias };\n\nexport default f;\n"
	for _, tc := range []struct {
		name, from, to string
		names, added   []string
		ok             bool
	}{
		{"a body with a return type", "return h();\n}", "return h() + 1;\n}", nil, nil, true},
		{"an export added", "export default f;", "export const k = 1;\nexport default f;", []string{"k"}, []string{"k"}, true},
		{"an export removed", "export { f as alias };\n", "", []string{"alias"}, nil, true},
		{"a local type an export names", "type Local = number;", "type Local = string;", []string{"Shape"}, nil, true},
		{"an import an inferred body names", "import { h } from \"./h\";", "import { h } from \"./h2\";", []string{"g"}, nil, true},
		{"a signature through an alias and the default", "f(): number", "f(): string", []string{"alias", "default", "f"}, nil, true},
		{"an alias that is a string", "export { f as alias };", "export { f as \"an alias\" };", []string{"alias", "an alias"}, []string{"an alias"}, true},
		{"a re-export added", "export default f;", "export * from \"./x\";\nexport default f;", nil, nil, false},
		{"export =", "export default f;", "export = f;", nil, nil, false},
		{"a global declared", "type Local", "declare global {\n  var G: number;\n}\ntype Local", nil, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			head := strings.Replace(base, tc.from, tc.to, 1)
			if head == base {
				t.Fatal("the edit does not apply")
			}
			names, added, ok := changedExports(change.NewFile("a.ts", "a.ts", []byte(base), []byte(head)), []byte(head))
			slices.Sort(names)
			if ok != tc.ok || !slices.Equal(names, tc.names) || !slices.Equal(added, tc.added) {
				t.Errorf("changedExports = %v, %v, %v; want %v, %v, %v", names, added, ok, tc.names, tc.added, tc.ok)
			}
		})
	}
}

// TestExportTargets: a package's exports read in order, under the compiler's
// conditions.
func TestExportTargets(t *testing.T) {
	exists := func(p string) bool { return !strings.Contains(p, "missing") }
	conds := map[string]bool{"types": true, "default": true, "import": true, "require": true}
	for _, tc := range []struct {
		exports, sub string
		want         []string
	}{
		{`"./index.js"`, "", []string{"./index.js"}},
		{`{ ".": { "source": "./src/index.ts", "types": "./index.d.ts", "import": "./index.js" } }`, "", []string{"./index.d.ts"}},
		{`{ ".": { "import": "./index.mjs", "types": "./index.d.ts" } }`, "", []string{"./index.mjs", "./index.d.ts"}},
		{`{ ".": { "types": "./missing.d.ts", "default": "./index.js" } }`, "", []string{"./missing.d.ts", "./index.js"}},
		{`{ "./a/*": { "types": "./dist/a/*.d.ts" } }`, "a/b", []string{"./dist/a/b.d.ts"}},
		{`{ "./a": "./a.js" }`, "b", nil},
		{`{ "types": "./t.d.ts" }`, "", []string{"./t.d.ts"}},
	} {
		if got := exportTargets([]byte(tc.exports), tc.sub, conds, exists); !slices.Equal(got, tc.want) {
			t.Errorf("exportTargets(%s, %q) = %q, want %q", tc.exports, tc.sub, got, tc.want)
		}
	}
}

// FuzzSpecifiers: the specifier scan of any source never panics, and every string it
// gives is in the source.
func FuzzSpecifiers(f *testing.F) {
	f.Add([]byte("import a from \"./a\";\nconst b = require('b');\n/// <reference path=\"c\" />\n"))
	f.Add([]byte("from\"\"'"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, s := range specifiers(data) {
			if !strings.Contains(string(data), s) {
				t.Fatalf("%q is not in the source", s)
			}
		}
	})
}

// FuzzExportTargets: a package.json exports value of any shape never panics the
// reading of its targets.
func FuzzExportTargets(f *testing.F) {
	f.Add([]byte(`{ ".": { "types": "./a.d.ts", "default": "./a.js" }, "./x/*": ["./x/*.js", null] }`), "x/y")
	f.Add([]byte(`[[[{"import": {"types": 1}}]]]`), "")
	f.Fuzz(func(t *testing.T, raw []byte, sub string) {
		exportTargets(raw, sub, map[string]bool{"types": true, "default": true, "import": true}, func(string) bool { return true })
	})
}
