package python_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/internal/testkit/pyrighttest"
	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
)

// pygmentsDir is Debian's python3-pygments: 115,000 lines of real Python, packaged.
const pygmentsDir = "/usr/lib/python3/dist-packages/pygments"

// pygmentsTree returns the pygments package's Python files, by path under pygments/, or
// skips the test.
func pygmentsTree(tb testing.TB) map[string]string {
	files := map[string]string{}
	err := filepath.WalkDir(pygmentsDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".py") {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(filepath.Dir(pygmentsDir), p)
		files[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil || len(files) < 100 {
		tb.Skipf("no pygments sources at %s (err %v): apt-get install python3-pygments", pygmentsDir, err)
	}
	return files
}

// testsBase is a test module of the project, as its authors would write it.
const testsBase = `from pygments.util import get_bool_opt
import pytest


def test_bool_opt():
    assert get_bool_opt({"x": "yes"}, "x") is True


def test_bool_default():
    assert get_bool_opt({}, "x", False) is False
`

// TestPygmentsProject verifies changes to a real project, pygments in a git repository:
// a compatible change draws nothing from semantics, and a planted API removal, signature
// break, deleted test and added skip are each found, with the callers they break in the
// files the change did not touch.
func TestPygmentsProject(t *testing.T) {
	shorttest.Slow(t, "starts pyright over a real project or corpus; the sampled cases of hallucination cover pyright in -short")
	pyrighttest.Require(t) // the Python frontend's resolution runs beside semantics: without pyright it is an internal-error
	files := pygmentsTree(t)
	files["tests/test_util.py"] = testsBase
	files[".agentverify.yaml"] = "version: 1\nname: pygments\nsemantics:\n  preserve_exports: true\n  preserve_signatures: true\n  preserve_tests: true\n"
	r := testrepo.New(t, files)
	util := files["pygments/util.py"]

	// A compatible change: an optional parameter added, a new function.
	r.WriteTB(t, map[string]string{"pygments/util.py": strings.Replace(util,
		"def get_bool_opt(options, optname, default=None):", "def get_bool_opt(options, optname, default=None, strict=False):", 1) +
		"\n\ndef added_helper():\n    \"\"\"A new helper.\"\"\"\n    return 1\n"})
	if got := semantics(t, r.Dir); len(got) > 0 {
		t.Errorf("a compatible change drew findings:\n%s", strings.Join(got, "\n"))
	}

	// The planted breaks.
	listOpt := regexp.MustCompile(`(?s)\ndef get_list_opt\(.*?\n\n\n`)
	broken := listOpt.ReplaceAllString(util, "\n\n")
	broken = strings.Replace(broken, "def get_int_opt(options, optname, default=None):", "def get_int_opt(options, optname, default, base):", 1)
	r.WriteTB(t, map[string]string{
		"pygments/util.py": broken,
		"tests/test_util.py": strings.Replace(strings.Replace(testsBase, "def test_bool_opt():", "@pytest.mark.skip(reason=\"flaky\")\ndef test_bool_opt():", 1),
			"\n\ndef test_bool_default():\n    assert get_bool_opt({}, \"x\", False) is False\n", "", 1),
	})
	got := strings.Join(semantics(t, r.Dir), "\n")
	t.Logf("findings:\n%s", got)
	for _, want := range []string{
		`pygments/util.py:1 semantics/removed-export: package pygments.util: get_list_opt: removed`,
		`pygments/util.py:\d+ semantics/incompatible-change: package pygments.util: get_int_opt: signature changed from def\(options, optname, default=...\) to def\(options, optname, default, base\): parameter default no longer has a default; required parameter base added`,
		`pygments/lexer.py:18 semantics/broken-dependent: .*cannot import name 'get_list_opt' from 'pygments.util' \(removed\)`,
		`pygments/lexer.py:\d+ semantics/broken-dependent: .*pygments.util.get_int_opt\(\) missing a required argument: 'base'`,
		`tests/test_util.py:\d+ semantics/removed-test: test test_bool_default was removed`,
		`tests/test_util.py:5 semantics/test-skipped: the change skips a test: @pytest.mark.skip\(reason="flaky"\)`,
	} {
		if !regexp.MustCompile(`(?m)^` + want).MatchString(got) {
			t.Errorf("missing %s in:\n%s", want, got)
		}
	}
}

// semantics runs the gate on the working tree of the repository at dir and returns its
// semantics findings as "file:line rule: message".
func semantics(t *testing.T, dir string) []string {
	t.Helper()
	rep, err := agentverify.Check(context.Background(), agentverify.Request{Dir: dir, Source: agentverify.WorkingTree})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, v := range rep.Violations {
		if strings.HasPrefix(v.Rule, "semantics/") {
			out = append(out, v.Location.File+":"+strconv.Itoa(v.Location.Line)+" "+v.Rule+": "+v.Message)
		}
	}
	return out
}
