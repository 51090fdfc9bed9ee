package semantic

import (
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/policy"
)

var (
	removedExport = &check.Rule{
		ID: "semantics/removed-export", Default: policy.Error,
		Short: "an exported declaration present at the base is gone",
		Doc: "Agents fix failing builds by deleting what fails. An exported function, method, type, " +
			"variable, constant or field that existed at the base and is gone at the head breaks every " +
			"caller outside the change. The finding is at the package clause of the file it was in (the " +
			"declaration's base place is related); a removed field or method is at its type. A deleted " +
			"package is one finding. A rename is reported as the removal it is, with the new name as " +
			"suggestion. In Common Lisp the API is the defpackage's :export: a symbol removed from it is " +
			"reported at the head's defpackage, the symbol as it was written at the base related; so is " +
			"an exported function whose definition the change deletes while the symbol stays exported. " +
			"Turn off with semantics.preserve_exports: false.",
	}
	incompatibleChange = &check.Rule{
		ID: "semantics/incompatible-change", Default: policy.Error,
		Short: "an exported declaration changed in a way that breaks callers",
		Doc: "An exported declaration kept its name but changed incompatibly, as golang.org/x/exp/apidiff " +
			"judges it: parameters or results of a function or method, the type of a variable or field " +
			"(of an unexported type too, when an export exposes it), the type or value of a constant (an " +
			"iota shift included), a method added to an interface others implement, a type that no longer " +
			"implements an interface, a struct that is no longer comparable, a changed module path. " +
			"Callers written against the base no longer compile or change meaning. In Common Lisp, an " +
			"exported function, generic function or macro whose lambda list rejects a call the base " +
			"accepted: a required parameter added or removed, &optional made required, &rest or a &key " +
			"removed, &optional added before &key (P14, P15). Additions and other " +
			"compatible changes are never reported. Turn off with semantics.preserve_signatures: false.",
	}
	brokenDependent = &check.Rule{
		ID: "semantics/broken-dependent", Default: policy.Error,
		Short: "code outside the change is broken because of it",
		Doc: "A package of the module that imports a changed package is broken at the head; " +
			"every error that names what the change removed or changed is a finding at the call site, " +
			"naming the package by its import path and the change that broke it. Only packages outside " +
			"the change are checked: breakage inside it is the hallucination dimension's. In Common Lisp the " +
			"callers are read from every unchanged .lisp file: pkg:sym of a removed export or package, an " +
			"unqualified use through :use of a symbol no longer exported, and a call whose argument count " +
			"or keyword the new lambda list rejects (and the old one accepted).",
	}
	removedTest = &check.Rule{
		ID: "semantics/removed-test", Default: policy.Error,
		Short: "a test present at the base is gone",
		Doc: "Deleting the test that failed makes the suite pass and the code no better. A test " +
			"(Go: a Test, Fuzz, Benchmark or Example function; Common Lisp: a FiveAM test or def-test, a " +
			"rove or RT deftest, a parachute define-test) that existed at the base and is gone at the head " +
			"is reported at the package clause of its file (line 1 where there is none; its base place " +
			"related); " +
			"moving it to another file of the package, or moving its file to another package where it " +
			"still runs (not under testdata/ or vendor/, nor into another Go module or out of pytest's " +
			"testpaths), is not a removal. Turn off with " +
			"semantics.preserve_tests: false.",
	}
	testSkipped = &check.Rule{
		ID: "semantics/test-skipped", Default: policy.Warning,
		Short: "the change skips a test",
		Doc: "A skipped test is a deleted test that still shows up as passing. The change adds a call to " +
			"Skip, SkipNow or Skipf (Go), a (skip …) or (skip-on …) in a Lisp test, a parachute :skip " +
			"option, or a #+/#- feature expression that excludes a Lisp test (#+(or)); explain why in " +
			"the code, or fix what made the test fail.",
	}
)
