package tools

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestToolDefinitionsGolden pins what the model is offered: the names and JSON arguments
// of the table are a protocol other tools and prompts depend on.
func TestToolDefinitionsGolden(t *testing.T) {
	var names []string
	for _, s := range Specs() {
		names = append(names, s.Name)
	}
	got, err := json.MarshalIndent(Definitions(names), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	golden := filepath.Join("testdata", "tools.golden.json")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("tool definitions changed; if intended, run go test -update\n got: %s", got)
	}
}
