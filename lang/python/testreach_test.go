package python

import (
	"testing"
	"testing/fstest"

	"github.com/agentverify/agentverify/change"
)

func TestStillRuns(t *testing.T) {
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	pyproject := fstest.MapFS{"pyproject.toml": file("[project]\nname = \"p\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests\", \"integration/*\"]\n")}
	for _, c := range []struct {
		name     string
		head     fstest.MapFS
		from, to string
		want     bool
	}{
		{"no configuration: pytest collects everywhere", fstest.MapFS{}, "tests/test_a.py", "other/test_a.py", true},
		{"within testpaths", pyproject, "tests/test_a.py", "tests/unit/test_a.py", true},
		{"into a glob of testpaths", pyproject, "tests/test_a.py", "integration/db/test_a.py", true},
		{"out of testpaths", pyproject, "tests/test_a.py", "scripts/test_a.py", false},
		{"never under testpaths", pyproject, "scripts/test_a.py", "tools/test_a.py", true},
		{"pytest.ini first, continued lines", fstest.MapFS{"pytest.ini": file("[pytest]\ntestpaths =\n    tests\n    more\n"), "pyproject.toml": pyproject["pyproject.toml"]}, "tests/test_a.py", "more/test_a.py", true},
		{"pytest.ini out of testpaths", fstest.MapFS{"pytest.ini": file("[pytest]\ntestpaths = tests\n")}, "tests/test_a.py", "integration/x/test_a.py", false},
		{"setup.cfg", fstest.MapFS{"setup.cfg": file("[metadata]\nname = p\n[tool:pytest]\ntestpaths = tests\n")}, "tests/test_a.py", "src/test_a.py", false},
		{"tox.ini without a pytest section", fstest.MapFS{"tox.ini": file("[tox]\nenvlist = py3\n")}, "tests/test_a.py", "src/test_a.py", true},
	} {
		set := &change.Set{BaseFS: fstest.MapFS{}, HeadFS: c.head}
		if got := (frontend{}).StillRuns(set, c.from, c.to); got != c.want {
			t.Errorf("%s: StillRuns(%s → %s) = %v, want %v", c.name, c.from, c.to, got, c.want)
		}
	}
}
