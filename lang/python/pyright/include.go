package pyright

import (
	"path"
	"regexp"
	"strings"
)

// Leaves reports whether the project's pyright configuration leaves the file at rel (a
// slash-separated path relative to the project root) out of the files it checks: rel is
// under none of `include`'s paths (when it names some), or under one of `exclude`'s.
// Paths may hold pyright's wildcards (** for any directories, * and ? within a name). Only
// what the project configures counts, not pyright's default excludes. The configuration
// must come from the trusted side of a change: a change could otherwise leave its own
// files out (design.md §4.3).
func (p Project) Leaves(rel string) bool {
	if p.Config == nil {
		return false
	}
	if inc := globs(p.Config["include"]); len(inc) > 0 && !matchAny(inc, rel) {
		return true
	}
	return matchAny(globs(p.Config["exclude"]), rel)
}

// globs turns a configured list of paths into patterns matching a path and what lies
// below it.
func globs(v any) []*regexp.Regexp {
	list, _ := v.([]any)
	var out []*regexp.Regexp
	for _, x := range list {
		s, ok := x.(string)
		if !ok {
			continue
		}
		s = strings.TrimSuffix(strings.TrimPrefix(path.Clean("/"+s), "/"), "/")
		if s == "" || s == "." {
			out = append(out, regexp.MustCompile(`^`))
			continue
		}
		out = append(out, regexp.MustCompile("^"+globRegexp(s)+"(/.*)?$"))
	}
	return out
}

// globRegexp translates pyright's wildcards into a regular expression.
func globRegexp(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], "**/"):
			b.WriteString(`(.*/)?`)
			i += 2
		case strings.HasPrefix(s[i:], "**"):
			b.WriteString(`.*`)
			i++
		case s[i] == '*':
			b.WriteString(`[^/]*`)
		case s[i] == '?':
			b.WriteString(`[^/]`)
		default:
			b.WriteString(regexp.QuoteMeta(s[i : i+1]))
		}
	}
	return b.String()
}

func matchAny(res []*regexp.Regexp, rel string) bool {
	for _, re := range res {
		if re.MatchString(rel) {
			return true
		}
	}
	return false
}
