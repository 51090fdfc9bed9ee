package python_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/internal/testkit/pyrighttest"
	"github.com/agentverify/agentverify/lang/python"
)

// debianNumpy is Debian's python3-numpy, seen by /usr/bin/python3.
const debianNumpy = "/usr/lib/python3/dist-packages/numpy/__init__.py"

// TestRealNumpy checks invented numpy functions against the real numpy (issue #24): its
// __init__.py builds its namespace at run time (star imports of compiled modules,
// globals() writes) and has a __getattr__ over tables; pyright reads its __init__.pyi.
// Made-up names are reported; what the stub has, and what the __getattr__ answers
// (np.fv, np.bool8, np.testing), is not.
func TestRealNumpy(t *testing.T) {
	if testing.Short() {
		t.Skip("runs pyright against numpy: not with -short")
	}
	if _, err := os.Stat(debianNumpy); err != nil {
		t.Skip("numpy is not installed for /usr/bin/python3: apt-get install python3-numpy")
	}
	pyrighttest.Require(t)
	venv := t.TempDir() // an environment whose interpreter is Debian's, which sees numpy
	if err := os.MkdirAll(filepath.Join(venv, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/usr/bin/python3", filepath.Join(venv, "bin", "python")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VIRTUAL_ENV", venv)
	root := tree(t, map[string]string{
		"pyproject.toml": "[project]\nname = \"app\"\nrequires-python = \">=3.9\"\ndependencies = [\"numpy\"]\n",
		"app.py":         "",
	})
	src := "import numpy as np\nfrom numpy import linalg, arange, arrayy\n\n" +
		"a = np.zeros(3), np.linalg.norm, np.testing, np.fv, np.bool8, linalg.inv\n" +
		"b = np.foobar(2)\n" +
		"c = np.linalg.normm\n"
	got := strings.Join(resolve(t, python.New(), proposal(root, map[string]string{"app.py": src})), "\n")
	want := strings.Join([]string{
		"app.py:2:35 unknown-symbol did you mean array?",
		"app.py:5:8 unknown-symbol ",
		"app.py:6:15 unknown-symbol did you mean norm?",
	}, "\n")
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
