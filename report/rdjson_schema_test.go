package report

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// rdfVersion is the reviewdog release whose published JSON schemas the rdjson output is
// validated against; .ci/run installs the same version, which puts its sources (schemas
// included) in the module cache.
const rdfVersion = "v0.21.0"

// rdfSchema compiles one of reviewdog's published schemas from the module cache, or skips.
func rdfSchema(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Skipf("go env GOMODCACHE: %v", err)
	}
	path := filepath.Join(strings.TrimSpace(string(out)), "github.com", "reviewdog", "reviewdog@"+rdfVersion, "proto", "rdf", "jsonschema", name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("reviewdog's schema is not in the module cache (go install github.com/reviewdog/reviewdog/cmd/reviewdog@%s; .ci/run does): %v", rdfVersion, err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(name, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRDJSONValidatesAgainstReviewdogSchema: every fixture's rdjson document validates
// against reviewdog's DiagnosticResult schema, and every rdjsonl line against Diagnostic.
func TestRDJSONValidatesAgainstReviewdogSchema(t *testing.T) {
	result, diag := rdfSchema(t, "DiagnosticResult.json"), rdfSchema(t, "Diagnostic.json")
	// The schema has teeth: a severity reviewdog does not know is refused.
	bad, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"message":"m","severity":"LOUD"}`))
	if diag.Validate(bad) == nil {
		t.Fatal("reviewdog's Diagnostic schema accepts a bad severity: the validation below would prove nothing")
	}
	for name, rep := range fixtures() {
		var doc, lines bytes.Buffer
		if err := WriteRDJSON(&doc, rep); err != nil {
			t.Fatal(err)
		}
		validateJSON(t, name+".rdjson", result, doc.Bytes())
		if err := WriteRDJSONL(&lines, rep); err != nil {
			t.Fatal(err)
		}
		for i, l := range bytes.Split(bytes.TrimSpace(lines.Bytes()), []byte("\n")) {
			if len(l) > 0 {
				validateJSON(t, fmt.Sprintf("%s.rdjsonl line %d", name, i+1), diag, l)
			}
		}
	}
}

func validateJSON(t *testing.T, what string, s *jsonschema.Schema, data []byte) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if err := s.Validate(v); err != nil {
		t.Errorf("%s does not validate against reviewdog's schema: %v", what, err)
	}
}
