package resolve

import (
	"strings"
	"testing"

	"github.com/agentverify/agentverify/change"
)

// TestBodyOnly: what narrows (a body of a function that writes out its return type) and
// what does not (anything another file can see, or cannot be told apart from it).
func TestBodyOnly(t *testing.T) {
	const base = "import { x } from \"./x\";\n\nexport function f(n: number): number {\n  return n;\n}\n\nexport function g(n: number) {\n  return n;\n}\n\nexport class C {\n  m(): string {\n    return \"\";\n  }\n}\n\nexport const h = (n: number): number => {\n  return n;\n};\n"
	for _, tc := range []struct {
		name, path, from, to string
		want                 bool
	}{
		{"function body", "a.ts", "return n;\n}\n\nexport function g", "return n + 1;\n}\n\nexport function g", true},
		{"method body", "a.ts", "return \"\";", "return \"m\";", true},
		{"arrow body", "a.ts", "return n;\n};", "return n * 2;\n};", true},
		{"inferred return type", "a.ts", "return n;\n}\n\nexport class", "return String(n);\n}\n\nexport class", false},
		{"signature", "a.ts", "f(n: number)", "f(n: string)", false},
		{"export added", "a.ts", "export class C", "export const k = 1;\nexport class C", false},
		{"import changed", "a.ts", "import { x }", "import { y }", false},
		{"comment outside", "a.ts", "export class C", "// note\nexport class C", false},
		{"syntax error in a body", "a.ts", "return \"\";", "return \"\" +;", false},
		{"JavaScript", "a.js", "return \"\";", "return \"m\";", false},
		{"declaration file", "a.d.ts", "return \"\";", "return \"m\";", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(base, tc.from) {
				t.Fatalf("no %q", tc.from)
			}
			head := []byte(strings.Replace(base, tc.from, tc.to, 1))
			f := change.NewFile(tc.path, tc.path, []byte(base), head)
			if got := bodyOnly(f, head); got != tc.want {
				t.Errorf("bodyOnly = %v, want %v", got, tc.want)
			}
		})
	}
	created := change.NewFile("a.ts", "", nil, []byte(base))
	if bodyOnly(created, created.Head) {
		t.Error("a created file narrows")
	}
}

// TestGlobal: a file that may declare globals is a root of a narrowed check.
func TestGlobal(t *testing.T) {
	for src, want := range map[string]bool{
		"declare const APP: string;\n":                            true,
		"function helper() {}\n":                                  true,
		"export const a = 1;\n":                                   false,
		"import { a } from \"./a\";\nconsole.log(a);\n":           false,
		"import \"./side-effect\";\n":                             false,
		"const m = import(\"./a\");\n":                            true, // a dynamic import does not make a module
		"export {};\ndeclare global { interface W { x: 1 } }\n":   true,
		"export {};\ndeclare module \"./a\" { }\n":                true,
		"/// <reference types=\"node\" />\nexport const a = 1;\n": true,
	} {
		if got := global([]byte(src)); got != want {
			t.Errorf("global(%q) = %v, want %v", src, got, want)
		}
	}
}
