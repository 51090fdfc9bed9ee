package python

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentverify/agentverify/lang"
)

// scan makes one pass over the whole tree for what is not about declarations: comments,
// syntax errors and the lines that hold code.
func (x *extractor) scan(root *node) {
	x.code = make([]bool, len(x.lf.Lines)+2)
	root.walk(func(n *node) bool {
		switch {
		case n.kind == "comment":
			text := strings.TrimRight(n.text(x.src), "\r")
			x.lf.Comments = append(x.lf.Comments, lang.Comment{Text: text, Pos: n.pos, EndLine: n.endPos.Line})
		case n.missing:
			x.syntaxError(n.pos, fmt.Sprintf("missing %s", describeKind(n.kind)))
		case n.kind == "ERROR":
			x.syntaxError(n.pos, "unexpected "+snippet(n.text(x.src)))
		case py3Rules[n.kind] != nil:
			if at, msg := py3Rules[n.kind](n, x.src); at != nil {
				x.syntaxError(at.pos, msg)
			}
		}
		if len(n.children) == 0 && n.end > n.start && n.kind != "comment" {
			for l := n.pos.Line; l <= n.endPos.Line && l < len(x.code); l++ {
				x.code[l] = true
			}
		}
		return true
	})
}

func (x *extractor) syntaxError(p lang.Pos, msg string) {
	x.lf.SyntaxErrors = append(x.lf.SyntaxErrors, lang.SyntaxError{Pos: p, Message: "invalid syntax: " + msg})
}

// describeKind quotes a token ("missing \":\"") and leaves node kinds bare ("missing
// identifier").
func describeKind(kind string) string {
	if kind == "" {
		return "token"
	}
	r, _ := utf8.DecodeRuneInString(kind)
	if r == '_' || r >= 'a' && r <= 'z' {
		return kind
	}
	return fmt.Sprintf("%q", kind)
}

// snippet is the start of an unexpected piece of source, for a message: its first line,
// at most 30 runes.
func snippet(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i] + " ..."
	}
	if utf8.RuneCountInString(s) > 30 {
		s = string([]rune(s)[:30]) + " ..."
	}
	if s == "" {
		return "input"
	}
	return fmt.Sprintf("%q", s)
}
