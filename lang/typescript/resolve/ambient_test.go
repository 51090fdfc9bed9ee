package resolve

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript/syntax"
)

// What a change's ambient declarations add is blanked unless the base has it (in any
// file the change touches) or the change defines the global at run time; types stay.
func TestUnvouched(t *testing.T) {
	tests := []struct {
		name  string
		head  string
		base  map[string]string // the bases of the change's files, by path
		other map[string]string // other changed files' heads
		gone  []string          // texts blanked
		kept  []string          // texts left as they are
		vouch []string          // the globals and modules the blanked items name
	}{
		{name: "declare global values", head: `export {};
declare global {
  function invented(): void;
  var counter: number;
  const enum Mode { A }
  class Widget {}
}`, gone: []string{"function invented(): void;", "var counter: number;", "const enum Mode { A }", "class Widget {}"},
			kept: []string{"declare global {"}, vouch: []string{"invented", "counter", "Mode", "Widget"}},
		{name: "value interfaces", head: `export {};
declare global {
  interface Window { invented(): void; maybe?: string; [k: string]: any }
  interface Array<T> { toSorted(): T[] }
  interface Document extends Invented {}
}`, gone: []string{"invented(): void", "maybe?: string", "[k: string]: any", "toSorted(): T[]", "interface Document extends Invented {}"},
			kept: []string{"interface Window {", "interface Array<T> {"}, vouch: []string{"Window.invented", "Window.maybe", "Window", "Array.toSorted", "Document"}},
		{name: "types stay", head: `export {};
declare global {
  interface User { name: string }
  type Id = string;
  namespace NodeJS { interface ProcessEnv { API_URL: string } }
  namespace Express { interface Request { user?: User } }
}`, kept: []string{"interface User { name: string }", "type Id = string;", "interface ProcessEnv { API_URL: string }", "interface Request { user?: User }"}},
		{name: "top-level ambient declarations", head: `declare function gtag(...a: unknown[]): void;
declare var dataLayer: unknown[];
declare const __APP_VERSION__: string;
declare let later: number;
declare class Legacy {}
declare namespace Tools { function run(): void; interface Options {} }
declare module Old { }
interface NotAmbient { x: number }`,
			gone:  []string{"declare function gtag", "declare var dataLayer", "declare const __APP_VERSION__", "declare let later", "declare class Legacy {}", "function run(): void;"},
			kept:  []string{"declare module Old { }", "declare namespace Tools {", "interface Options {}", "interface NotAmbient { x: number }"},
			vouch: []string{"gtag", "dataLayer", "__APP_VERSION__", "later", "Legacy", "run"}},
		{name: "a script's interfaces are global", head: `interface Window { fromScript(): void }
interface Config { a: number }`, gone: []string{"fromScript(): void"}, kept: []string{"interface Window {", "interface Config { a: number }"},
			vouch: []string{"Window.fromScript"}},
		{name: "a module's interfaces are its own", head: `export interface Window { local(): void }
interface Array<T> { mine(): T }
export {};`, kept: []string{"local(): void", "mine(): T"}},
		{name: "defined by the change", head: `export {};
declare global {
  var appConfig: { debug: boolean };
  function polyfilled(): void;
  interface Window { analytics: object; other: number }
  interface String { shout(): string }
  var fromDefine: number;
  function notDefined(): void;
}`, other: map[string]string{
			"src/polyfill.js": `globalThis.appConfig = { debug: true };
window["polyfilled"] = function () {};
self.analytics ??= {};
String.prototype.shout = function () { return this.toUpperCase(); };
Object.defineProperty(globalThis, "fromDefine", { value: 1 });
// globalThis.notDefined = () => {};
const notDefined = 1;`,
		}, gone: []string{"function notDefined(): void;", "other: number"},
			kept:  []string{"var appConfig: { debug: boolean };", "function polyfilled(): void;", "analytics: object", "shout(): string", "var fromDefine: number;"},
			vouch: []string{"Window.other", "notDefined"}},
		{name: "the base has it in the same file", head: `export {};
declare global {
  function old(): void;
  function added(): void;
}`, base: map[string]string{"src/globals.d.ts": `export {};
declare global {
    function old():   void;
}`}, gone: []string{"function added(): void;"}, kept: []string{"function old(): void;"}, vouch: []string{"added"}},
		{name: "moved from another file", head: `export {};
declare global {
  function moved(): void;
  interface Window { movedToo: string }
}
declare module "typed-lib" {
  export function fromElsewhere(): number;
}
declare function topMoved(): void;`, base: map[string]string{"src/old.d.ts": `import "typed-lib";
declare module "typed-lib" { export function fromElsewhere(): number; }
declare global { interface Window { movedToo: string } function topMoved(): void; }
declare function moved(): void;`}, kept: []string{"function moved(): void;", "movedToo: string", "export function fromElsewhere(): number;", "declare function topMoved(): void;"}},
		{name: "a copy of what another file keeps is new", head: `export {};
declare global { function kept(): void; }
declare module "typed-lib" { export function alsoKept(): number; }`,
			base: map[string]string{"src/old.d.ts": `declare function kept(): void;
declare module "typed-lib" { export function alsoKept(): number; }
export {};`},
			other: map[string]string{"src/old.d.ts": `declare function kept(): void;
declare module "typed-lib" { export function alsoKept(): number; }
export const edited = 1;`},
			gone: []string{"function kept(): void;", "export function alsoKept(): number;"}, vouch: []string{"kept", "typed-lib"}},
		{name: "a copy counts once", head: `export {};
declare global { function twice(): void; }
declare global { function twice(): void; }`, base: map[string]string{"src/old.d.ts": `declare function twice(): void;`},
			kept: []string{"declare global { function twice(): void; }\n"}, vouch: []string{"twice"}},
		{name: "module declarations as before", head: `declare module "typed-lib" {
  interface Options { color?: string }
  export function invented(): void;
}
declare module "*.svg" { const url: string; export default url; }
declare module "*";`, gone: []string{"export function invented(): void;", `declare module "*";`},
			kept: []string{"interface Options { color?: string }", `declare module "*.svg" { const url: string; export default url; }`}, vouch: []string{"typed-lib", "*"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const p = "src/globals.d.ts"
			j := &job{req: &lang.Request{Changes: &change.Set{Root: t.TempDir()}}}
			bases := map[string][]byte{}
			for bp, src := range tt.base {
				bases[bp] = []byte(src)
			}
			heads := map[string][]byte{p: []byte(tt.head)}
			for hp, src := range tt.other {
				heads[hp] = []byte(src)
			}
			out, vs, err := j.unvouched(p, []byte(tt.head), newPool(bases, heads, syntax.Parse))
			if err != nil {
				t.Fatal(err)
			}
			checkBlanked(t, tt.head, string(out), tt.gone, tt.kept)
			var names []string
			for _, v := range vs {
				names = append(names, v.module+v.global)
			}
			if strings.Join(names, " ") != strings.Join(tt.vouch, " ") {
				t.Errorf("vouches %q, want %q", names, tt.vouch)
			}
		})
	}
}

// checkBlanked checks that got is src with the texts gone blanked and those kept not,
// positions held.
func checkBlanked(t *testing.T, src, got string, gone, kept []string) {
	t.Helper()
	if len(got) != len(src) || strings.Count(got, "\n") != strings.Count(src, "\n") {
		t.Fatalf("positions moved:\n%s", got)
	}
	for _, g := range gone {
		if strings.Contains(got, g) {
			t.Errorf("%q not blanked:\n%s", g, got)
		}
	}
	for _, k := range kept {
		if !strings.Contains(got, k) {
			t.Errorf("%q blanked:\n%s", k, got)
		}
	}
}

// A changed file tree-sitter returns no tree for is not passed unread: the content the
// compiler would check cannot be made, and the verification fails closed.
func TestUnvouchedNoTree(t *testing.T) {
	noTree := func(syntax.Dialect, []byte) (*syntax.Tree, error) { return nil, errors.New("tree-sitter: no tree") }
	j := &job{req: &lang.Request{Changes: &change.Set{Root: t.TempDir()}}}
	src := []byte("declare global { function invented(): void }\nexport {};\n")
	if _, _, err := j.unvouched("src/g.d.ts", src, newPool(nil, nil, noTree)); err == nil || !strings.Contains(err.Error(), "src/g.d.ts") {
		t.Errorf("unvouched: error %v, want one naming src/g.d.ts", err)
	}
	f := &change.File{Path: "src/g.d.ts", Op: change.Create, Head: src}
	j.req.Changes.Files = []*change.File{f}
	j.targets = []*target{{f: f, src: src}}
	if _, _, err := j.contentWith(noTree); err == nil {
		t.Error("content: no error for a file without a tree")
	}
	// Without declarations there is nothing to weigh, and nothing to parse.
	plain := []byte("export const x = 1;\n")
	if out, _, err := j.unvouched("src/x.ts", plain, newPool(nil, nil, noTree)); err != nil || string(out) != string(plain) {
		t.Errorf("a file without declarations: %q, %v", out, err)
	}
}

// A lib reference the change adds is a plain comment in what the compiler reads; the
// base's stay, and so do other references.
func TestUnreferenced(t *testing.T) {
	tests := []struct{ base, head, want string }{
		{"", "/// <reference lib=\"es2023\" />\nx;", "/// <referenc_ lib=\"es2023\" />\nx;"},
		{"", "  ///<reference   lib='dom' />", "  ///<referenc_   lib='dom' />"},
		{"/// <reference lib=\"dom\" />\n", "/// <reference lib=\"dom\" />\n/// <reference lib=\"esnext\" />\n", "/// <reference lib=\"dom\" />\n/// <referenc_ lib=\"esnext\" />\n"},
		{"", "/// <reference types=\"vite/client\" />\n/// <reference path=\"./g.d.ts\" />", "/// <reference types=\"vite/client\" />\n/// <reference path=\"./g.d.ts\" />"},
		{"", "const lib = \"<reference lib=\";", "const lib = \"<reference lib=\";"},
	}
	for _, tt := range tests {
		if got, _ := unreferenced("a.ts", []byte(tt.head), []byte(tt.base)); string(got) != tt.want {
			t.Errorf("unreferenced(%q) = %q, want %q", tt.head, got, tt.want)
		}
	}
}

// BenchmarkUnvouched: a declaration file of 400 global declarations, changed in one
// line, against its base (the pool read anew each time, as each verification does).
// go test ./lang/typescript/resolve -run X -bench Unvouched
func BenchmarkUnvouched(b *testing.B) {
	var base strings.Builder
	base.WriteString("export {};\ndeclare global {\n")
	for i := range 400 {
		fmt.Fprintf(&base, "  function helper%d(a: string, b?: number): Promise<void>;\n", i)
	}
	base.WriteString("}\n")
	head := strings.Replace(base.String(), "helper7(", "invented7(", 1)
	j := &job{req: &lang.Request{Changes: &change.Set{Root: b.TempDir()}}}
	bases := map[string][]byte{"src/g.d.ts": []byte(base.String())}
	for b.Loop() {
		heads := map[string][]byte{"src/g.d.ts": []byte(head)}
		if _, vs, err := j.unvouched("src/g.d.ts", []byte(head), newPool(bases, heads, syntax.Parse)); err != nil || len(vs) != 1 {
			b.Fatal(vs, err)
		}
	}
}

// An export a changed declaration file beside a JavaScript module adds is blanked when
// the module does not export the name; types, what the module exports, and the whole
// file beside a module whose exports cannot be listed stay.
func TestSiblingExports(t *testing.T) {
	tests := []struct {
		name, js, dts, jsName string
		p                     string // the declaration file
		base                  string // the declaration file's base ("" for a new one)
		gone, kept            []string
		vouch                 []string
	}{
		{name: "esm", jsName: "src/m.js", p: "src/m.d.ts", js: "export function real() {}\nexport const n = 1;\nconst h = 1;\nexport { h as helper };\n",
			dts: `export declare function real(): void;
export function invented(): void;
export declare const n: number, ghost: string;
declare const local: number;
export { local as helper, local as phantom };
export type { Shape } from "./shapes";
export interface Options { a?: number }
export type Id = string;
export declare namespace Types { interface T {} }
export declare namespace Values { const v: number }
export default function def(): void;
export * from "./other";
export = real;`,
			gone:  []string{"export function invented(): void;", "ghost: string", "local as phantom", "namespace Values", "function def()"},
			kept:  []string{"export declare function real(): void;", "declare const local: number;", "local as helper,", "export type { Shape }", "export interface Options", "export type Id", "namespace Types", "export * from", "export = real;", "export{}"},
			vouch: []string{"invented", "ghost", "phantom", "Values", "default"}},
		{name: "commonjs", jsName: "src/c.cjs", p: "src/c.d.cts", js: "module.exports = { count() { return 1; } };\n",
			dts:  "export declare function count(): number;\nexport declare function countAll(): number;\nexport default count;\n",
			gone: []string{"countAll"}, kept: []string{"function count(): number;", "export default count;"}, vouch: []string{"countAll"}},
		{name: "open exports", jsName: "src/o.js", p: "src/o.d.ts", js: "module.exports = make();\n", dts: "export declare function anything(): void;\n",
			kept: []string{"export declare function anything(): void;"}},
		{name: "no module beside it", jsName: "src/other.js", p: "src/lonely.d.ts", js: "export const x = 1;\n", dts: "export declare function anything(): void;\n",
			kept: []string{"export declare function anything(): void;"}},
		{name: "the base has it", jsName: "src/b.js", p: "src/b.d.ts", js: "export const x = 1;\n", base: "export declare function stale(): void;\n",
			dts: "export declare function stale(): void;\nexport declare function added(): void;\n", gone: []string{"added"}, kept: []string{"stale"}, vouch: []string{"added"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, p := t.TempDir(), tt.p
			if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(tt.jsName)), []byte(tt.js), 0o644); err != nil {
				t.Fatal(err)
			}
			bases := map[string][]byte{}
			if tt.base != "" {
				bases[p] = []byte(tt.base)
			}
			j := &job{req: &lang.Request{Changes: &change.Set{Root: root}}}
			out, vs, err := j.unvouched(p, []byte(tt.dts), newPool(bases, map[string][]byte{p: []byte(tt.dts)}, syntax.Parse))
			if err != nil {
				t.Fatal(err)
			}
			checkBlanked(t, tt.dts, string(out), tt.gone, tt.kept)
			checkSiblingVouches(t, vs, tt.jsName, tt.vouch)
		})
	}
}

// checkSiblingVouches checks that the blanked exports are those named, each naming js.
func checkSiblingVouches(t *testing.T, vs []vouch, js string, want []string) {
	t.Helper()
	var names []string
	for _, v := range vs {
		names = append(names, v.export)
		if v.js != js {
			t.Errorf("vouch %q names module %q, want %q", v.export, v.js, js)
		}
	}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("vouches %q, want %q", names, want)
	}
}
