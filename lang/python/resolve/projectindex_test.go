package resolve

import (
	"context"
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// indexProject is a project whose classes reach each other through bases in other files,
// with mixins, attributes set from outside, by setattr (literal, escaped, computed) and by
// __dict__ updates, and files that mention none of it.
var indexProject = map[string]string{
	"base.py":    "class Base:\n    def run(self):\n        return self.hook()\n",
	"mid.py":     "from base import Base\nclass Mid(Base):\n    level = 1\n",
	"leaf.py":    "from mid import Mid\nclass Leaf(Mid, Other):\n    def go(self):\n        self.done = True\n",
	"mixin.py":   "class Mixin:\n    def use(self):\n        return self.provided\n",
	"user.py":    "from mixin import Mixin\nclass User(Mixin, Mid):\n    provided = 2\n",
	"outside.py": "import base\nBase.extra = 1\n",
	"dyn.py":     "class Dyn:\n    def __init__(self, **kw):\n        self.__dict__.update(kw)\n",
	"lit.py":     "def f(o):\n    setattr(o, 'literal', 1)\n    setattr(o, 'esc\\x61ped', 2)\n",
	"comp.py":    "class Comp:\n    def __init__(self, n):\n        setattr(self, n, 1)\n",
	"other.py":   "def f():\n    return 1\n",
	"dq.py":      "def g(o, dquoted):\n    setattr(o, \"dquoted\", 1)\n    setattr(o, r'raw', dquoted)\n",
	"gen.py":     "import attr\n@attr.s\nclass Pt:\n    x = attr.ib()\n    y = attr.ib(default=0)\n",
	"gen2.py":    "import attr\n@attr.s\nclass Twice:\n    x = attr.ib()\n",
	"gen3.py":    "class Twice:\n    pass\n",
}

// classes indexes the classes of the project's Python files in the head tree, and the
// attributes they set by name (j.setIndex), once per job (projectindex.go).
func (j *job) classes() projectClasses {
	if j.projClasses == nil {
		j.projClasses, j.setIndex = j.projectIndex(func([]byte) bool { return true })
	}
	return j.projClasses
}

// TestFamilyIndexMatchesWholeIndex asserts that the attribute questions answered from
// the files that can tell answer as from the whole project's index, for every class and
// attribute of the project (and some it does not have).
func TestFamilyIndexMatchesWholeIndex(t *testing.T) {
	head := fstest.MapFS{}
	for p, s := range indexProject {
		head[p] = &fstest.MapFile{Data: []byte(s)}
	}
	newJob := func() *job {
		set := &change.Set{HeadFS: head, NoBase: true}
		return &job{fe: Resolver{g: syntax.NewGrammar(), cache: NewCache()},
			req: &lang.Request{Context: context.Background(), Changes: set}, members: map[string][]string{}, dyn: newDyn()}
	}
	classes := []string{"Base", "Mid", "Leaf", "Mixin", "User", "Dyn", "Comp", "Other", "Nope", "object", "Pt", "Twice"}
	attrs := []string{"run", "hook", "level", "done", "use", "provided", "extra", "literal", "escaped", "anything", "go", "dquoted", "raw"}
	whole := newJob()
	whole.classes()
	if whole.generatedClassOf("Pt") != initAttrs || whole.generatedClassOf("Twice") != initUnknown {
		t.Fatalf("the project's attrs classes read as %v and %v", whole.generatedClassOf("Pt"), whole.generatedClassOf("Twice"))
	}
	for _, c := range classes {
		for _, a := range attrs {
			type answers struct{ defined, mixin, narrower bool }
			want := answers{whole.definedOn(c, a), whole.mixinMember(c, a), whole.declaredNarrower(c, a)}
			j := newJob()
			got := answers{j.definedOn(c, a), newJob().mixinMember(c, a), newJob().declaredNarrower(c, a)}
			if got != want {
				t.Errorf("%s.%s: from the files that tell %+v, from the whole project %+v", c, a, got, want)
			}
			if gen, fields := newJob().generatedClass(c); gen != whole.generatedClassOf(c) || fmt.Sprint(fields) != fmt.Sprint(whole.fieldsOf(c)) {
				t.Errorf("%s: generated __init__ %v %v from the files that spell it, %v %v from the whole project", c, gen, fields, whole.generatedClassOf(c), whole.fieldsOf(c))
			}
		}
	}
	// The files read are fewer than the project's: other.py tells nothing about Base.run.
	j := newJob()
	j.definedOn("Base", "run")
	parsed := 0
	for _, f := range j.projFiles.parsed {
		if f != nil {
			parsed++
		}
	}
	if parsed == len(indexProject) {
		t.Errorf("definedOn(Base, run) parsed all %d files", parsed)
	}
}

func (j *job) generatedClassOf(name string) initGen { g, _ := j.generatedClass(name); return g }

func (j *job) fieldsOf(name string) []attrField { _, f := j.generatedClass(name); return f }

// TestGeneratedInitOfMethodCall asserts that pyright's call problem on super().__init__(…)
// or C.__init__(self, …) is not taken for a class's construction: no project file is
// read for a class named __init__ (setuptools spells '__init__.py' in 9 files, 0.38 MB).
func TestGeneratedInitOfMethodCall(t *testing.T) {
	files := map[string]string{"pkg/__init__.py": "", "pkg/a.py": "PATH = 'pkg/__init__.py'\n"}
	for _, call := range []string{"super().__init__(1, 2)", "Base.__init__(self, 1, 2)", "Pt(1, 2)"} {
		src := []byte("class C(Base):\n    def m(self):\n        " + call + "\n")
		j := nsJob(files)
		tree, err := j.fe.g.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		tg := &target{f: change.NewFile("c.py", "", nil, src), src: src, tree: tree}
		p := lang.Problem{Kind: lang.WrongArity, Location: lang.Location{Line: 3, Column: 9 + len(call) - 4}}
		_, ok := j.generatedInit(tg, p, map[*syntax.Node]bool{})
		read := j.projFiles != nil
		if want := call == "Pt(1, 2)"; read != want {
			t.Errorf("%s: project files read %t, want %t", call, read, want)
		}
		if ok {
			t.Errorf("%s: taken for the construction of an attrs class", call)
		}
	}
}
