package engine

import (
	"context"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/policy"
)

// finding reports rule at line of a.go.
func findingAt(rule string, line int) *check.Dimension {
	d := fakeDim("style", 0, ok)
	d.Run = func(*check.Pass) ([]check.Finding, error) {
		return []check.Finding{{Rule: rule, Location: check.Location{File: "a.go", Line: line}, Message: "m", Introduced: true}}, nil
	}
	return d
}

// TestSuppressionsCannotBeSelfGranted: with a base, only a suppression the base has, on
// the same line content, suppresses; one the change adds suppresses nothing, unless the
// trusted policy allows new ones or there is no base at all.
func TestSuppressionsCannotBeSelfGranted(t *testing.T) {
	const ign = " //agentverify:ignore style/fake kept for the wire format\n"
	tests := []struct {
		name       string
		base, head string // base "" means created
		line       int    // where the finding is
		allowNew   bool
		noBase     bool
		trusted    *string // Trust.BaseContent's answer for a.go, when set
		suppressed bool
	}{
		{"base suppression keeps covering", "package a\n\nvar x = 1" + ign, "package a\n\nvar x = 1" + ign + "var y = 2\n", 3, false, false, nil, true},
		{"base suppression survives a line shift", "package a\n\nvar x = 1" + ign, "package a\n\n// X is x.\nvar x = 1" + ign, 4, false, false, nil, true},
		{"added suppression", "package a\n\nvar x = 1\n", "package a\n\nvar x = 1" + ign, 3, false, false, nil, false},
		{"added standalone suppression", "package a\n\nvar x = 1\n", "package a\n\n" + ign[1:] + "var x = 1\n", 4, false, false, nil, false},
		{"created file", "", "package a\n\nvar x = 1" + ign, 3, false, false, nil, false},
		{"base suppression over changed content", "package a\n\nvar x = 1" + ign, "package a\n\nvar x = y" + ign, 3, false, false, nil, false},
		{"standalone base suppression over a changed line", "package a\n\n" + ign[1:] + "var x = 1\n", "package a\n\n" + ign[1:] + "var x = y\n", 4, false, false, nil, false},
		{"allow_new", "package a\n\nvar x = 1\n", "package a\n\nvar x = 1" + ign, 3, true, false, nil, true},
		{"check mode", "", "package a\n\nvar x = 1" + ign, 3, false, true, nil, true},
		{"edit over a working tree the agent wrote", "package a\n\nvar x = 1" + ign, "package a\n\nvar x = 1" + ign + "var y = 2\n", 3, false, false, ptr("package a\n\nvar x = 1\n"), false},
		{"edit with the suppression at HEAD", "package a\n\nvar x = 1" + ign, "package a\n\nvar x = 1" + ign + "var y = 2\n", 3, false, false, ptr("package a\n\nvar x = 1" + ign), true},
		{"copied base suppression covers one place only", "package a\n\nvar x = 1" + ign, "package a\n\nvar x = 1" + ign + "var x = 1" + ign, 4, false, false, nil, false},
		{"marker in a string literal", "package a\n\nvar x = \"//agentverify:ignore style/fake reason\"\n", "package a\n\nvar x = \"//agentverify:ignore style/fake reason\"\n\nvar y = 1\n", 3, true, true, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var base []byte
			if tt.base != "" {
				base = []byte(tt.base)
			}
			f := change.NewFile("a.go", "a.go", base, []byte(tt.head))
			pol := policy.Default()
			pol.Suppressions.AllowNew = tt.allowNew
			pass := testPass(pol, f)
			pass.Changes.NoBase = tt.noBase
			if tt.trusted != nil {
				pass.Trust = &check.Trust{BaseContent: func(p string) ([]byte, bool) { return []byte(*tt.trusted), p == "a.go" }}
			}
			d := findingAt("style/fake", tt.line)
			vs, _ := Process(pass, Run(context.Background(), pass, []*check.Dimension{d}, Options{}), rulesOf([]*check.Dimension{d}))
			if got := len(vs) == 0; got != tt.suppressed {
				t.Errorf("suppressed = %v, want %v (%v)", got, tt.suppressed, vs)
			}
		})
	}
}

// TestSuppressionReportIsNotSuppressible: a suppression never silences the report of
// itself, even when new suppressions are allowed.
func TestSuppressionReportIsNotSuppressible(t *testing.T) {
	f := change.NewFile("a.go", "", nil, []byte("package a\n\nvar x = 1 //agentverify:ignore style/* because\n"))
	pol := policy.Default()
	pol.Suppressions.AllowNew = true
	pass := testPass(pol, f)
	d := findingAt(suppressionAdded, 3)
	d.Rules[0].ID = suppressionAdded
	vs, _ := Process(pass, Run(context.Background(), pass, []*check.Dimension{d}, Options{}), rulesOf([]*check.Dimension{d}))
	if len(vs) != 1 {
		t.Errorf("violations %v, want the suppression-added report", vs)
	}
}

func ptr(s string) *string { return &s }
