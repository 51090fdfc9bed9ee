// Package contracts holds the agent-loop contract (agent-loop.yaml): the
// invariants of the loop guard and the theorems about the agent's decisions,
// each with its statement and the tests that bind it. The file is embedded
// so tools (and docs/guarantees.md) can list the guarantees.
package contracts

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// AgentLoopFile is the contract's file name, used in error messages.
const AgentLoopFile = "agent/contracts/agent-loop.yaml"

//go:embed agent-loop.yaml
var agentLoopYAML []byte

// Contract is a list of invariants and theorems.
type Contract struct {
	Contract   string  `yaml:"contract"`
	Version    int     `yaml:"version"`
	Invariants []Entry `yaml:"invariants"`
	Theorems   []Entry `yaml:"theorems"`
}

// Entry is one guarantee. Invariants have an ID (INV-nnn); theorems are
// known by their kebab-case name.
type Entry struct {
	ID        string   `yaml:"id,omitempty"`
	Name      string   `yaml:"name"`
	Statement string   `yaml:"statement"`
	Tests     []string `yaml:"tests"`
}

// Binding is one test reference "<dir>.<Func>" split into its parts.
type Binding struct {
	Dir  string // package directory relative to the module root
	Func string // TestXxx or FuzzXxx
}

var (
	invID     = regexp.MustCompile(`^INV-\d{3}$`)
	kebab     = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	bindingRe = regexp.MustCompile(`^([a-z0-9_]+(?:/[a-z0-9_]+)*)\.((?:Test|Fuzz)[A-Za-z0-9_]*)$`)
)

// ParseBinding splits "agent/core.TestX" into directory and function.
func ParseBinding(s string) (Binding, error) {
	m := bindingRe.FindStringSubmatch(s)
	if m == nil {
		return Binding{}, fmt.Errorf("binding %q: want <package dir>.<TestName or FuzzName>", s)
	}
	return Binding{Dir: m[1], Func: m[2]}, nil
}

// GoName is the form a guarantee's name takes in a test name: INV-001 →
// INV001, permission-safety → TheoremPermissionSafety (utf8 → UTF8).
func (e Entry) GoName() string {
	if e.ID != "" {
		return strings.ReplaceAll(e.ID, "-", "")
	}
	var b strings.Builder
	b.WriteString("Theorem")
	for _, w := range strings.Split(e.Name, "-") {
		switch w {
		case "utf8", "id", "url":
			b.WriteString(strings.ToUpper(w))
		default:
			if w != "" {
				b.WriteString(strings.ToUpper(w[:1]) + w[1:])
			}
		}
	}
	return b.String()
}

// AgentLoop parses the embedded agent-loop contract.
func AgentLoop() (*Contract, error) { return Parse(agentLoopYAML, AgentLoopFile) }

// Parse reads a contract strictly (unknown fields are errors) and checks
// its shape: unique well-formed IDs and names, a statement and at least one
// well-formed binding per entry. Errors name file and entry.
func Parse(data []byte, file string) (*Contract, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var c Contract
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	var errs []error
	bad := func(what string, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s: %s", file, what, fmt.Sprintf(format, args...)))
	}
	if c.Contract == "" {
		bad("contract", "missing name")
	}
	seen := map[string]bool{}
	check := func(kind string, i int, e Entry) {
		what := fmt.Sprintf("%s %d (%s)", kind, i+1, e.Name)
		if kind == "invariant" {
			what = fmt.Sprintf("invariant %s", e.ID)
			if !invID.MatchString(e.ID) {
				bad(what, "id %q is not INV-nnn", e.ID)
			}
		} else if e.ID != "" {
			bad(what, "theorems have no id")
		}
		if !kebab.MatchString(e.Name) {
			bad(what, "name %q is not kebab-case", e.Name)
		}
		key := e.ID + "/" + e.Name
		if e.ID != "" {
			key = e.ID
		}
		if seen[key] {
			bad(what, "defined twice")
		}
		seen[key] = true
		if strings.TrimSpace(e.Statement) == "" {
			bad(what, "no statement")
		}
		if len(e.Tests) == 0 {
			bad(what, "no test binds it")
		}
		for _, t := range e.Tests {
			if _, err := ParseBinding(t); err != nil {
				bad(what, "%v", err)
			}
		}
	}
	for i, e := range c.Invariants {
		check("invariant", i, e)
	}
	for i, e := range c.Theorems {
		check("theorem", i, e)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return &c, nil
}
