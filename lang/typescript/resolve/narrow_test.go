package resolve_test

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/change/editset"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/internal/testkit/tsctest"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript"
	"github.com/agentverify/agentverify/lang/typescript/resolve"
	"github.com/agentverify/agentverify/policy"
)

// narrowProject is a strict project with a global declared by a script, a caller of
// the edited module, and errors the base already has (in the edited file and in a file
// the change does not touch).
var narrowProject = map[string]string{
	"tsconfig.json":     `{ "compilerOptions": { "target": "es2022", "strict": true, "module": "esnext", "moduleResolution": "bundler", "types": [] }, "include": ["src"] }`,
	"src/globals.ts":    "declare const APP_NAME: string;\n",
	"src/lib.ts":        narrowLib,
	"src/use.ts":        "import { twice, label } from \"./lib\";\nexport const four: number = twice(2);\nexport const l: string = label(1);\n",
	"src/other.ts":      "export const bad: number = \"not a number\";\n",
	"src/name.ts":       "export const name: string = APP_NAME;\n",
	"src/spec.ts":       "import { it } from \"vitest\";\n\nit(\"runs\", () => process.exit(0));\n", // its test dependencies not installed
	"excluded/stray.ts": "declare const missing: number;\n",                                         // not in the project: never a root
	// Importers of lib through re-exports, a type-only one, an augmentation, two
	// `export *` that may clash.
	"src/reexport.ts":    "export * from \"./lib\";\n",
	"src/viaReexport.ts": "import { twice } from \"./reexport\";\nexport const eight: number = twice(4);\n",
	"src/ns.ts":          "export * as L from \"./lib\";\n",
	"src/viaNs.ts":       "import { L } from \"./ns\";\nexport function n(): number {\n  return L.twice(1);\n}\n",
	"src/shape.ts":       "import type { Shape } from \"./lib\";\nexport const s: Shape = { w: 1 };\n",
	"src/augment.ts":     "export {};\ndeclare module \"./lib\" {\n  interface Shape {\n    h?: number;\n  }\n}\n",
	"src/more.ts":        "export const extra = 1;\n",
	"src/both.ts":        "export * from \"./lib\";\nexport * from \"./more\";\n",
	"src/globalBox.ts":   "import type { Box } from \"./lib\";\n\ndeclare global {\n  var BOX: Box;\n}\n\nexport {};\n",
	"src/useBox.ts":      "export const v: number = BOX.v;\n",
	"src/untouched.ts":   "import * as lib from \"./lib\";\nexport const t: number = lib.twice(3);\n",
}

const narrowLib = `export function twice(n: number): number {
  return 2 * n;
}

export function label(n: number) {
  return String(n);
}

export function old(): number {
  const s: string = 1;
  return 0;
}

export interface Shape {
  w: number;
}

export interface Box {
  v: number;
}
`

// TestNarrowedCheckFindsWhatTheWholeProjectFinds runs each edit through the narrowed
// check and the whole project's, each settled against its base view as the engine does,
// and wants the same new findings from both: body edits and edits of exports that break
// importers, directly, through `export *` and `export * as`, type-only, by namespace, an
// augmentation, and two `export *` that now clash (narrowed), and edits the narrowing
// does not follow (the whole project).
func TestNarrowedCheckFindsWhatTheWholeProjectFinds(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the compiler about eighty times (-short)")
	}
	tsctest.Require(t)
	root := tempProject(t, narrowProject)
	for _, tc := range []struct {
		name, from, to string
		narrow         bool     // the check narrows
		want           []string // the new findings, file:line
		file           string   // the file edited, src/lib.ts when ""
	}{
		{"body error, a global used", "return 2 * n;", "return 2 * n + APP_NAME.length + missing;", true, []string{"src/lib.ts:2"}, ""},
		{"body clean", "return 2 * n;", "const m = n;\n  return m + m;", true, nil, ""},
		{"body beside an old error", "return 0;", "const t: number = 2;\n  return t;", true, nil, ""},
		{"a second error beside an old one", "return 0;", "const u: boolean = 2;\n  return 0;", true, []string{"src/lib.ts:11"}, ""},
		{"signature breaks a caller", "twice(n: number): number {\n  return 2 * n;", "twice(n: string): string {\n  return n + n;", true,
			[]string{"src/untouched.ts:2", "src/untouched.ts:2", "src/use.ts:2", "src/use.ts:2", "src/viaNs.ts:3", "src/viaNs.ts:3", "src/viaReexport.ts:2", "src/viaReexport.ts:2"}, ""},
		{"inferred return type breaks a caller", "return String(n);", "return n;", true, []string{"src/use.ts:3"}, ""},
		{"an export added", "export function old", "export const added = 1;\n\nexport function old", true, nil, ""},
		{"an export removed: importers through re-exports", "export function twice", "export function thrice", true, []string{"src/untouched.ts:2", "src/use.ts:1", "src/viaNs.ts:3", "src/viaReexport.ts:1"}, ""},
		{"a type-only importer broken", "w: number;", "w: string;", true, []string{"src/shape.ts:2"}, ""},
		{"an augmented interface made a type", "export interface Shape {\n  w: number;\n}", "export type Shape = {\n  w: number;\n};", true, []string{"src/augment.ts:3", "src/lib.ts:14"}, ""},
		{"a name two export * now give", "export function old", "export const extra = 2;\n\nexport function old", true, []string{"src/both.ts:2"}, ""},
		{"a re-export added: the whole project", "export function old", "export * from \"./more\";\n\nexport function old", false, nil, ""},
		{"a type a global declaration uses: the whole project", "v: number;", "v: string;", false, []string{"src/useBox.ts:1"}, ""},
		{"a global removed", "APP_NAME", "APP_TITLE", false, []string{"src/name.ts:1"}, "src/globals.ts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := cmp.Or(tc.file, "src/lib.ts")
			base := narrowProject[file]
			head := strings.Replace(base, tc.from, tc.to, 1)
			if head == base {
				t.Fatal("the edit does not apply")
			}
			if err := os.WriteFile(filepath.Join(root, file), []byte(head), 0o644); err != nil {
				t.Fatal(err)
			}
			defer os.WriteFile(filepath.Join(root, file), []byte(base), 0o644)
			set := &change.Set{Root: root, HeadFS: os.DirFS(root), BaseFS: editset.Overlay(os.DirFS(root), []editset.Edit{{Path: file, Content: []byte(base)}}), BaseRev: "base", OnDisk: true,
				Files: []*change.File{change.NewFile(file, file, []byte(base), []byte(head))}}
			// The whole project's check reports the unchanged file's old error (the base
			// view settles it); a narrowed one does not reach that file. The test file's
			// missing module and name are the base's too unless the change can move
			// them (a global declaration edited): then the base view settles them.
			head1 := resolved(t, set, nil, false)
			if got := slices.ContainsFunc(head1, func(p lang.Problem) bool { return p.Location.File == "src/other.ts" }); got == tc.narrow {
				t.Errorf("src/other.ts reached: %v, want %v", got, !tc.narrow)
			}
			if got := slices.ContainsFunc(head1, func(p lang.Problem) bool { return p.Location.File == "src/spec.ts" }); got != (tc.file != "") {
				t.Errorf("src/spec.ts's unresolved names reported: %v, want %v", got, tc.file != "")
			}
			narrowed, whole := introduced(t, set, false), introduced(t, set, true)
			if !slices.Equal(narrowed, whole) {
				t.Errorf("narrowed check: %v, whole project: %v", narrowed, whole)
			}
			var lines []string
			for _, f := range whole {
				lines = append(lines, f[:strings.Index(f, " ")])
			}
			if !slices.Equal(lines, tc.want) {
				t.Errorf("new findings %v, want at %v", whole, tc.want)
			}
		})
	}
}

// tempProject writes files into a new directory and gives the test a compiler record
// cache of its own.
func tempProject(t *testing.T, files map[string]string) string {
	t.Helper()
	t.Setenv("AGENTVERIFY_CACHE_DIR", t.TempDir())
	root := t.TempDir()
	for p, s := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// introduced resolves set and its base view as engine.ConfirmAtBase settles them: the
// head's problems the base view does not have (file and message, a multiset), as
// "file:line message", sorted.
func introduced(t *testing.T, set *change.Set, whole bool) []string {
	t.Helper()
	head := resolved(t, set, nil, whole)
	focus := map[string]bool{}
	for _, p := range head {
		focus[p.Location.File] = true
	}
	old := map[string]int{}
	if len(focus) > 0 {
		for _, p := range resolved(t, set.BaseView(), focus, whole) {
			old[p.Location.File+"\x00"+p.Message]++
		}
	}
	var out []string
	for _, p := range head {
		k := p.Location.File + "\x00" + p.Message
		if old[k] > 0 {
			old[k]--
			continue
		}
		out = append(out, fmt.Sprintf("%s:%d %s", p.Location.File, p.Location.Line, p.Message))
	}
	slices.Sort(out)
	return out
}

func resolved(t *testing.T, set *change.Set, focus map[string]bool, whole bool) []lang.Problem {
	t.Helper()
	fe := typescript.New()
	pass := &check.Pass{Context: context.Background(), Changes: set, Policy: policy.Default(), Mode: check.Diff,
		Languages: lang.Registry{fe}, Files: check.NewFiles(lang.Registry{fe}), Focus: focus}
	ps, err := resolve.Resolver{Match: fe.Match, WholeProject: whole}.Resolve(pass.Request())
	if err != nil {
		t.Fatal(err)
	}
	return ps
}
