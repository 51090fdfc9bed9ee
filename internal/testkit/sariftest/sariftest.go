// Package sariftest checks SARIF logs in tests: against the OASIS SARIF 2.1.0 schema kept in
// testdata, and against what GitHub code scanning requires beyond the schema.
package sariftest

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schema is the OASIS SARIF 2.1.0 schema (errata 01), kept in testdata with its source.
//
//go:embed testdata/sarif-schema-2.1.0.json
var schema []byte

// ValidateSchema validates data against the OASIS schema.
func ValidateSchema(t testing.TB, data []byte) {
	t.Helper()
	f := bytes.NewReader(schema)
	schemaDoc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif-schema-2.1.0.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(doc); err != nil {
		t.Fatalf("SARIF does not validate against the 2.1.0 schema: %v", err)
	}
}

// Log is the part of a SARIF log the GitHub checks read.
type Log struct {
	Version string `json:"version"`
	Runs    []struct {
		ColumnKind string `json:"columnKind"`
		Tool       struct {
			Driver struct {
				Name    string `json:"name"`
				Version string `json:"version"`
				Rules   []struct {
					ID               string `json:"id"`
					ShortDescription *struct{ Text string }
					FullDescription  *struct{ Text string }
					Help             *struct{ Text string }
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results *[]Result `json:"results"`
	} `json:"runs"`
}

// Result is one SARIF result.
type Result struct {
	RuleID    string `json:"ruleId"`
	RuleIndex *int   `json:"ruleIndex"`
	Level     string `json:"level"`
	Message   struct{ Text string }
	Locations []struct {
		PhysicalLocation struct {
			ArtifactLocation struct {
				URI       string `json:"uri"`
				URIBaseID string `json:"uriBaseId"`
			} `json:"artifactLocation"`
			Region struct {
				StartLine int `json:"startLine"`
			} `json:"region"`
		} `json:"physicalLocation"`
	} `json:"locations"`
}

// CheckGitHub checks what GitHub code scanning needs: one run, a named and versioned
// driver with at least minRules rules each with descriptions and help, a "results" array
// even when empty, each result's ruleIndex pointing at its rule, levels equal to levels (in
// order; nil skips that check), one location with a repository-relative uri, uriBaseId
// %SRCROOT% and startLine ≥ 1. It returns the results.
func CheckGitHub(t testing.TB, data []byte, minRules int, levels []string) []Result {
	t.Helper()
	var log Log
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("version %q, %d runs", log.Version, len(log.Runs))
	}
	run := log.Runs[0]
	if run.ColumnKind == "" || run.Tool.Driver.Name != "agentverify" || run.Tool.Driver.Version == "" {
		t.Errorf("driver %+v columnKind %q", run.Tool.Driver, run.ColumnKind)
	}
	ids := checkRules(t, &log, minRules)
	if run.Results == nil {
		t.Fatal(`no "results" array`)
	}
	results := *run.Results
	if levels != nil && len(results) != len(levels) {
		t.Fatalf("%d results, want %d", len(results), len(levels))
	}
	for i, res := range results {
		checkResult(t, i, res, ids, levels)
	}
	return results
}

// checkResult checks that result i points at its rule and has the expected level and a
// location GitHub accepts.
func checkResult(t testing.TB, i int, res Result, ids []string, levels []string) {
	t.Helper()
	if res.RuleIndex == nil || *res.RuleIndex < 0 || *res.RuleIndex >= len(ids) || ids[*res.RuleIndex] != res.RuleID {
		t.Errorf("result %d: ruleIndex %v does not point at %s", i, res.RuleIndex, res.RuleID)
	}
	if levels != nil && res.Level != levels[i] {
		t.Errorf("result %d: level %q, want %q", i, res.Level, levels[i])
	}
	checkLocation(t, i, res)
}

// checkRules checks the driver's rules have descriptions and help, and returns their IDs.
func checkRules(t testing.TB, log *Log, minRules int) []string {
	t.Helper()
	rules := log.Runs[0].Tool.Driver.Rules
	if len(rules) < minRules {
		t.Errorf("%d rules in SARIF, want at least %d", len(rules), minRules)
	}
	ids := make([]string, len(rules))
	for i, r := range rules {
		ids[i] = r.ID
		if r.ShortDescription == nil || r.ShortDescription.Text == "" || r.FullDescription == nil || r.Help == nil || r.Help.Text == "" {
			t.Errorf("rule %s lacks descriptions or help", r.ID)
		}
	}
	return ids
}

// checkLocation checks a result has one repository-relative location with a start line.
func checkLocation(t testing.TB, i int, res Result) {
	t.Helper()
	if len(res.Locations) != 1 {
		t.Fatalf("result %d: %d locations", i, len(res.Locations))
	}
	loc := res.Locations[0].PhysicalLocation
	uri := loc.ArtifactLocation.URI
	if loc.ArtifactLocation.URIBaseID != "%SRCROOT%" || strings.HasPrefix(uri, "/") || strings.Contains(uri, `\`) ||
		strings.HasPrefix(uri, "..") || loc.Region.StartLine < 1 {
		t.Errorf("result %d: location %+v", i, loc)
	}
}
