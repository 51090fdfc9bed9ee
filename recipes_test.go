package agentverify_test

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/agentverify/agentverify/internal/testkit/testrepo"
)

// recipe returns the code block that follows "<!-- recipe: name -->" in
// docs/integrations.md, so the test runs what the documentation shows.
func recipe(t *testing.T, name string) string {
	t.Helper()
	doc, err := os.ReadFile("docs/integrations.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)<!-- recipe: " + regexp.QuoteMeta(name) + " -->\n```[a-z]*\n(.*?)```").FindSubmatch(doc)
	if m == nil {
		t.Fatalf("docs/integrations.md has no recipe %q", name)
	}
	return string(m[1])
}

// recipeRepo is a repository whose uncommitted change adds a function over the nesting
// limit, so each recipe has an error to carry.
func recipeRepo(t *testing.T) *testrepo.Repo {
	r := testrepo.New(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n",
		"m.go": "// Package m is a small module.\npackage m\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n"})
	r.Write(map[string]string{"deep.go": "package m\n\n// Deep nests.\nfunc Deep(a int) int {\n\tif a > 1 {\n\t\tif a > 2 {\n\t\t\tif a > 3 {\n\t\t\t\tif a > 4 {\n\t\t\t\t\tif a > 5 {\n\t\t\t\t\t\tif a > 6 {\n\t\t\t\t\t\t\treturn 1\n\t\t\t\t\t\t}\n\t\t\t\t\t}\n\t\t\t\t}\n\t\t\t}\n\t\t}\n\t}\n\treturn 0\n}\n"})
	return r
}

// TestRecipes runs the GitLab CI and reviewdog recipes of docs/integrations.md.
func TestRecipes(t *testing.T) {
	bin := binary(t)
	t.Run("gitlab", func(t *testing.T) {
		var job map[string]struct {
			Script    []string `yaml:"script"`
			Artifacts struct {
				Reports map[string]string `yaml:"reports"`
			} `yaml:"artifacts"`
		}
		if err := yaml.Unmarshal([]byte(recipe(t, "gitlab")), &job); err != nil {
			t.Fatalf("the GitLab recipe is not YAML: %v", err)
		}
		j := job["agentverify"]
		r := recipeRepo(t)
		ran := 0
		for _, line := range j.Script {
			if !strings.HasPrefix(line, "agentverify ") {
				continue // the install line: the test uses the binary it built
			}
			ran++
			cmd := exec.Command("bash", "-c", line)
			cmd.Dir = r.Dir
			cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"), "CI_MERGE_REQUEST_DIFF_BASE_SHA="+strings.TrimSpace(r.Git("rev-parse", "HEAD")))
			if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "complexity/nesting-depth") {
				t.Errorf("%s: %v, want exit 1 naming the finding:\n%s", line, err, out)
			}
		}
		if ran != 1 {
			t.Fatalf("%d agentverify lines in the GitLab recipe", ran)
		}
		checkCodeQuality(t, filepath.Join(r.Dir, j.Artifacts.Reports["codequality"]))
		checkJUnit(t, filepath.Join(r.Dir, j.Artifacts.Reports["junit"]))
	})
	t.Run("reviewdog", func(t *testing.T) {
		rd, err := exec.LookPath("reviewdog")
		if err != nil {
			t.Skip("reviewdog not installed (go install github.com/reviewdog/reviewdog/cmd/reviewdog@v0.21.0; .ci/run installs it)")
		}
		r := recipeRepo(t)
		cmd := exec.Command("bash", "-o", "pipefail", "-c", recipe(t, "reviewdog"))
		cmd.Dir = r.Dir
		cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+":"+filepath.Dir(rd)+":"+os.Getenv("PATH"), "BASE=HEAD")
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "complexity/nesting-depth") || !strings.Contains(string(out), "deep.go") {
			t.Errorf("reviewdog recipe: %v, want it to fail on the finding:\n%s", err, out)
		}
	})
}

// checkCodeQuality checks the fields GitLab's code-quality widget needs.
func checkCodeQuality(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var issues []struct {
		Description, Fingerprint, Severity string
		CheckName                          string `json:"check_name"`
		Location                           struct {
			Path  string
			Lines struct{ Begin int }
		}
	}
	if err := json.Unmarshal(data, &issues); err != nil || len(issues) == 0 {
		t.Fatalf("code quality report: %v, %d issues", err, len(issues))
	}
	for _, is := range issues {
		if is.Description == "" || is.CheckName == "" || is.Fingerprint == "" || is.Location.Path == "" || is.Location.Lines.Begin < 1 ||
			!regexp.MustCompile(`^(info|minor|major|critical|blocker)$`).MatchString(is.Severity) {
			t.Errorf("issue lacks a field GitLab needs: %+v", is)
		}
	}
}

// checkJUnit checks the report is JUnit XML with a failing test case.
func checkJUnit(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var suites struct {
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Name string `xml:"name,attr"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &suites); err != nil || suites.Failures == 0 || len(suites.Suites) != 5 {
		t.Errorf("JUnit report: %v, %d failures, %d suites\n%s", err, suites.Failures, len(suites.Suites), data)
	}
}
