package extract

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// scan makes one pass over the whole tree for what is not about declarations: comments,
// syntax errors and the lines that hold code.
func (x *extractor) scan(root *syntax.Node) {
	x.code = make([]bool, len(x.lf.Lines)+2)
	root.Walk(func(n *syntax.Node) bool {
		switch {
		case n.Kind == "comment":
			text := strings.TrimRight(n.Text(x.src), "\r")
			x.lf.Comments = append(x.lf.Comments, lang.Comment{Text: text, Pos: n.Pos, EndLine: n.EndPos.Line})
		case n.Missing:
			x.syntaxError(n.Pos, fmt.Sprintf("missing %s", describeKind(n.Kind)))
		case n.Kind == "ERROR":
			x.syntaxError(n.Pos, "unexpected "+snippet(n.Text(x.src)))
		default:
			if at, msg := syntax.Python3Error(n, x.src); at != nil {
				x.syntaxError(at.Pos, msg)
			}
		}
		if len(n.Children) == 0 && n.End > n.Start && n.Kind != "comment" {
			for l := n.Pos.Line; l <= n.EndPos.Line && l < len(x.code); l++ {
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
