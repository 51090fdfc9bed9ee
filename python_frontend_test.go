package agentverify_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/change/editset"
	"github.com/agentverify/agentverify/internal/testkit/pyrighttest"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
)

// idiomaticPython is modern, idiomatic Python that must draw no finding: dataclasses,
// enums, decorators, async, match, type hints, f-strings, the walrus operator, PEP 695
// generics and TYPE_CHECKING imports.
const idiomaticPython = `"""Inventory records."""
from __future__ import annotations

import asyncio
import enum
import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["Color", "Item", "MAX_ITEMS", "T", "fetch_all", "describe", "first"]

MAX_ITEMS = 100
"""The most items one fetch returns."""

T = TypeVar("T")
"""An item type."""

_cache: dict[str, Item] = {}


class Color(enum.Enum):
    """A label colour."""

    RED = "red"
    GREEN = "green"


@dataclass(frozen=True)
class Item:
    """One stock item."""

    name: str
    tags: list[str] = field(default_factory=list)
    color: Color = Color.RED

    def __post_init__(self) -> None:
        if not self.name:
            raise ValueError("empty name")

    @functools.cached_property
    def label(self) -> str:
        """The name with its colour."""
        return f"{self.name} ({self.color.value!r:>8})"


async def fetch_all(names: Iterable[str], *, limit: int = MAX_ITEMS) -> list[Item]:
    """Fetch items by name, at most limit of them."""
    async def one(name: str) -> Item:
        await asyncio.sleep(0)
        return _cache.get(name) or Item(name)

    return list(await asyncio.gather(*(one(n) for n in list(names)[:limit])))


def describe(value: object) -> str:
    """Say what value is."""
    match value:
        case Item(name=name, color=Color.RED):
            return f"red {name}"
        case [first_item, *rest] if (count := len(rest)) > 0:
            return f"{first_item} and {count} more"
        case {"name": str(name)}:
            return name
        case _:
            return repr(value)


def first[U](xs: list[U], /, default: U | None = None) -> U | None:
    """The first element of xs, or default."""
    return xs[0] if xs else default
`

// tangledPython has one function over the complexity limits and two names that break
// PEP 8.
const tangledPython = `"""Helpers."""


def getUserName(userId):
    """Look a user up."""
    return str(userId)


def classify(n):
    """Classify n, badly."""
    if n == 1:
        return "a"
    elif n == 2:
        return "b"
    elif n == 3:
        return "c"
    elif n == 4:
        return "d"
    elif n == 5:
        return "e"
    elif n == 6:
        return "f"
    for i in range(n):
        while i:
            try:
                i -= 1
            except ValueError:
                pass
            except TypeError:
                pass
    return "z"
`

// TestPythonProject checks a small Python project end to end: style and complexity run
// on .py files through the Python frontend, findings land at the declarations'
// positions, and idiomatic code draws none.
func TestPythonProject(t *testing.T) {
	pyrighttest.Require(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		".agentverify.yaml": "version: 1\nname: py\nstyle:\n  naming: detect\n  require_docs: exported\n" +
			"complexity:\n  max_cyclomatic: 10\n  max_nesting_depth: 5\n  max_function_lines: 80\n",
		"inventory/__init__.py": idiomaticPython,
		"inventory/helpers.py":  tangledPython,
		"tests/test_inventory.py": "from inventory import first\n\n\ndef test_first():\n    assert first([1]) == 1\n\n\n" +
			"class TestDescribe:\n    def test_int(self):\n        assert True\n",
	})
	rep, err := agentverify.Check(context.Background(), agentverify.Request{Dir: dir, Source: agentverify.Paths})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range rep.Violations {
		got = append(got, fmt.Sprintf("%s:%d:%d %s", v.Location.File, v.Location.Line, v.Location.Column, v.Rule))
	}
	want := []string{
		"inventory/helpers.py:4:17 style/naming", // userId
		"inventory/helpers.py:4:5 style/naming",  // getUserName
		"inventory/helpers.py:9:5 complexity/cyclomatic",
	}
	slices.Sort(got) // sorted as strings: 4:17 before 4:5
	if !slices.Equal(got, want) {
		t.Errorf("violations:\n got %q\nwant %q", got, want)
	}
	for _, v := range rep.Violations {
		if v.Rule == "style/naming" && !strings.Contains(v.Suggestion, "get_user_name") && !strings.Contains(v.Suggestion, "user_id") {
			t.Errorf("naming suggestion %q names no snake_case spelling", v.Suggestion)
		}
		if v.Rule == "complexity/cyclomatic" && !strings.Contains(v.Message, "classify has cyclomatic complexity 12 (limit 10)") {
			t.Errorf("complexity message %q", v.Message)
		}
	}
}

// TestPythonDiffSemantics checks that the declarations the Python frontend extracts give
// the semantics dimension what it needs in a diff: a removed pytest test and a removed
// public function (the Python frontend's lang.APIComparer) are reported at the head (the
// removed test where it was, the removed function at the top of the file) with their base
// positions as related places.
func TestPythonDiffSemantics(t *testing.T) {
	pyrighttest.Require(t)
	r := testrepo.New(t, map[string]string{
		".agentverify.yaml": "version: 1\nname: py\nstyle:\n  naming: detect\n" +
			"semantics:\n  preserve_exports: true\n  preserve_tests: true\n",
		"pkg/api.py":      "\"\"\"API.\"\"\"\n\n\ndef connect(url):\n    \"\"\"Connect.\"\"\"\n    return url\n\n\ndef close(conn):\n    \"\"\"Close.\"\"\"\n    return conn\n",
		"pkg/test_api.py": "def test_connect():\n    assert True\n\n\ndef test_close():\n    assert True\n",
	})
	r.WriteTB(t, map[string]string{
		"pkg/api.py":      "\"\"\"API.\"\"\"\n\n\ndef connect(url):\n    \"\"\"Connect.\"\"\"\n    return url\n",
		"pkg/test_api.py": "def test_connect():\n    assert True\n",
	})
	rep, err := agentverify.Check(context.Background(), agentverify.Request{Dir: r.Dir, Source: agentverify.WorkingTree})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range rep.Violations {
		got = append(got, fmt.Sprintf("%s:%d:%d %s", v.Location.File, v.Location.Line, v.Location.Column, v.Rule))
		for _, r := range v.Related {
			got = append(got, fmt.Sprintf("  related %s:%d base=%v", r.Location.File, r.Location.Line, r.Base))
		}
	}
	want := []string{"pkg/api.py:1:0 semantics/removed-export", "  related pkg/api.py:9 base=true",
		"pkg/test_api.py:2:0 semantics/removed-test", "  related pkg/test_api.py:5 base=true"}
	if !slices.Equal(got, want) {
		t.Errorf("violations:\n got %q\nwant %q", got, want)
	}
}

// TestPythonWarmEdits verifies proposed Python edits the way the MCP server and the hooks
// do, through one long-lived Checker (a warm pyright language server): a hallucinated
// member is denied with a suggestion before it is written, and the corrected edit passes.
func TestPythonWarmEdits(t *testing.T) {
	pyrighttest.Require(t)
	r := testrepo.New(t, map[string]string{
		"app/__init__.py": "",
		"app/store.py":    "\"\"\"Store.\"\"\"\nimport json\n\n\ndef save(data):\n    \"\"\"Save.\"\"\"\n    return json.dumps(data)\n",
	})
	c := agentverify.NewChecker()
	for i, tt := range []struct {
		src  string
		want []string
	}{
		{"\"\"\"Store.\"\"\"\nimport json\n\n\ndef save(data):\n    \"\"\"Save.\"\"\"\n    return json.dumsp(data)\n",
			[]string{"app/store.py:7:17 hallucination/unknown-symbol did you mean dumps, dump?"}},
		{"\"\"\"Store.\"\"\"\nimport json\n\n\ndef save(data):\n    \"\"\"Save.\"\"\"\n    return json.dumps(data, sort=True)\n",
			[]string{"app/store.py:7:29 hallucination/unknown-keyword did you mean sort_keys?"}},
		{"\"\"\"Store.\"\"\"\nimport json\n\n\ndef save(data):\n    \"\"\"Save.\"\"\"\n    return json.dumps(data, sort_keys=True)\n", nil},
	} {
		rep, err := c.Check(context.Background(), agentverify.Request{Dir: r.Dir, Source: agentverify.Edits,
			Edits: []editset.Edit{{Path: "app/store.py", Content: []byte(tt.src)}}})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, v := range rep.Violations {
			got = append(got, fmt.Sprintf("%s:%d:%d %s %s", v.Location.File, v.Location.Line, v.Location.Column, v.Rule, v.Suggestion))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("edit %d:\n got %q\nwant %q", i, got, tt.want)
		}
	}
}
