package resolve

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// nsJob is a job over a head tree of files, with no interpreter to ask.
func nsJob(files map[string]string) *job {
	head := fstest.MapFS{}
	for p, s := range files {
		head[p] = &fstest.MapFile{Data: []byte(s)}
	}
	set := &change.Set{HeadFS: head, NoBase: true}
	j := &job{fe: Resolver{g: syntax.NewGrammar()}, req: &lang.Request{Context: context.Background(), Changes: set},
		members: map[string][]string{}, dyn: newDyn()}
	j.path = &[]string{} // no sys.path: only the head tree is read
	return j
}

// TestNamespace checks what a module's source binds and when it is dynamic: top-level
// bindings of every kind, an analysable __getattr__ (PEP 562 or a replacement module's
// class), and the constructs that make a namespace dynamic.
func TestNamespace(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		has       []string // names the namespace must have ("" when dynamic)
		lacks     []string
		dynamic   bool
	}{
		{name: "bindings", src: "import a.b\nimport c as d\nfrom e import f, g as h\nx, (y, z) = 1, (2, 3)\nw: int = 1\nfor i in []: pass\nwith o as (p, q): pass\nif t:\n    def k(): pass\nelse:\n    class K: pass\ntry:\n    m = 1\nexcept E:\n    n = 2\ndef s():\n    global gl\n    gl = 1\n",
			has: []string{"a", "d", "f", "h", "x", "y", "z", "w", "i", "p", "q", "k", "K", "m", "n", "s", "gl"}, lacks: []string{"b", "c", "e", "g", "o"}},
		{name: "getattr in a literal mapping", src: "_lazy = {'alpha': 1, 'beta': 2}\ndef __getattr__(name):\n    if name in _lazy:\n        return _lazy[name]\n    raise AttributeError(name)\n",
			has: []string{"alpha", "beta", "_lazy"}, lacks: []string{"gamma"}},
		{name: "getattr lookups", src: "_m = frozenset({'a'})\ndef __getattr__(name):\n    v = _T.get(name)\n    if v is not None:\n        return v\n    if name == 'b' or name in ('c', 'd'):\n        return 1\n    if name in _m:\n        return 2\n    raise AttributeError(name)\n_T = {'t': 1}\n",
			has: []string{"a", "b", "c", "d", "t"}, lacks: []string{"e"}},
		{name: "getattr returns a subscript", src: "_d = {'x': 1}\ndef __getattr__(name):\n    return _d[name]\n", has: []string{"x"}, lacks: []string{"y"}},
		{name: "getattr answers anything", src: "def __getattr__(name):\n    return name.upper()\n", dynamic: true},
		{name: "getattr imports by name", src: "import importlib\ndef __getattr__(name):\n    mod = importlib.import_module('.' + name, __name__)\n    return mod\n", dynamic: true},
		{name: "getattr falls through", src: "_d = {'x': 1}\ndef __getattr__(name):\n    if name in _d:\n        return _d[name]\n", dynamic: true},
		{name: "getattr over a computed mapping", src: "_d = dict(zip(a, b))\ndef __getattr__(name):\n    if name in _d:\n        return _d[name]\n    raise AttributeError(name)\n", dynamic: true},
		{name: "getattr returns in a loop", src: "def __getattr__(name):\n    for m in mods:\n        return getattr(m, name)\n    raise AttributeError(name)\n", dynamic: true},
		{name: "replacement module", src: "import sys, types\nCOMPAT = {'Old': 'New'}\nclass _M(types.ModuleType):\n    def helper(self): pass\n    def __getattr__(self, name):\n        info = LEXERS.get(name)\n        if info:\n            setattr(self, name, info)\n            return info\n        if name in COMPAT:\n            return getattr(self, COMPAT[name])\n        raise AttributeError(name)\nLEXERS = {'PyLexer': 1}\nnewmod = _M(__name__)\nnewmod.__dict__.update(sys.modules[__name__].__dict__)\nsys.modules[__name__] = newmod\n",
			has: []string{"Old", "PyLexer", "helper", "COMPAT"}, lacks: []string{"PyLexr"}},
		{name: "replacement by an unknown object", src: "import sys\nsys.modules[__name__] = make()\n", dynamic: true},
		{name: "another module registered", src: "import sys\nclass io: pass\nsys.modules['m.io'] = io\n", has: []string{"io"}, lacks: []string{"x"}},
		{name: "globals update", src: "globals().update(x)\n", dynamic: true},
		{name: "globals item", src: "for n in names:\n    globals()[n] = 1\n", dynamic: true},
		{name: "setattr on the module", src: "import sys\nsetattr(sys.modules[__name__], 'x', 1)\n", dynamic: true},
		{name: "exec", src: "exec_('def f(): pass')\n", dynamic: true},
		{name: "path extension", src: "__path__ = __import__('pkgutil').extend_path(__path__, __name__)\n", dynamic: true},
		{name: "import hook", src: "import sys\nclass F:\n    def install(self):\n        sys.meta_path.append(self)\n", dynamic: true},
		{name: "unresolvable star import", src: "from ._speedups import *\n", dynamic: true},
		{name: "star import of a project module", src: "from .other import *\n", has: []string{"shared"}, lacks: []string{"_private"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := nsJob(map[string]string{"pkg/__init__.py": "", "pkg/mod.py": tc.src, "pkg/other.py": "shared = 1\n_private = 2\n"})
			ns := j.namespaceOf("pkg.mod")
			if ns == nil {
				t.Fatal("no namespace")
			}
			if ns.dynamic != tc.dynamic {
				t.Fatalf("dynamic = %v, want %v (names %v)", ns.dynamic, tc.dynamic, sorted(ns.names))
			}
			for _, n := range tc.has {
				if !ns.names[n] {
					t.Errorf("%s missing from %v", n, sorted(ns.names))
				}
			}
			for _, n := range tc.lacks {
				if ns.names[n] {
					t.Errorf("%s should not be a member", n)
				}
			}
		})
	}
}

// TestNamespaceSubmodules: a package's modules and subpackages are its members, private
// ones too.
func TestNamespaceSubmodules(t *testing.T) {
	j := nsJob(map[string]string{"pkg/__init__.py": "x = 1\n", "pkg/a.py": "", "pkg/_b.py": "", "pkg/sub/__init__.py": "", "pkg/ns/m.py": ""})
	ns := j.namespaceOf("pkg")
	for _, n := range []string{"x", "a", "_b", "sub", "ns"} {
		if !ns.has(n) {
			t.Errorf("%s missing from %v", n, sorted(ns.names))
		}
	}
	if ns.has("c") {
		t.Error("c should not be a member")
	}
}

func sorted(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// FuzzNamespace: no module source makes the namespace reader or the __getattr__
// analysis panic or hang, and a namespace is either dynamic or lists what it binds.
func FuzzNamespace(f *testing.F) {
	for _, s := range []string{
		"", "def __getattr__(name):\n    if name in _d:\n        return _d[name]\n    raise AttributeError\n_d = {'a': 1}\n",
		"import sys\nsys.modules[__name__] = x\n", "from . import *\n", "from .... import *\n", "def __getattr__():\n    raise X\n",
		"def __getattr__(self, name):\n    return\n", "globals().update(\n", "_d = {**x}\ndef __getattr__(n):\n    return _d[n]\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if strings.Contains(src, "\x00") {
			return
		}
		j := nsJob(map[string]string{"pkg/__init__.py": src, "pkg/mod.py": src})
		ns := j.namespaceOf("pkg.mod")
		if ns == nil || !ns.dynamic && ns.names == nil {
			t.Fatalf("namespace %+v", ns)
		}
	})
}

// TestWarmNamespaceCache: a warm frontend reads an installed module once while its file
// is unchanged, and again once it changes.
func TestWarmNamespaceCache(t *testing.T) {
	site := t.TempDir()
	lib := filepath.Join(site, "lib.py")
	if err := os.WriteFile(lib, []byte("old = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fe := Resolver{g: syntax.NewGrammar(), srcs: newSrcCache()}
	names := func() *namespace {
		j := nsJob(nil)
		j.fe = fe
		j.path = &[]string{site}
		return j.namespaceOf("lib")
	}
	first := names()
	if !first.has("old") || first.has("new") {
		t.Fatalf("first read: %v", sorted(first.names))
	}
	if again := names(); again != first {
		t.Error("an unchanged file was read again")
	}
	if err := os.WriteFile(lib, []byte("new = 1\nnewer = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if changed := names(); !changed.has("new") || changed.has("old") {
		t.Errorf("after the change: %v", sorted(changed.names))
	}
}

// lockingMemo holds its lock while it builds a value, as check.Memo does.
type lockingMemo struct {
	mu sync.Mutex
	m  map[string]any
}

func (l *lockingMemo) Get(key string, newValue func() any) any {
	l.mu.Lock()
	defer l.mu.Unlock()
	if v, ok := l.m[key]; ok {
		return v
	}
	v := newValue()
	l.m[key] = v
	return v
}

// TestNamespaceMemoNested: reading an installed module that star-imports another, with
// the verification's Memo, neither deadlocks nor loses the imported names.
func TestNamespaceMemoNested(t *testing.T) {
	site := t.TempDir()
	for name, src := range map[string]string{"a.py": "from b import *\n", "b.py": "from c import *\nx = 1\n", "c.py": "y = 2\n"} {
		if err := os.WriteFile(filepath.Join(site, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	j := nsJob(nil)
	j.req.Memo = &lockingMemo{m: map[string]any{}}
	j.path = &[]string{site}
	done := make(chan *namespace)
	go func() { done <- j.namespaceOf("a") }()
	select {
	case ns := <-done:
		if !ns.has("x") || !ns.has("y") || ns.dynamic {
			t.Errorf("namespace of a: %+v", ns)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("reading a namespace through the Memo deadlocked")
	}
}
