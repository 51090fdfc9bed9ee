package resolve

import (
	"fmt"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/pyright"
	"github.com/agentverify/agentverify/lazyregexp"
)

// Kinds lists the kind the resolver reports outside the hallucination dimension
// (lang.KindLister): pyright's type disagreements, which name nothing that does not exist.
func (Resolver) Kinds() []lang.Kind { return []lang.Kind{lang.TypeMismatch} }

// argumentMismatch turns pyright's reportArgumentType into a type mismatch: the callee
// and its parameter exist, the annotations reject the value (a duck-typed proxy passed
// where a Protocol union is declared). Type-checker guesses about untyped code
// (inferredArgument) are not reported at all.
func argumentMismatch(p *lang.Problem, full string) bool {
	if inferredArgument(full) {
		return false
	}
	p.Kind = lang.TypeMismatch
	if m := inFunction.FindStringSubmatch(full); m != nil {
		p.Symbol = m[1]
	}
	return true
}

// inFunction names the callee in pyright's argument-type message.
var inFunction = lazyregexp.New(`^Argument of type .* in function "([^"]+)"`)

// argumentRanges are the places where pyright rejects an argument's type, by file: the
// "No overloads" error it adds over the same call is that disagreement again, not a
// made-up signature (a made-up keyword draws "No overloads" alone).
func argumentRanges(diags []pyright.Diagnostic) map[string][]pyright.Position {
	out := map[string][]pyright.Position{}
	for _, d := range diags {
		if d.Rule == "reportArgumentType" {
			out[d.File] = append(out[d.File], d.Range.Start)
		}
	}
	return out
}

// declaredNarrower reports whether pyright's "Cannot access attribute X for class C" is
// about an object the annotations declare narrower than it is: X exists, defined by a
// class of the project that is not C — a subclass of a project class C, or, when C is
// not the project's (typing.TextIO), any class of the project (click's get_pager_file
// is declared to yield TextIO and yields a wrapper with .color). Then the reference
// names something that exists and the finding is a type mismatch. A name no class of
// the project defines, a literal's type (its class is exactly known) and self's own class
// stay hallucinations.
func (j *job) declaredNarrower(class, attr string) bool {
	if strings.HasPrefix(class, "Literal[") || strings.HasSuffix(class, "*") || strings.HasPrefix(class, "type[") {
		return false
	}
	name := builtinClass(class)
	if strings.Contains(name, "|") || name == "None" || name == "" {
		return false
	}
	// Whether the project has a class named name, the files that spell it tell; which
	// classes define attr, those that spell attr (projectindex.go).
	family := j.projClasses
	if family == nil {
		family, _ = j.familyIndex(name, false, nil)
	}
	if len(family[name]) > 0 {
		return j.mixinMember(name, attr)
	}
	for _, infos := range j.attrIndex(attr) {
		for _, c := range infos {
			if c.attrs[attr] {
				return true
			}
		}
	}
	return false
}

// narrowerMismatch rewrites an unknown-member problem on a declared type narrower than
// the object into a type mismatch.
func narrowerMismatch(p *lang.Problem, class, attr string) {
	p.Kind = lang.TypeMismatch
	p.Message = fmt.Sprintf("%s is not an attribute of %s, the declared type; a class of the project defines it, so the object may be another type than declared", attr, class)
	p.Suggestion = "declare the type the code really uses (a Protocol or the class itself), or cast where the narrower type is meant"
}
