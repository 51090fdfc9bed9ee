package resolve

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/internal/testkit/pyrighttest"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// TestCeiling reads the first excluded version above from requires-python.
func TestCeiling(t *testing.T) {
	for spec, want := range map[string]string{
		">=3.8":          "",
		">=3.8,<3.12":    "3.12",
		">=3.8, <=3.11":  "3.12",
		"<3.11.4":        "3.12",
		"==3.10.*":       "3.11",
		"~=3.10":         "",
		"~=3.10.2":       "3.11",
		">=3.9,<3.13,<4": "3.13",
		"<4":             "4.0",
	} {
		if got := ceiling(spec); got != want {
			t.Errorf("ceiling(%q) = %q, want %q", spec, got, want)
		}
	}
}

// TestPyRange: a deprecation counts when a supported version has it; a replacement when
// every supported version has it.
func TestPyRange(t *testing.T) {
	for _, tc := range []struct {
		r            pyRange
		since, until string
		admits       bool
	}{
		{pyRange{"3.8", ""}, "3.12", "", true},
		{pyRange{"3.8", "3.12"}, "3.12", "", false},
		{pyRange{"3.8", "3.12"}, "3.11", "", true},
		{pyRange{"3.12", ""}, "", "3.12", false},
		{pyRange{"3.11", ""}, "", "3.12", true},
		{pyRange{"", ""}, "3.14", "", true},
	} {
		if got := tc.r.admits(tc.since, tc.until); got != tc.admits {
			t.Errorf("%v admits [%s, %s) = %v, want %v", tc.r, tc.since, tc.until, got, tc.admits)
		}
	}
	if (pyRange{"3.8", ""}).has("3.9") || !(pyRange{"3.9", ""}).has("3.9") || !(pyRange{"", ""}).has("3.9") || !(pyRange{"", ""}).has("") {
		t.Error("has: a replacement must exist in every supported version (an unstated floor is recent)")
	}
	if (pyRange{"", ""}).from("3.12") || (pyRange{"3.11", ""}).from("3.12") || !(pyRange{"3.12", ""}).from("3.12") {
		t.Error("from: a removal everywhere needs a stated floor at or after it")
	}
}

// deprecationsOf runs the deprecation step alone over main.py in a project requiring
// requires.
func deprecationsOf(t *testing.T, requires, src string, files map[string]string) []lang.Problem {
	t.Helper()
	head := fstest.MapFS{"pyproject.toml": {Data: []byte("[project]\nname = \"app\"\nrequires-python = \"" + requires + "\"\n")}}
	for p, s := range files {
		head[p] = &fstest.MapFile{Data: []byte(s)}
	}
	head["main.py"] = &fstest.MapFile{Data: []byte(src)}
	set := &change.Set{HeadFS: head, NoBase: true, Files: []*change.File{change.NewFile("main.py", "", nil, []byte(src))}}
	j := &job{fe: Resolver{g: syntax.NewGrammar()}, req: &lang.Request{Context: context.Background(), Changes: set},
		members: map[string][]string{}, dyn: newDyn()}
	j.path = &[]string{}
	if err := j.collect(); err != nil {
		t.Fatal(err)
	}
	ps, err := deprecatedStep(j)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// TestDeprecatedUses: each use is reported at its name with the replacement, and a plain
// rename carries its edit as the fix; guarded, coroutine and not-deprecated uses draw
// nothing.
func TestDeprecatedUses(t *testing.T) {
	src := `import threading
import unittest
import asyncio
import typing
import base64
import sys
from app.legacy import old, new

if sys.version_info < (3, 9):
    base64.encodestring(b"")


class T(unittest.TestCase):
    def test(self):
        self.assertEquals(threading.currentThread(), 1)
        x: typing.List[int] = []
        t = threading.Thread()
        t.isAlive()
        old()
        new()


async def main():
    asyncio.get_event_loop()
`
	legacy := "from typing_extensions import deprecated\n\n@deprecated(\"use new\")\ndef old(): ...\n\ndef new(): ...\n"
	got := describeAll(deprecationsOf(t, ">=3.9", src, map[string]string{"app/__init__.py": "", "app/legacy.py": legacy}))
	want := []string{
		"7:24 app.legacy.old is deprecated (its declaration is marked @deprecated) [the deprecation note says: use new]",
		"15:14 unittest.TestCase.assertEquals is deprecated since Python 3.2 and removed in 3.12; the project supports Python 3.9 and newer (requires-python) [use self.assertEqual instead] fix 15:14-15:26=assertEqual",
		"15:37 threading.currentThread is deprecated since Python 3.10; the project supports Python 3.9 and newer (requires-python) [use threading.current_thread instead] fix 15:37-15:50=current_thread",
		"16:19 typing.List is deprecated since Python 3.9; the project supports Python 3.9 and newer (requires-python) [use list (subscriptable since Python 3.9, PEP 585) instead] fix 16:12-16:23=list",
		"18:11 threading.Thread.isAlive was removed in Python 3.9; the project supports Python 3.9 and newer (requires-python) [use is_alive instead] fix 18:11-18:18=is_alive",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Without a stated floor, typing.List is not reported (list[int] may not exist), and
	// pkg_resources is (importlib.metadata is in every Python still in use).
	got = describeAll(deprecationsOf(t, "", "import typing\nimport pkg_resources\nx: typing.List[int] = []\n", nil))
	if len(got) != 1 || !strings.Contains(got[0], "2:8 module pkg_resources is deprecated since setuptools 67.5") {
		t.Errorf("no requires-python: %q", got)
	}
}

func describeAll(ps []lang.Problem) []string {
	var out []string
	for _, p := range ps {
		s := fmt.Sprintf("%d:%d %s [%s]", p.Location.Line, p.Location.Column, p.Message, p.Suggestion)
		if p.Fix != nil {
			e := p.Fix.Edits[0]
			s += fmt.Sprintf(" fix %d:%d-%d:%d=%s", e.Range.Line, e.Range.Column, e.Range.EndLine, e.Range.EndColumn, e.NewText)
		}
		out = append(out, s)
	}
	lang.SortProblems(ps)
	return out
}

// TestTypeshedDeprecations: typeshed's @deprecated of the standard library, dated by the
// note or the version test around it; an overload deprecated alone (shlex.split(None))
// is not the function.
func TestTypeshedDeprecations(t *testing.T) {
	pyrighttest.Require(t) // typeshed's stubs come with pyright
	src := "import pty\nimport shlex\nimport glob\npty.master_open()\nshlex.split('a b')\nglob.glob0('.', '*')\n"
	got := describeAll(deprecationsOf(t, ">=3.9", src, nil))
	want := []string{
		"4:5 pty.master_open is deprecated since Python 3.12 (its declaration is marked @deprecated) [the deprecation note says: Deprecated since Python 3.12; removed in Python 3.14. Use `openpty()` instead.]",
		"6:6 glob.glob0 is deprecated since Python 3.10 (its declaration is marked @deprecated) [the deprecation note says: Deprecated since Python 3.10; will be removed in Python 3.15. Use `glob.glob()` with the *root_dir* argument instead.]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestDeprecatedRange: with ">=3.8,<3.12", utcnow (deprecated in 3.12) is no deprecation,
// nor typing.List (its replacement list[int] needs 3.9); imp, removed in 3.12, is
// deprecated in every supported version; get_event_loop() (3.10) is within the range.
func TestDeprecatedRange(t *testing.T) {
	src := "import asyncio\nimport datetime\nimport imp\nfrom typing import List\n\n\n" +
		"def run() -> List[int]:\n    now = datetime.datetime.utcnow()\n    loop = asyncio.get_event_loop()\n    return [now.year, loop]\n"
	got := describeAll(deprecationsOf(t, ">=3.8,<3.12", src, nil))
	want := []string{
		"3:8 module imp is deprecated since Python 3.4 and removed in 3.12; the project supports Python 3.8 up to 3.12 (requires-python) [use importlib (importlib.util.find_spec, importlib.import_module, importlib.reload) instead]",
		"9:20 asyncio.get_event_loop() outside a coroutine is deprecated since Python 3.10; the project supports Python 3.8 up to 3.12 (requires-python) [use asyncio.run(main()) to run a coroutine, asyncio.new_event_loop() for a loop of your own, or asyncio.get_running_loop() inside a coroutine instead]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
