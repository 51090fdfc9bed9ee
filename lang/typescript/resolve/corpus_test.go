package resolve_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/internal/testkit/tsctest"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript"
	"github.com/agentverify/agentverify/lang/typescript/tsc"
	"github.com/agentverify/agentverify/policy"
)

// mistake is one agent-style mistake: a file of a project, and the name a did-you-mean
// should offer ("" when the mistake is no typo).
type mistake struct {
	file, src, want string
}

// The corpus: held-out mistakes of the kinds agents make — invented members, options
// and exports of real APIs, APIs newer than the target, packages that do not exist or
// are not declared — half of them in plain JavaScript, where no types are checked.
var corpus = []mistake{
	{"m01.ts", `export const a = "abc".toUpperCas();`, "toUpperCase"},
	{"m02.ts", `import { formatDat } from "./lib/dates"; export const a = formatDat;`, "formatDate"},
	{"m03.ts", `import { formatDate } from "./lib/dates"; export const a = formatDate(new Date(), "iso", true);`, ""},
	{"m04.ts", `import { run } from "typed-lib"; export const a = run({ verbose: true, retrys: 3 });`, ""},
	{"m05.ts", `export const a = [1, 2].findLast((x) => x > 1);`, ""},
	{"m06.ts", `const m = new Map<string, number>(); export const a = m.gett("x");`, "get"},
	{"m07.ts", `import { helper } from "./lib/helpers"; export const a = helper;`, ""},
	{"m08.ts", `import { chunk } from "lodahs"; export const a = chunk;`, "lodash"},
	{"m09.ts", `import { readFileSyn } from "node:fs"; export const a = readFileSyn;`, "readFileSync"},
	{"m10.ts", `export const a = Promise.allSetled([]);`, "allSettled"},
	{"m11.ts", `export const a = [1, 2].contains(1);`, ""},
	{"m12.ts", `export const a = Object.hasOwnn({}, "x");`, "hasOwn"},
	{"m13.ts", `import dates from "./lib/dates"; export const a = dates;`, ""},
	{"m14.ts", `export const a = JSON.parseSafe("{}");`, ""},
	{"m15.ts", `import { runn } from "typed-lib"; export const a = runn;`, "run"},
	{"m16.ts", `import axios from "axios"; export const a = axios;`, ""},
	{"m17.ts", `export const a = "x".replaceAll("a", "b").trimEnd().at(-1);`, ""},
	{"m18.ts", `import { join } from "node:path"; export const a = join("a", "b").lenght;`, "length"},
	{"m19.ts", `export class A { run(): number { return this.cout; } cnt = 1; }`, ""},
	{"m20.ts", `import { z } from "zod"; export const a = z;`, ""},
	{"m21.js", `import { chunck } from "lodash"; export const a = chunck;`, "chunk"},
	{"m22.js", `const fs = require("node:fs"); module.exports = fs.readFileSyn("x");`, "readFileSync"},
	{"m23.js", `import * as path from "node:path"; export const a = path.joinn("a");`, "join"},
	{"m24.js", `import { parze } from "tiny-cjs"; export const a = parze;`, "parse"},
	{"m25.js", `const { frmat } = require("tiny-cjs"); module.exports = frmat;`, "format"},
	{"m26.js", `const t = require("tiny-cjs"); module.exports = t.strigify({});`, "stringify"},
	{"m27.js", `const e = require("expresss"); module.exports = e;`, "express"},
	{"m28.js", `import { debounse } from "tiny-esm"; export const a = debounse;`, "debounce"},
	{"m29.js", `import { run } from "typed-lib"; export const a = run({ verbose: true, retrys: 3 });`, ""},
	{"m30.js", `import axios from "axios"; export const a = axios;`, ""},
	{"m31.js", `import { writeFileSyn } from "node:fs"; export const a = writeFileSyn;`, "writeFileSync"},
	{"m32.js", `import { debounce } from "lodash-utils-pro"; export const a = debounce;`, ""},
	{"m33.js", `const _ = require("lodash"); module.exports = _.chunck([1], 1);`, "chunk"},
	{"m34.js", `import { chunk } from "lodash/chunkk"; export const a = chunk;`, ""},
	{"m35.js", `export const a = "abc".toUpperCas();`, "toUpperCase"},
	{"m36.js", `export const a = [1, 2].findLast((x) => x > 1);`, ""},
	{"m37.js", `import { formatDat } from "./lib/dates.js"; export const a = formatDat;`, "formatDate"},
	{"m38.js", `import { z } from "zod"; export const a = z;`, ""},
	{"m39.js", `import { throttel } from "tiny-esm"; export const a = throttel;`, "throttle"},
	{"m40.js", `const { VERSON } = require("tiny-cjs"); module.exports = VERSON;`, "VERSION"},
	{"m41.ts", `import { debounce } from "tiny-esm"; export const a = debounce.cancelAll();`, ""},
}

// project is the corpus's project: a tsconfig (strict TypeScript, JavaScript allowed
// but not type-checked, as most mixed projects are), package.json, installed packages.
var project = map[string]string{
	"tsconfig.json": `{ "compilerOptions": { "target": "es2020", "lib": ["es2020"], "module": "esnext", "moduleResolution": "bundler",
	  "strict": true, "allowJs": true, "checkJs": false, "noEmit": true, "types": ["node"], "skipLibCheck": true }, "include": ["src"] }`,
	"package.json":                          `{ "name": "corpus", "type": "module", "dependencies": { "typed-lib": "1.0.0", "lodash": "4.17.21", "tiny-cjs": "1.0.0", "tiny-esm": "1.0.0", "zod": "3.0.0" }, "devDependencies": { "@types/node": "20.0.0" } }`,
	"src/lib/dates.ts":                      "export function formatDate(d: Date, f: string): string { return f + d; }\n",
	"src/ok.ts":                             "import { formatDate } from \"./lib/dates\";\nimport { run } from \"typed-lib\";\nexport const ok = [formatDate(new Date(), \"x\"), run({ verbose: true })];\n",
	"src/ok.js":                             "import { chunk } from \"lodash\";\nconst t = require(\"tiny-cjs\");\nexport const ok = [chunk([1], 1), t.parse(\"x\")];\n",
	"node_modules/typed-lib/package.json":   `{ "name": "typed-lib", "version": "1.0.0", "types": "index.d.ts", "main": "index.js" }`,
	"node_modules/typed-lib/index.d.ts":     "export interface Options { verbose?: boolean; retries?: number }\nexport declare function run(o?: Options): number;\n",
	"node_modules/typed-lib/index.js":       "export function run() { return 1; }\n",
	"node_modules/lodash/package.json":      `{ "name": "lodash", "version": "4.17.21", "types": "index.d.ts" }`,
	"node_modules/lodash/index.d.ts":        "export declare function chunk<T>(a: T[], n?: number): T[][];\ndeclare const _: { chunk: typeof chunk };\nexport default _;\n",
	"node_modules/axios/package.json":       `{ "name": "axios", "version": "1.0.0", "types": "index.d.ts" }`,
	"node_modules/axios/index.d.ts":         "export default function axios(u: string): Promise<unknown>;\n",
	"node_modules/tiny-cjs/package.json":    `{ "name": "tiny-cjs", "version": "1.0.0", "main": "index.js" }`,
	"node_modules/tiny-cjs/index.js":        "exports.parse = function (s) { return s; };\nexports.format = String;\nexports.stringify = JSON.stringify;\nexports.VERSION = '1';\n",
	"node_modules/tiny-esm/package.json":    `{ "name": "tiny-esm", "version": "1.0.0", "type": "module", "main": "index.js" }`,
	"node_modules/tiny-esm/index.js":        "export function debounce(f) { return f; }\nexport function throttle(f) { return f; }\n",
	"node_modules/@types/node/package.json": `{ "name": "@types/node", "version": "20.0.0", "types": "index.d.ts" }`,
	"node_modules/@types/node/index.d.ts":   "declare var require: (id: string) => any;\ndeclare var module: { exports: any };\ndeclare module \"node:fs\" { export function readFileSync(p: string): string; export function writeFileSync(p: string, d: string): void; }\ndeclare module \"node:path\" { export function join(...p: string[]): string; }\n",
}

// TestCorpusAgainstTSCAlone counts the corpus's mistakes the compiler alone reports
// (tsc --noEmit over the project, any error in the file) and those agentverify reports
// (any hallucination problem in the file), and the typos each offers the right name
// for. agentverify must find more, and nothing in the clean files.
func TestCorpusAgainstTSCAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the compiler over a corpus: not in -short")
	}
	tool := tsctest.Require(t)
	t.Setenv("NPM_CONFIG_REGISTRY", corpusRegistry(t))
	t.Setenv("HOME", t.TempDir())
	dir, files := writeCorpus(t)
	tscAlone := compilerAlone(t, tool, dir)
	ours := agentverify(t, dir, files)
	var tscN, ourN, typos, tscTypos, ourTypos int
	for _, m := range corpus {
		f := "src/" + m.file
		tscN, ourN = tscN+b2i(tscAlone.found[f]), ourN+b2i(ours.found[f])
		if !ours.found[f] {
			t.Logf("missed: %s: %s", m.file, m.src)
		}
		if tscAlone.found[f] && !ours.found[f] {
			t.Errorf("%s: the compiler alone finds it, agentverify does not", m.file)
		}
		if m.want != "" {
			typos, tscTypos, ourTypos = typos+1, tscTypos+b2i(tscAlone.right[f]), ourTypos+b2i(ours.right[f])
		}
	}
	t.Logf("corpus of %d mistakes: tsc alone finds %d, agentverify %d; right did-you-mean for %d typos: tsc alone %d, agentverify %d",
		len(corpus), tscN, ourN, typos, tscTypos, ourTypos)
	if ourN <= tscN {
		t.Errorf("agentverify finds %d, no more than the compiler alone (%d)", ourN, tscN)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// writeCorpus writes the project and every mistake's file to a temporary directory.
func writeCorpus(t *testing.T) (string, map[string]string) {
	dir := t.TempDir()
	files := map[string]string{}
	for p, s := range project {
		files[p] = s
	}
	for _, m := range corpus {
		files["src/"+m.file] = m.src + "\n"
	}
	for p, s := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, files
}

// findings are the files a checker reports something in, and those where its
// did-you-mean names what the mistake meant.
type findings struct{ found, right map[string]bool }

// meant reports whether text offers what the mistake in file meant.
func meant(file, text, format string) bool {
	for _, m := range corpus {
		if file == "src/"+m.file && m.want != "" && strings.Contains(text, fmt.Sprintf(format, m.want)) {
			return true
		}
	}
	return false
}

// compilerAlone runs tsc -p tsconfig.json --noEmit over the project.
func compilerAlone(t *testing.T, tool *tsc.Tool, dir string) findings {
	ds, err := tool.Check(context.Background(), tsc.Options{Config: filepath.Join(dir, "tsconfig.json"), Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	f := findings{map[string]bool{}, map[string]bool{}}
	for _, d := range ds {
		if d.Category == "error" {
			f.found[d.File] = true
			f.right[d.File] = f.right[d.File] || meant(d.File, d.Message, "Did you mean '%s'")
		}
	}
	return f
}

// agentverify resolves the project's source files in check mode.
func agentverify(t *testing.T, dir string, files map[string]string) findings {
	set := &change.Set{Root: dir, HeadFS: os.DirFS(dir), OnDisk: true, NoBase: true}
	var paths []string
	for p := range files {
		if strings.HasPrefix(p, "src/") {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		set.Files = append(set.Files, change.NewFile(p, "", nil, []byte(files[p])))
	}
	fe := typescript.New()
	pass := &check.Pass{Context: context.Background(), Changes: set, Policy: policy.Default(), Mode: check.Check, Languages: lang.Registry{fe}, Files: check.NewFiles(lang.Registry{fe})}
	ps, err := fe.Resolve(pass.Request())
	if err != nil {
		t.Fatal(err)
	}
	f := findings{map[string]bool{}, map[string]bool{}}
	for _, p := range ps {
		file := p.Location.File
		f.found[file] = true
		f.right[file] = f.right[file] || meant(file, p.Suggestion, "did you mean %s")
		if strings.HasPrefix(file, "src/ok.") {
			t.Errorf("false alarm on clean code: %s:%d: %s: %s", file, p.Location.Line, p.Kind, p.Message)
		}
	}
	return f
}
