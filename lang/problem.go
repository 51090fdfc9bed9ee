package lang

import (
	"context"
	"sort"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/policy"
)

// Location is where a problem is. Paths are repository-relative with '/' separators.
// Line is ≥ 1; a problem about a whole file is at line 1, column 0.
type Location struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column,omitempty"`
	EndLine   int    `json:"end_line,omitempty"`
	EndColumn int    `json:"end_column,omitempty"`
}

// Related is another place a problem concerns, such as where a removed declaration was.
type Related struct {
	Location Location `json:"location"`
	// Base is set when Location is in the base of the change (the file as it was before),
	// not in the head.
	Base    bool   `json:"base,omitempty"`
	Message string `json:"message"`
}

// Fix is an exact edit that resolves a problem.
type Fix struct {
	Description string `json:"description"`
	Edits       []Edit `json:"edits"`
}

// Edit replaces the text of Range (Column to EndColumn on Line to EndLine, 1-based byte
// columns, the end exclusive; an empty range inserts) with NewText.
type Edit struct {
	Range   Location `json:"range"`
	NewText string   `json:"new_text"`
}

// Kind names what is wrong with a reference. A dimension turns a problem of kind K into
// a finding of its rule "<dimension>/K", and refuses kinds it does not declare, so every
// language reports the same mistake under the same rule.
type Kind string

// The kinds every frontend's resolver may report (design.md §5). A frontend may report
// further kinds of its own only if the hallucination dimension declares their rules.
const (
	SyntaxErrorKind      Kind = "syntax-error"          // the file does not parse
	UnknownImport        Kind = "unknown-import"        // an import names no module or package
	UnknownPackage       Kind = "unknown-package"       // a package (Lisp) or distribution (Python) nobody has
	UndeclaredDependency Kind = "undeclared-dependency" // used, but not declared by the project
	MissingDependency    Kind = "missing-dependency"    // declared, but not installed where the tools look
	UnknownSymbol        Kind = "unknown-symbol"        // pkg.Name / pkg:name that the package does not have
	UnknownMember        Kind = "unknown-member"        // x.Name that x's type does not have
	Undefined            Kind = "undefined"             // a name declared nowhere in scope
	WrongArity           Kind = "wrong-arity"           // a call with too many or too few arguments
	UnknownKeyword       Kind = "unknown-keyword"       // a keyword argument the callee does not accept
	WrongSignature       Kind = "wrong-signature"       // any other mismatch with the callee's signature
	APITooNew            Kind = "api-too-new"           // newer than the language version the project supports
	TypeError            Kind = "type-error"            // any other error of the language's checker
	NewDependency        Kind = "new-dependency"        // a requirement the change adds: for review
	UnknownModule        Kind = "unknown-module"        // a module path no module proxy knows
	YoungPackage         Kind = "young-package"         // a dependency first published too recently to trust
	Deprecated           Kind = "deprecated"            // an API its own documentation marks deprecated
	// TypeMismatch is a disagreement between types where every name exists: an argument
	// of a type the parameter's annotation rejects, an attribute that the declared type
	// lacks while the project defines it for the object really passed. Not a
	// hallucination: its rule is the semantics dimension's (Kind.Dimension).
	TypeMismatch Kind = "type-mismatch"
	// GateConfigChanged is a change to a checker's configuration that loosens how the
	// change itself is checked (ConfigGuard): its rule is the scope dimension's.
	GateConfigChanged Kind = "gate-config-changed"
)

// Dimension is the dimension whose rule reports problems of kind k: semantics for a
// disagreement between types (TypeMismatch), hallucination for every other kind, which
// says that something does not exist or does not parse (design.md §4). A dimension that
// runs resolvers takes the problems of its own kinds and leaves the others.
func (k Kind) Dimension() string {
	switch k {
	case TypeMismatch:
		return policy.Semantics
	case GateConfigChanged:
		return policy.Scope
	}
	return policy.Hallucination
}

// Problem is one finding of a frontend's own analysis, for a dimension to report.
type Problem struct {
	Kind     Kind
	Location Location
	Message  string
	// Suggestion is what to do instead ("did you mean string-upcase?"); Related lists other
	// places concerned; Fix is the one safe edit, when there is exactly one.
	Suggestion string
	Related    []Related
	Fix        *Fix
	// Symbol names what the problem is about, for fingerprints that survive line shifts.
	Symbol string
	// Key, when set, stands for Message when a finding is matched with the base's (design.md
	// §3): the message without the values a change may touch (the Python version
	// requires-python names, a count), so the same problem is the same on both sides.
	Key string
	// Introduced is set when the analysis itself established that the change introduced
	// the problem (see check.Finding).
	Introduced bool
}

// Memo holds values shared by every pass of one verification (check.Memo implements it).
type Memo interface {
	Get(key string, newValue func() any) any
}

// Request is what a frontend's analyses are asked about: one side of a change.
type Request struct {
	Context context.Context
	Changes *change.Set
	// Policy is the policy in force (from the trusted side).
	Policy *policy.Policy
	// Focus, when set, holds the only paths whose problems matter (a base-view pass; see
	// check.Pass.Focus).
	Focus map[string]bool
	// Memo is shared by the passes of one verification: a frontend keeps its per-run
	// state there (a package loader, an index of dependencies).
	Memo Memo
	// Trusted, when set, returns a file's content at the trusted base, for the modes whose
	// base side is something the change controls (in-memory edits are made over the
	// working tree; the trusted base is HEAD): what a frontend takes on trust — the
	// modules go.mod requires — comes from there. Nil means the base side is trusted.
	Trusted func(path string) ([]byte, bool)
	// Parse returns the file at path as the given side of the change has it, parsed by
	// its frontend (nil when no frontend handles it), from the verification's shared
	// cache.
	Parse func(f *change.File, side change.Side) (*File, error)
	// Fresh asks for everything computed afresh (--no-cache): a frontend neither starts
	// from nor keeps a record of earlier verifications (the TypeScript compiler's
	// incremental record). Warm state of a long-lived process is not such a record.
	Fresh bool
	// FirstError says the caller acts on the first error and wants it fast (an agent's
	// hook, the agent runner's gate: the edit is denied and the model fixes it) rather
	// than every finding (diff, check). A frontend may then answer from its own checks
	// when they already find an error the change introduced, without waiting for an
	// oracle (design.md §4.3: pyright); what it leaves out must be findings it cannot
	// know without the oracle, never a pass. Never set on a base-view pass (Focus).
	FirstError bool
}

// Resolver is the part of a frontend that checks that every reference a change makes
// resolves against what really exists: the language's symbols, the project's own
// definitions and its declared dependencies. The hallucination dimension runs the
// resolver of every frontend that has one. A resolver reports the syntax errors of the
// files it handles itself (SyntaxErrorKind problems); the dimension reports them from Parse
// for the files of frontends without one.
type Resolver interface {
	Resolve(req *Request) ([]Problem, error)
}

// KindLister is an optional part of a Resolver: the kinds of problem it may report
// whose rule is not hallucination's (Kind.Dimension). The hallucination dimension runs
// every resolver; another dimension runs only those that list one of its kinds, so that
// a resolver's work is never started for a dimension it has nothing for. A resolver that
// reports such a kind without listing it fails the verification.
type KindLister interface {
	Kinds() []Kind
}

// SortProblems orders problems by file, line, column, kind and message, so a resolver's
// output is the same on every run.
func SortProblems(ps []Problem) {
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i].Location, ps[j].Location
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		if ps[i].Kind != ps[j].Kind {
			return ps[i].Kind < ps[j].Kind
		}
		return ps[i].Message < ps[j].Message
	})
}
