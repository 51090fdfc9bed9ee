package e2e

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/change/editset"
	"github.com/agentverify/agentverify/internal/testkit/pyrighttest"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
)

// TestPythonWarmEdits verifies proposed Python edits the way the MCP server and the hooks
// do, through one long-lived Checker (a warm pyright language server): a hallucinated
// member is denied with a suggestion before it is written, and the corrected edit passes.
func TestPythonWarmEdits(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: a long-lived pyright language server through the public Checker; runs in the full suite (-short: TestFrontends' Python case and hallucination's sampled Python cases)")
	}
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
