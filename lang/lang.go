// Package lang is the contract between dimensions and language frontends. A frontend turns
// one file into what the language-agnostic dimensions need: declarations with spans and
// metrics, declared identifiers, comments and syntax errors. Adding a language means adding
// a frontend; no dimension changes.
package lang

// Frontend parses the files of one language.
type Frontend interface {
	// Name is the language's name, e.g. "go".
	Name() string
	// Match reports whether the frontend handles the file at path.
	Match(path string) bool
	// Parse parses src. Syntax errors are returned in File.SyntaxErrors with whatever
	// could be recovered; the error result is for failures that are not about the source.
	Parse(path string, src []byte) (*File, error)
	// Naming is the identifier convention of the language ("go", "lisp-case", ...), used
	// by style when the policy says "detect".
	Naming() string
}

// Pos is a 1-based line and column (column in bytes, as go/token counts).
type Pos struct {
	Line   int
	Column int
}

// Span is a source range, End inclusive of its line.
type Span struct {
	Start Pos
	End   Pos
}

// DeclKind classifies a declaration.
type DeclKind string

// Declaration kinds.
const (
	Func   DeclKind = "func"
	Method DeclKind = "method"
	Type   DeclKind = "type"
	Var    DeclKind = "var"
	Const  DeclKind = "const"
	Field  DeclKind = "field"
)

// Decl is one declaration of a file.
type Decl struct {
	// Name is the declared name; methods are qualified by receiver type: "T.Name".
	Name     string
	Kind     DeclKind
	Exported bool
	// Documented is set when the declaration (or its group) has a doc comment.
	Documented bool
	// Test is set for test, fuzz, benchmark and example functions in test files.
	Test    bool
	Span    Span
	NamePos Pos
	// Signature is a normalised textual signature for comparisons across versions.
	Signature string
	// Metrics is set for functions and methods that have a body.
	Metrics *Metrics
}

// Metrics are the complexity numbers of one function (function literals count toward
// their enclosing function).
type Metrics struct {
	Lines      int // body lines: non-blank, non-comment, between the braces (P16)
	Nesting    int // deepest control-structure nesting (P17)
	Cyclomatic int // gocyclo's number (P18)
	Cognitive  int // gocognit's number
}

// IdentKind classifies a declared identifier for naming checks.
type IdentKind string

// Identifier kinds.
const (
	IdentFunc    IdentKind = "func"
	IdentMethod  IdentKind = "method"
	IdentType    IdentKind = "type"
	IdentVar     IdentKind = "var"
	IdentConst   IdentKind = "const"
	IdentField   IdentKind = "field"
	IdentParam   IdentKind = "param"
	IdentPackage IdentKind = "package"
	IdentLabel   IdentKind = "label"
)

// Ident is an identifier the file declares.
type Ident struct {
	Name string
	Kind IdentKind
	Pos  Pos
}

// Comment is one comment; Text includes the comment markers ("// ...").
type Comment struct {
	Text string
	Pos  Pos
	// EndLine is the last line of the comment.
	EndLine int
}

// SyntaxError is a parse error at a position.
type SyntaxError struct {
	Pos     Pos
	Message string
}

// File is what a frontend extracts from one file.
type File struct {
	Path         string
	Language     string
	Package      string
	Decls        []Decl
	Idents       []Ident
	Comments     []Comment
	SyntaxErrors []SyntaxError
	// Lines holds the file's lines without terminators, for line-based checks.
	Lines []string
}

// Registry is an ordered set of frontends; the first that matches a path wins.
type Registry []Frontend

// For returns the frontend for path, or nil when the language is unknown (such files get
// scope checks only).
func (r Registry) For(path string) Frontend {
	for _, f := range r {
		if f.Match(path) {
			return f
		}
	}
	return nil
}
