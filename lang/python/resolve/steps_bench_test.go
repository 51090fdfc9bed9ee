package resolve

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/internal/testkit/pyrighttest"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/syntax"
	"github.com/agentverify/agentverify/policy"
)

// beyondSources are changed files for the checks beyond pyright: one that needs them
// (a module pyright accepts any member of, keywords through **kwargs) and one that does
// not (standard library and explicit keywords only).
var beyondSources = map[string]string{
	"needs": `import json
import pygments.lexers
from pygments.lexers import PythonLexer, JsonLexr


def run(x):
    return json.dumps(x, sort=True), pygments.lexers.Python3Lexer, PythonLexer
`,
	"nothing": `import os
import re


def run(x):
    return re.sub("a", "b", x, count=1), os.path.join("a", x)
`,
}

// BenchmarkBeyondPyright times the resolver's own steps after pyright (the __getattr__
// check, **kwargs forwarding, the false-alarm filter) on a one-file change: cold (a new
// frontend: sources read and parsed, the interpreter asked for sys.path) and warm (a
// frontend that keeps what it read, as NewWarm does).
func BenchmarkBeyondPyright(b *testing.B) {
	pyrighttest.Require(b)
	if _, err := os.Stat("/usr/lib/python3/dist-packages/pygments/lexers/_mapping.py"); err != nil {
		b.Skip("apt-get install python3-pygments")
	}
	for name, src := range beyondSources {
		root := b.TempDir()
		if err := os.MkdirAll(filepath.Join(root, "app"), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "pyproject.toml"), []byte("[project]\nname = \"app\"\nrequires-python = \">=3.8\"\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		set := &change.Set{Root: root, HeadFS: os.DirFS(root), NoBase: true,
			Files: []*change.File{change.NewFile("app/main.py", "", nil, []byte(src))}}
		req := &lang.Request{Context: context.Background(), Changes: set, Policy: policy.Default()}
		b.Run("cold/"+name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				runBeyond(b, Resolver{g: syntax.NewGrammar()}, req)
			}
		})
		b.Run("warm/"+name, func(b *testing.B) {
			fe := Resolver{g: syntax.NewGrammar(), cache: NewCache(), srcs: newSrcCache()}
			runBeyond(b, fe, req)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				runBeyond(b, fe, req)
			}
		})
	}
}

func runBeyond(b *testing.B, fe Resolver, req *lang.Request) {
	j := &job{fe: fe, req: req, members: map[string][]string{}, dyn: newDyn()}
	if err := j.collect(); err != nil {
		b.Fatal(err)
	}
	var ps []lang.Problem
	for _, s := range []step{kwfwdStep, uncheckedStep, deprecatedStep} {
		out, err := s(j)
		if err != nil {
			b.Fatal(err)
		}
		ps = append(ps, out...)
	}
	j.dropFalseAlarms(ps)
}
