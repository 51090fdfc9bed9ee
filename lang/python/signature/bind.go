package signature

import (
	"fmt"

	"github.com/agentverify/agentverify/lang/python/syntax"
)

// Args is what a call passes: how many positional arguments, which keywords, and
// whether a *splat or **splat makes the rest unknown.
type Args struct {
	Positional int
	Keywords   []string
	Unknown    bool // a *splat or **splat
}

// CallArgs reads the arguments of a call's argument list (nil: no arguments).
func CallArgs(list *syntax.Node, src []byte) Args {
	var a Args
	if list == nil {
		return a
	}
	for _, c := range list.NamedChildren() {
		switch c.Kind {
		case "keyword_argument":
			a.Keywords = append(a.Keywords, c.Child("name").Text(src))
		case "list_splat", "dictionary_splat":
			a.Unknown = true
		case "comment":
		default:
			a.Positional++
		}
	}
	return a
}

// Bind binds a call's arguments to a signature as Python does and returns the
// TypeError Python would raise, or "".
func Bind(s Signature, a Args) string {
	if a.Positional > len(s.positional) && !s.hasVarArgs {
		return fmt.Sprintf("takes %d positional arguments but %d were given", len(s.positional), a.Positional)
	}
	given := map[string]bool{}
	for i := 0; i < a.Positional && i < len(s.positional); i++ {
		given[s.positional[i].name] = true
	}
	if msg := bindKeywords(s, a.Keywords, given); msg != "" {
		return msg
	}
	for _, p := range s.params {
		if !p.optional && p.kind != varArgs && p.kind != varKw && !given[p.name] {
			return fmt.Sprintf("missing a required argument: '%s'", p.name)
		}
	}
	return ""
}

// bindKeywords binds keyword arguments, adding them to given.
func bindKeywords(s Signature, keywords []string, given map[string]bool) string {
	for _, k := range keywords {
		p := s.Keyword(k)
		switch {
		case p == nil && !s.hasVarKw:
			return fmt.Sprintf("got an unexpected keyword argument '%s'", k)
		case p != nil && given[k]:
			return fmt.Sprintf("got multiple values for argument '%s'", k)
		case p != nil:
			given[k] = true
		}
	}
	return ""
}
