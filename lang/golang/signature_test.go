package golang_test

import (
	"testing"

	"github.com/agentverify/agentverify/lang/golang"
)

// TestStructSignatureIgnoresFieldComments checks that a struct's signature is its fields
// alone: documented fields (whose comments go/printer would misplace) print as plainly
// as undocumented ones, and the field's Documented flag survives.
func TestStructSignatureIgnoresFieldComments(t *testing.T) {
	src := `package p

// P is documented.
type P struct {
	// Rules maps rule IDs ("style/*") to severities.
	Rules []string
	// Overrides apply in order.
	Overrides []int // trailing
	Plain     map[string]bool
}
`
	lf, err := golang.New().Parse("p.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := "struct {Rules []string; Overrides []int; Plain map[string]bool}"
	for _, d := range lf.Decls {
		switch d.Name {
		case "P":
			if d.Signature != want {
				t.Errorf("signature %q\nwant      %q", d.Signature, want)
			}
		case "P.Rules", "P.Overrides":
			if !d.Documented {
				t.Errorf("%s lost its documentation", d.Name)
			}
		}
	}
}
