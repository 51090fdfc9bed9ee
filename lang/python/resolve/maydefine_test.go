package resolve

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/agentverify/agentverify/lang/python/syntax"
)

func TestMayDefine(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"x = s.strip()\n", false},
		{"x = s.strip ()\ny = s.rstrip\n", false},
		{"x = s.lstrip()\nstripped = 1\n", false},
		{"class A:\n    def strip(self): pass\n", true},
		{"class A:\n    strip = None\n", true},
		{"def f(self):\n    self.strip = 1\n", true},
		{"A.strip = f\n", true},
		{"x = s.strip\n", false},
		{"lines = map(str.strip, x)\n", false},
		{"'''strip the prefix'''\n", false},
		{"class A:\n    def m(self):\n        (self.a,\n         self.strip) = 1, 2\n", true},
		{"class A:\n    strip, b = 1, 2\n", true},
		{"class A:\n    [strip] = [1]\n", true},
		{"class A:\n    strip: int\n", true},
		{"class A:\n    async def strip(self): pass\n", true},
		{"self.strip \\\n    = 1\n", true},
		{"f(strip=True)\n", true}, // a keyword argument: read (it defines nothing, but costs only a parse)
		{"é.strip = 1\n", true},
		{"", false},
		{"# strip = 1\n", false},
		{"x = 1  # no strip here\n", false},
		{"x = '#'; A.strip = 1\n", true},
		{"s = '''\n# '''; A.strip = 1\n", true},
	} {
		if got := mayDefine([]byte(tc.src), []byte("strip")); got != tc.want {
			t.Errorf("mayDefine(%q, strip) = %t, want %t", tc.src, got, tc.want)
		}
	}
}

// Every attribute collectClasses finds a class defining, mayDefine finds spelled: the
// files attrIndex leaves unread define none of it.
func TestMayDefineCoversClassAttrs(t *testing.T) {
	g := syntax.NewGrammar()
	names := []string{"strip", "rstrip", "x", "x_", "_x"}
	lines := []string{"class %s:", "class B(m.%s, metaclass=%s):", "class C(%s.A):", "    def %s(self): pass", "    %s = 1", "    def m(self):\n        self.%s = 1",
		"    def m(self):\n        self.%s(1)", "%s.x = 1", "A.%s = f", "y = z.%s()", "    %s, b = 1, 2", "    %s += 1", "    c: int = %s", "# %s = 1", "x = '#'; A.%s = 1", "    z = \"\"\"#\n    \"\"\"; self.%s = 1", "    s = '''\n    # %s'''",
		"    def m(self):\n        (self.a,\n         self.%s) = 1, 2", "    b, %s = 1, 2", "    [%s] = [1]", "    %s: int", "    async def %s(self): pass",
		"    def m(self):\n        self.%s: int = 1", "    def m(self):\n        self.%s \\\n            += 1", "    def m(self):\n        self.x, self.%s = 1, 2",
		"    y = map(str.%s, z)", "    '''%s the prefix'''", "    *a, %s = 1, 2", "    def m(self):\n        cls.%s += 1", "    def m(self):\n        [self.%s] = [1]"}
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		b.WriteString("class A:\n    pass\n")
		for range rapid.IntRange(1, 8).Draw(t, "n") {
			b.WriteString(strings.ReplaceAll(rapid.SampledFrom(lines).Draw(t, "line"), "%s", rapid.SampledFrom(names).Draw(t, "name")) + "\n")
		}
		src := []byte(b.String())
		tree, err := g.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		var classes []namedClass
		collectClasses(tree, src, &classes)
		for _, c := range classes {
			if !mayName(src, []byte(c.name)) {
				t.Fatalf("the file defines class %s (or an attribute of it) in\n%s\nbut mayName says it cannot", c.name, src)
			}
			for _, base := range c.info.bases {
				if !spelled(src, []byte(base), anywhere) {
					t.Fatalf("class %s has base %s in\n%s\nbut spelled says the file does not spell it", c.name, base, src)
				}
			}
			for a := range c.info.attrs {
				if !mayDefine(src, []byte(a)) {
					t.Fatalf("class %s defines %s in\n%s\nbut mayDefine says the file cannot", c.name, a, src)
				}
			}
		}
	})
}

func TestMayName(t *testing.T) {
	for _, tc := range []struct {
		src, name string
		want      bool
	}{
		{"super().__init__(x)\n", "__init__", false},
		{"class A:\n    def __init__(self): pass\n", "__init__", false},
		{"x = Pt(1)\n", "Pt", false},
		{"class Pt:\n    pass\n", "Pt", true},
		{"class\tPt(Base): pass\n", "Pt", true},
		{"subclass Pt\n", "Pt", false},
		{"Pt .x = 1\n", "Pt", true},
		{"Pt.x = 1\n", "Pt", true},
	} {
		if got := mayName([]byte(tc.src), []byte(tc.name)); got != tc.want {
			t.Errorf("mayName(%q, %s) = %t, want %t", tc.src, tc.name, got, tc.want)
		}
	}
}
