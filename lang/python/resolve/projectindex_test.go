package resolve

import (
	"context"
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
	classes := []string{"Base", "Mid", "Leaf", "Mixin", "User", "Dyn", "Comp", "Other", "Nope", "object"}
	attrs := []string{"run", "hook", "level", "done", "use", "provided", "extra", "literal", "escaped", "anything", "go"}
	whole := newJob()
	whole.classes()
	for _, c := range classes {
		for _, a := range attrs {
			type answers struct{ defined, mixin, narrower bool }
			want := answers{whole.definedOn(c, a), whole.mixinMember(c, a), whole.declaredNarrower(c, a)}
			j := newJob()
			got := answers{j.definedOn(c, a), newJob().mixinMember(c, a), newJob().declaredNarrower(c, a)}
			if got != want {
				t.Errorf("%s.%s: from the files that tell %+v, from the whole project %+v", c, a, got, want)
			}
			if j.projClasses != nil {
				t.Errorf("%s.%s: definedOn indexed the whole project", c, a)
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
