package hallucination

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/agentverify/agentverify/internal/testkit/checktest"
	"github.com/agentverify/agentverify/internal/testkit/pyrighttest"
	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/internal/testkit/tsctest"
)

// TestCases runs every testdata case through the shared harness with the real Go
// toolchain: each case's expectations are its "// want" comments. Each case loads its
// packages with go list: -short runs one in twelve.
func TestCases(t *testing.T) {
	checktest.Run(t, "testdata", Dimension, languages, checktest.ShortSample(12))
}

// TestPythonCases runs the Python cases with the real pyright (skipping, with install
// advice, where it is not installed). Each case starts pyright: -short runs one in
// twenty, the full suite all of them.
func TestPythonCases(t *testing.T) {
	pyrighttest.Require(t)
	checktest.Run(t, "testdata/python", Dimension, languages, checktest.ShortSample(20))
}

// TestPythonRealCommits replays, in small fixtures, the shapes of real merged commits of
// well-kept projects on which the Python resolver once raised false hallucination errors
// (docs/precision.md, "## Python"); each case is named after its project and commit.
func TestPythonRealCommits(t *testing.T) {
	shorttest.Slow(t, "replays real commits through pyright; TestPythonCases covers pyright in -short")
	pyrighttest.Require(t)
	checktest.Run(t, "testdata/python_real", Dimension, languages, checktest.ShortSample(5))
}

// TestTypeScriptCases runs the TypeScript cases with the real compiler (skipping, with
// the install line, when it is missing). Each case runs tsc: -short runs one in nine.
func TestTypeScriptCases(t *testing.T) {
	tsctest.Require(t)
	t.Setenv("NPM_CONFIG_REGISTRY", npmRegistry(t))
	t.Setenv("HOME", t.TempDir()) // no user .npmrc
	checktest.Run(t, "testdata/typescript", Dimension, languages, checktest.ShortSample(9))
}

// npmRegistry serves a tiny npm registry on 127.0.0.1: the packages the cases know,
// with the day each was first published; every other name is unknown (404).
func npmRegistry(t *testing.T) string {
	t.Helper()
	created := map[string]time.Time{
		"lodash": time.Date(2012, 4, 23, 0, 0, 0, 0, time.UTC), "axios": time.Date(2014, 8, 29, 0, 0, 0, 0, time.UTC),
		"zod": time.Date(2020, 3, 7, 0, 0, 0, 0, time.UTC), "left-pad": time.Date(2014, 3, 14, 0, 0, 0, 0, time.UTC),
		"fresh-helper-utils": time.Now().Add(-3 * 24 * time.Hour), "@acme/ui": time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC),
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, err := url.PathUnescape(strings.TrimPrefix(r.URL.EscapedPath(), "/"))
		c, ok := created[name]
		if err != nil || !ok {
			http.Error(w, `{"error":"Not found"}`, http.StatusNotFound)
			return
		}
		fmt.Fprintf(w, `{"name":%q,"time":{"created":%q}}`, name, c.Format(time.RFC3339))
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// TestCgoCases runs the cases that need cgo on the host (a C compiler, CGO_ENABLED unset
// or 1), skipping where it is off.
func TestCgoCases(t *testing.T) {
	out, err := exec.Command("go", "env", "CGO_ENABLED").Output()
	if err != nil || strings.TrimSpace(string(out)) != "1" {
		t.Skip("cgo is off here (go env CGO_ENABLED): install a C compiler (apt-get install gcc) to run the cgo cases")
	}
	checktest.Run(t, "testdata/cgo", Dimension, languages)
}
