package typescript

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/lang"
)

func parse(t *testing.T, path, src string) *lang.File {
	t.Helper()
	lf, err := New().Parse(path, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return lf
}

// decls renders the declarations as "kind name [exported] [documented] [test]".
func decls(lf *lang.File) []string {
	var out []string
	for _, d := range lf.Decls {
		s := fmt.Sprintf("%s %s", d.Kind, d.Name)
		if d.Exported {
			s += " exported"
		}
		if !d.Documented {
			s += " undocumented"
		}
		if d.Test {
			s += " test"
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func TestDeclarations(t *testing.T) {
	tests := []struct {
		name, path, src string
		want            []string
	}{
		{"ESM exports", "src/a.ts", `
/** Documented. */
export function f(a: number): number { return a; }
export async function g() {}
function local() {}
export default class Box { private x = 1; #y = 2; protected z() {} open() {} }
export interface Shape { n: number }
export type Alias = string;
export const enum Color { Red }
const value = 1, fn = () => 1;
export { value, fn as renamed };
`, []string{"const value exported", "field Box.#y", "field Box.x", "func f exported", "func fn exported undocumented",
			"func g exported undocumented", "func local undocumented", "method Box.open exported", "method Box.z",
			"type Alias exported", "type Box exported", "type Color exported", "type Shape exported"}},
		{"CommonJS", "lib/b.cjs", `
function helper() {}
/** Parses. */
exports.parse = function (s) { return s; };
module.exports.format = (x) => String(x);
module.exports = { helper };
`, []string{"func format exported undocumented", "func helper exported undocumented", "func parse exported"}},
		{"namespace and ambient", "src/c.ts", `
export namespace NS { export function inner() {} function hidden() {} }
declare module "express" { interface Request { user?: string } }
declare global { interface Window { app: unknown } }
`, []string{"func NS.hidden undocumented", "func NS.inner exported undocumented", "type NS exported"}},
		{"tests", "src/c.test.ts", `
describe("suite", () => {
  it("one", () => {});
  describe("inner", () => { test(` + "`two`" + `, async () => {}); });
});
it.each([1, 2])("each %d", (n) => {});
`, []string{"func <callback of describe>", "func <callback of describe>/<callback of describe>",
			"func <callback of describe>/<callback of describe>/<callback of test>",
			"func <callback of describe>/<callback of it>", "func <callback of it.each>",
			"func each %d test", "func suite > inner > two test", "func suite > one test"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := decls(parse(t, tt.path, tt.src))
			// Nested functions are declarations of their own (for complexity), not
			// documented, not exported; list only what the case names.
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("declarations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestSignatures(t *testing.T) {
	lf := parse(t, "a.ts", `
export function f<T>(a: string, b?: number, c = 1, ...rest: T[]): Promise<void> {}
export const g = (x) => x;
export class C { m(this: C, { a }: { a: number }): void {} }
`)
	want := map[string]string{
		"f":   "<T>(string, number?, any?, ...T[]): Promise<void>",
		"g":   "(any)",
		"C.m": "({ a: number }): void",
	}
	for _, d := range lf.Decls {
		if w, ok := want[d.Name]; ok && d.Signature != w {
			t.Errorf("%s: signature %q, want %q", d.Name, d.Signature, w)
		}
	}
}

func TestSyntaxErrorsAndTolerance(t *testing.T) {
	lf := parse(t, "a.ts", "export function a( {\n}\nexport function b() { return 1; }\n")
	if len(lf.SyntaxErrors) == 0 {
		t.Fatal("no syntax error")
	}
	found := false
	for _, d := range lf.Decls {
		found = found || d.Name == "b"
	}
	if !found {
		t.Errorf("the function after the error is lost: %v", decls(lf))
	}
	// JSX is read in .tsx and every JavaScript file, not in .ts (where <T>x is a cast).
	for _, p := range []string{"a.tsx", "a.js", "a.jsx", "a.mjs", "a.cjs"} {
		if lf := parse(t, p, "const a = <div className=\"x\">{1}</div>;\n"); len(lf.SyntaxErrors) > 0 {
			t.Errorf("%s: JSX does not parse: %v", p, lf.SyntaxErrors)
		}
	}
	if lf := parse(t, "a.ts", "const a = <number>b;\n"); len(lf.SyntaxErrors) > 0 {
		t.Errorf("a type assertion does not parse in .ts: %v", lf.SyntaxErrors)
	}
}

// TestVarianceAnnotations: a variance annotation on a type parameter (TypeScript 4.7),
// which tree-sitter's grammar does not know, is no syntax error; an error next to the
// same words elsewhere still is.
func TestVarianceAnnotations(t *testing.T) {
	for _, c := range []struct {
		src   string
		error bool
	}{
		{"export interface Box<out T> {\n  value: T;\n}\n", false},
		{"type F<in T, out U> = (t: T) => U;\n", false},
		{"class C<in out T> { x!: T }\n", false},
		{"interface I<out T extends string = \"a\"> { x: T }\n", false},
		{"type G<in T extends object> = (t: T) => void;\n", false},
		{"interface Out<out> { x: out }\n", false},
		{"const a = b <out c;\n", true},
		{"type H<in T U> = T;\n", true},
		{"type K<in T, out 1> = T;\n", true},
	} {
		lf := parse(t, "a.ts", c.src)
		if got := len(lf.SyntaxErrors) > 0; got != c.error {
			t.Errorf("%q: syntax errors %v, want any: %v", c.src, lf.SyntaxErrors, c.error)
		}
	}
}

func TestMatch(t *testing.T) {
	fe := New()
	for _, p := range []string{"a.ts", "b/c.tsx", "x.mts", "x.cts", "x.js", "x.jsx", "x.mjs", "x.cjs", "types.d.ts", "A.TS"} {
		if !fe.Match(p) {
			t.Errorf("%s not matched", p)
		}
	}
	for _, p := range []string{"a.json", "a.tsbuildinfo", "ts", "a.go", "a.vue"} {
		if fe.Match(p) {
			t.Errorf("%s matched", p)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add("export function f(a = 1) { if (a) { return a?.b ?? c; } }")
	f.Add("const x = <div>{a && <b/>}</div>; class C { static { } #p = 1 }")
	f.Add("describe('x', () => { it.only('y', () => {}) })")
	f.Add("exports.a = function () {}; module.exports = { a }")
	f.Fuzz(func(t *testing.T, src string) {
		for _, p := range []string{"a.ts", "a.tsx"} {
			lf, err := New().Parse(p, []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range lf.Decls {
				if d.Metrics != nil && (d.Metrics.Cyclomatic < 1 || d.Metrics.Cognitive < 0 || d.Metrics.Lines < 0) {
					t.Fatalf("%s: bad metrics %+v", d.Name, d.Metrics)
				}
			}
		}
	})
}
