package resolve

import (
	"sort"
	"strings"
	"testing"
)

// TestForwardedKeywords checks which keywords a function that takes **kwargs accepts
// when its source forwards them, and when it is left open (ok false).
func TestForwardedKeywords(t *testing.T) {
	const lib = `import other
from .impl import Target as T


class Target:
    def __init__(self, a, *, b=1, c=2):
        pass


def one(x, **kw):
    return Target(x, **kw)


def two_hops(**kw):
    kw.pop("debug", None)
    return one(1, b=2, **kw)


def defaulted(x, cls=None, **kw):
    if cls is None:
        cls = Target
    return cls(x, **kw)


def imported(**kw):
    return T(**kw)


def via_module(**kw):
    return other.g(**kw)


def twice(**kw):
    Target(1, **kw)
    return one(1, **kw)


def method(obj, **kw):
    return obj.run(**kw)


def stored(**kw):
    global saved
    saved = kw
    return Target(1, **kw)


def loop(**kw):
    return loop(**kw)


def closed(a, b=1):
    return a


def config(**kwargs):
    fmt = kwargs.pop("format", None)
    level = kwargs.pop("level", None)
    if kwargs:
        raise ValueError("Unrecognised argument(s): %s" % ", ".join(kwargs))
    return fmt, level


def ignores(**kwargs):
    return kwargs.pop("format", None)
`
	j := nsJob(map[string]string{"pkg/__init__.py": "", "pkg/mod.py": lib,
		"pkg/impl.py": "class Target:\n    def __init__(self, z=0):\n        pass\n", "other.py": "def g(p, q=1):\n    pass\n"})
	for _, tc := range []struct {
		fn     string
		passed string
		want   string // sorted accepted keywords, "-" when open
	}{
		{"one", "", "b c x"},        // a is filled by x
		{"two_hops", "", "c debug"}, // x filled, b passed explicitly
		{"defaulted", "", "b c cls x"},
		{"defaulted", "cls", "-"},
		{"imported", "", "z"},
		{"via_module", "", "p q"},
		{"twice", "", "-"},
		{"method", "", "-"},
		{"stored", "", "-"},
		{"loop", "", "-"},
		{"closed", "", "-"}, // no **kwargs: pyright's business
		{"config", "", "format level"},
		{"ignores", "", "-"}, // other keywords are ignored, not refused
	} {
		passed := map[string]bool{}
		for _, p := range strings.Fields(tc.passed) {
			passed[p] = true
		}
		acc, ok := j.forwardedKeywords("pkg.mod", tc.fn, passed)
		got := "-"
		if ok {
			sort.Strings(acc.names)
			got = strings.Join(acc.names, " ")
		}
		if got != tc.want {
			t.Errorf("%s (passing %q): accepts %q, want %q", tc.fn, tc.passed, got, tc.want)
		}
	}
}

func TestStubTakesKwargs(t *testing.T) {
	stub := []byte("def dumps(obj: Any, *, cls: type[X] | None = None, **kwds: Any) -> str: ...\n" +
		"@overload\ndef run(args: list[str], check: bool = ...) -> int: ...\n@overload\ndef run(args: str, **kw: Any) -> int: ...\n" +
		"def sub(pattern: str, repl: Callable[[Match[str]], str], string: str, count: int = 0) -> str: ...\n")
	for name, want := range map[string]bool{"dumps": true, "run": true, "sub": false, "missing": false} {
		if got := stubTakesKwargs(stub, name); got != want {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
}
