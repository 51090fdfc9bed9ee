package agentverify_test

import (
	"os/exec"
	"strings"
	"testing"
)

// layers ranks the project's folders from the bottom up (docs/design.md §2). A package may
// import packages of a lower rank, and packages of its own rank only inside its own area
// (lang/golang may import lang; dimensions/style may not import dimensions/scope). The
// longest matching prefix gives a package its rank and area.
var layers = []struct {
	prefix string
	rank   int
}{
	{"policy", 0},
	{"change", 0},
	{"resultcache", 0}, // a store of bytes: imports nothing of the project
	{"crash", -1},      // panics as errors, for every goroutine of every layer: below all
	{"lazyregexp", -1}, // patterns compiled on first use, for every layer
	{"lang", 1},        // the language contract speaks of changes; frontends under it
	{"agent/core", 0}, {"agent/fanout", 0}, {"agent/llm", 0}, {"agent/toolout", 0},
	{"agent/guard", 1}, {"agent/window", 1},
	{"check", 2},
	{"report", 3},
	{"trust", 3}, // the policy in force, from the trusted side
	{"engine", 4},
	{"dimensions", 4},
	{"internal/testkit", 5}, // test helpers may run the engine
	{"", 5},                 // the root package: the one entry point
	{"agent/runner", 6},
	{"internal/integrations", 6},
	{"internal/server", 6}, // the shared warm server; the CLI gives it its handler
	{"analyzer", 6},        // go/analysis front door: go vet -vettool, nogo
	{"internal/cli", 7},
	{"internal/attacks", 7}, // the adversarial suite drives the CLI
	{"internal/e2e", 7},     // the frontends' end-to-end suites (tests only)
	{"cmd", 8},
	{"internal/bench", 8}, // a program that runs the built binary
}

const module = "github.com/agentverify/agentverify"

// layerOf returns the rank and area of a module-relative package path. An area is a
// top-level folder, except that each dimension and each integration is an area of its own:
// dimensions are independent of each other (P1), and so are the front doors.
func layerOf(rel string) (rank int, area string, ok bool) {
	matched := ""
	for _, l := range layers {
		if (l.prefix == "" || rel == l.prefix || strings.HasPrefix(rel, l.prefix+"/")) && (!ok || len(l.prefix) > len(matched)) {
			rank, matched, ok = l.rank, l.prefix, true
		}
	}
	parts := strings.Split(rel, "/")
	area = parts[0]
	if (area == "dimensions" || rel != "internal/integrations" && strings.HasPrefix(rel, "internal/integrations/")) && len(parts) > 1 {
		area = strings.Join(parts[:min(len(parts), strings.Count(matched, "/")+2)], "/")
	}
	return rank, area, ok
}

// frontDoors is the rank of the front doors (internal/cli, internal/server,
// internal/integrations/*): below it, nothing imports a package under internal/.
const frontDoors = 6

// allowed says why an import from one package to another breaks the layering, or "".
func allowed(from, to string) string {
	fromRank, fromArea, ok1 := layerOf(from)
	toRank, toArea, ok2 := layerOf(to)
	switch {
	case !ok1 || !ok2:
		return "a package with no layer; add it to layers"
	case strings.HasPrefix(to, "internal/testkit") && !strings.HasPrefix(from, "internal/testkit"):
		return "the test helpers are for tests only"
	case fromRank < frontDoors && !strings.HasPrefix(from, "internal/") && strings.HasPrefix(to, "internal/"):
		return "below the front doors, nothing imports internal/ (move the package to its layer)"
	case toRank > fromRank:
		return "upward import"
	case toRank == fromRank && fromArea != toArea:
		return "sideways import between two areas of one layer"
	}
	return ""
}

func TestLayerRules(t *testing.T) {
	for _, c := range []struct {
		from, to string
		bad      bool
	}{
		{"dimensions/style", "check", false},
		{"lang/golang", "lang", false},
		{"change/patch", "change/editset", false},
		{"", "dimensions/scope", false},
		{"internal/cli", "internal/integrations/mcpserver", false},
		{"change/gitchange", "", true},
		{"dimensions/style", "dimensions/scope", true},
		{"internal/integrations/agenthook", "internal/integrations/mcpserver", true},
		{"internal/integrations/lsp", "internal/integrations/mcpserver", true},
		{"engine", "internal/testkit/checktest", true},
		{"report", "engine", true},
		{"policy", "check", true},
		{"lang/golang/load", "internal/resultcache", true},
		{"engine", "internal/crash", true},
		{"", "internal/cli", true},
		{"lang/golang/load", "resultcache", false},
		{"engine", "crash", false},
		{"internal/server", "resultcache", false},
	} {
		if got := allowed(c.from, c.to) != ""; got != c.bad {
			t.Errorf("%q imports %q: broken = %v, want %v (%s)", c.from, c.to, got, c.bad, allowed(c.from, c.to))
		}
	}
}

// TestLayersReadTopDown fails on an import that runs from a lower layer back up, across
// areas of one layer, into the test helpers from non-test code, or into internal/ from
// below the front doors. Tests below the front doors may import the test helpers only.
func TestLayersReadTopDown(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	edges := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		for _, imp := range fields[1:] {
			if imp != module && !strings.HasPrefix(imp, module+"/") {
				continue
			}
			edges++
			if why := allowed(rel(fields[0]), rel(imp)); why != "" {
				t.Errorf("%s imports %s: %s", fields[0], imp, why)
			}
		}
	}
	if edges < 50 {
		t.Fatalf("only %d internal imports seen; is go list reading the module?", edges)
	}
	testsImportOnlyHelpers(t)
}

// testsImportOnlyHelpers fails on a test below the front doors that imports a package
// under internal/ other than the test helpers.
func testsImportOnlyHelpers(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .TestImports \" \"}} {{join .XTestImports \" \"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		from := rel(fields[0])
		if rank, _, _ := layerOf(from); rank >= frontDoors || strings.HasPrefix(from, "internal/") {
			continue
		}
		for _, imp := range fields[1:] {
			if to := rel(imp); imp != to && strings.HasPrefix(to, "internal/") && !strings.HasPrefix(to, "internal/testkit/") {
				t.Errorf("a test of %s imports %s: below the front doors, tests import only internal/testkit", fields[0], imp)
			}
		}
	}
}

func rel(path string) string {
	return strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
}
