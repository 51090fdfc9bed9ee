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
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agentverify/agentverify/lazyregexp"
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
	invID     = lazyregexp.New(`^INV-\d{3}$`)
	kebab     = lazyregexp.New(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	bindingRe = lazyregexp.New(`^([a-z0-9_]+(?:/[a-z0-9_]+)*)\.((?:Test|Fuzz)[A-Za-z0-9_]*)$`)
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
	v := &validator{file: file, seen: map[string]bool{}}
	if c.Contract == "" {
		v.bad("contract", "missing name")
	}
	for i, e := range c.Invariants {
		v.entry("invariant", i, e)
	}
	for i, e := range c.Theorems {
		v.entry("theorem", i, e)
	}
	if err := errors.Join(v.errs...); err != nil {
		return nil, err
	}
	return &c, nil
}

// validator collects every shape error of a contract, so one run names them all.
type validator struct {
	file string
	seen map[string]bool
	errs []error
}

func (v *validator) bad(what string, format string, args ...any) {
	v.errs = append(v.errs, fmt.Errorf("%s: %s: %s", v.file, what, fmt.Sprintf(format, args...)))
}

// entry checks one invariant or theorem.
func (v *validator) entry(kind string, i int, e Entry) {
	what := v.identity(kind, i, e)
	if !kebab.MatchString(e.Name) {
		v.bad(what, "name %q is not kebab-case", e.Name)
	}
	key := e.ID + "/" + e.Name
	if e.ID != "" {
		key = e.ID
	}
	if v.seen[key] {
		v.bad(what, "defined twice")
	}
	v.seen[key] = true
	if strings.TrimSpace(e.Statement) == "" {
		v.bad(what, "no statement")
	}
	if len(e.Tests) == 0 {
		v.bad(what, "no test binds it")
	}
	for _, t := range e.Tests {
		if _, err := ParseBinding(t); err != nil {
			v.bad(what, "%v", err)
		}
	}
}

// identity names the entry in errors and checks its ID: invariants have INV-nnn IDs,
// theorems none.
func (v *validator) identity(kind string, i int, e Entry) string {
	if kind != "invariant" {
		what := fmt.Sprintf("%s %d (%s)", kind, i+1, e.Name)
		if e.ID != "" {
			v.bad(what, "theorems have no id")
		}
		return what
	}
	what := fmt.Sprintf("invariant %s", e.ID)
	if !invID.MatchString(e.ID) {
		v.bad(what, "id %q is not INV-nnn", e.ID)
	}
	return what
}
