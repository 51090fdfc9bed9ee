package resolve

import (
	"fmt"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// forwards lists, for when the interpreter's own json source cannot be read (kwfwdStep
// follows it otherwise), the keywords of standard-library and well-known library functions that
// take **kwargs and pass them on to a callee pyright does not follow (json.dumps passes
// them to JSONEncoder; typeshed types them **kwds: Any); key: the function, value: every
// keyword it accepts. A call that passes cls= (a custom class taking more) or **mapping is
// left alone.
func forwards() map[string][]string {
	encoder := []string{"skipkeys", "ensure_ascii", "check_circular", "allow_nan", "cls", "indent", "separators", "default", "sort_keys"}
	decoder := []string{"cls", "object_hook", "parse_float", "parse_int", "parse_constant", "object_pairs_hook", "strict"}
	return map[string][]string{
		"json.dumps": append([]string{"obj"}, encoder...),
		"json.dump":  append([]string{"obj", "fp"}, encoder...),
		"json.loads": append([]string{"s"}, decoder...),
		"json.load":  append([]string{"fp"}, decoder...),
	}
}

// kwargsStep reports keyword arguments that a **kwargs-forwarding function's callee does
// not accept, with the closest real keywords.
func kwargsStep(j *job) ([]lang.Problem, error) {
	table := forwards()
	var out []lang.Problem
	for _, t := range j.targets {
		if t.idx == nil || t.broken {
			continue
		}
		t.tree.Walk(func(n *syntax.Node) bool {
			if n.Kind != "call" {
				return true
			}
			fn := t.idx.qualified(n.Child("function").Text(t.src))
			if kws, ok := table[fn]; ok && j.realSource("json") == nil {
				out = append(out, badKeywords(t, n, fn, kws)...)
			}
			return true
		})
	}
	return out, nil
}

func badKeywords(t *target, call *syntax.Node, fn string, kws []string) []lang.Problem {
	args := call.Child("arguments")
	if args == nil {
		return nil
	}
	var kwargs []*syntax.Node
	for _, a := range args.Children {
		switch a.Kind {
		case "dictionary_splat":
			return nil
		case "keyword_argument":
			if a.Child("name").Text(t.src) == "cls" {
				return nil
			}
			kwargs = append(kwargs, a)
		}
	}
	accepted := map[string]bool{}
	for _, k := range kws {
		accepted[k] = true
	}
	var out []lang.Problem
	for _, a := range kwargs {
		name := a.Child("name")
		k := name.Text(t.src)
		if accepted[k] {
			continue
		}
		out = append(out, lang.Problem{
			Kind:       lang.UnknownKeyword,
			Location:   lang.Location{File: t.f.Path, Line: name.Pos.Line, Column: name.Pos.Column},
			Message:    fmt.Sprintf("%s() accepts no keyword argument %s (it passes **kwargs on to a callee that does not take it either)", fn, k),
			Suggestion: didYouMean(closest(k, kws)),
			Symbol:     fn + "." + k,
		})
	}
	return out
}
