package engine

import (
	"bytes"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lazyregexp"
	"github.com/agentverify/agentverify/policy"
)

// suppressMarker matches an inline suppression at the start of a comment, in any comment
// syntax: "//agentverify:ignore RULE reason", "/* agentverify:ignore ... */",
// "# agentverify:ignore ...", ";; agentverify:ignore ...".
var suppressMarker = lazyregexp.New(`^(?://|/\*|#|;+)\s*agentverify:ignore\s+(\S+)(?:[ \t]+(\S.*))?`)

// suppressionAdded is style's report of a suppression comment; no suppression may
// silence the report of itself.
const suppressionAdded = "style/suppression-added"

// Suppression is one inline suppression comment.
type Suppression struct {
	Rule   string // rule ID or glob over rule IDs
	Reason string
	Line   int // the line the comment is on
	Target int // the line it suppresses: its own, or the next when it stands alone
	// key identifies the suppression across versions of the file: its comment and the
	// content of the line it covers.
	key string
}

// Suppressions returns the inline suppressions among the comments of a parsed file. Only
// real comments count: the marker inside a string literal is not a suppression. Comments
// without a reason are returned with an empty Reason; they suppress nothing.
func Suppressions(lf *lang.File) []Suppression {
	var out []Suppression
	for _, c := range lf.Comments {
		first, _, _ := strings.Cut(c.Text, "\n")
		m := suppressMarker.FindStringSubmatch(first)
		if m == nil {
			continue
		}
		s := Suppression{Rule: m[1], Line: c.Pos.Line, Target: c.Pos.Line}
		s.Reason = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(m[2]), "*/"))
		if alone(lf, c) {
			s.Target = c.EndLine + 1 // a comment alone on its line covers the next line
		}
		s.key = first + "\x00" + strings.TrimSpace(line(lf, s.Target))
		out = append(out, s)
	}
	return out
}

// alone reports whether only blanks precede comment c on its line.
func alone(lf *lang.File, c lang.Comment) bool {
	l := line(lf, c.Pos.Line)
	return c.Pos.Column-1 <= len(l) && strings.TrimSpace(l[:c.Pos.Column-1]) == ""
}

func line(lf *lang.File, n int) string {
	if n < 1 || n > len(lf.Lines) {
		return ""
	}
	return lf.Lines[n-1]
}

// suppress drops findings covered by an inline suppression with a reason. Scope findings,
// internal errors and the report of a suppression cannot be suppressed: an agent must not
// be able to silence its own gate. When the change has a base, a suppression the change
// adds suppresses nothing unless the trusted policy says suppressions.allow_new: only a
// suppression present at the base, on the same content, keeps covering it.
func suppress(pass *check.Pass, items []item) []item {
	byFile := suppressionsByFile(pass)
	if len(byFile) == 0 {
		return items
	}
	kept := items[:0]
	for _, it := range items {
		if it.internal || it.dim == policy.Scope || it.f.Rule == suppressionAdded || !suppressed(byFile[it.f.Location.File], it.f) {
			kept = append(kept, it)
		}
	}
	return kept
}

// suppressionsByFile returns the suppressions in force in each changed file.
func suppressionsByFile(pass *check.Pass) map[string][]Suppression {
	if pass.Files == nil {
		return nil
	}
	newOnly := !pass.Changes.NoBase && !pass.Policy.Suppressions.AllowNew
	byFile := map[string][]Suppression{}
	for _, f := range pass.Changes.Files {
		// A fast reject only; what counts is decided on the parsed comments.
		if !f.Analyzable() || !bytes.Contains(f.Head, []byte("agentverify:ignore")) {
			continue
		}
		lf, err := pass.Files.Parse(f, change.Head)
		if err != nil || lf == nil {
			continue
		}
		ss := Suppressions(lf)
		if newOnly && len(ss) > 0 {
			ss = fromBase(ss, baseSuppressions(pass, f))
		}
		if len(ss) > 0 {
			byFile[f.Path] = ss
		}
	}
	return byFile
}

// fromBase keeps the suppressions of ss that the base has too, with the same comment
// over the same line content, each base suppression covering at most one: copying a base
// suppression elsewhere does not copy its cover.
func fromBase(ss []Suppression, base map[string]int) []Suppression {
	kept := ss[:0]
	for _, s := range ss {
		if base[s.key] > 0 {
			base[s.key]--
			kept = append(kept, s)
		}
	}
	return kept
}

// baseSuppressions returns the keys of the suppressions of f at the trusted base: the
// change's base side, or, when that side is not trusted (in-memory edits are made over
// the working tree), the content Trust.BaseContent gives.
func baseSuppressions(pass *check.Pass, f *change.File) map[string]int {
	lf := trustedBase(pass, f)
	if lf == nil {
		return nil
	}
	keys := map[string]int{}
	for _, s := range Suppressions(lf) {
		keys[s.key]++
	}
	return keys
}

func trustedBase(pass *check.Pass, f *change.File) *lang.File {
	if pass.Trust == nil || pass.Trust.BaseContent == nil {
		lf, err := pass.Files.Parse(f, change.Base)
		if err != nil {
			return nil
		}
		return lf
	}
	p := f.Path
	if f.OldPath != "" {
		p = f.OldPath
	}
	src, ok := pass.Trust.BaseContent(p)
	fe := pass.Languages.For(p)
	if !ok || fe == nil || change.IsBinary(src) {
		return nil
	}
	lf, err := fe.Parse(p, src)
	if err != nil {
		return nil
	}
	return lf
}

func suppressed(ss []Suppression, f check.Finding) bool {
	for _, s := range ss {
		if s.Reason == "" || s.Target != f.Location.Line {
			continue
		}
		if ok, _ := doublestar.Match(s.Rule, f.Rule); ok || s.Rule == f.Rule {
			return true
		}
	}
	return false
}
