package hallucination

import (
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/policy"
)

// Rule IDs.
const (
	RuleSyntaxError          = "hallucination/syntax-error"
	RuleUnknownImport        = "hallucination/unknown-import"
	RuleUndeclaredDependency = "hallucination/undeclared-dependency"
	RuleNewDependency        = "hallucination/new-dependency"
	RuleUnknownSymbol        = "hallucination/unknown-symbol"
	RuleUnknownMember        = "hallucination/unknown-member"
	RuleUndefined            = "hallucination/undefined"
	RuleWrongSignature       = "hallucination/wrong-signature"
	RuleAPITooNew            = "hallucination/api-too-new"
	RuleTypeError            = "hallucination/type-error"
	RuleMissingImport        = "hallucination/missing-import"
	RuleUnknownPackage       = "hallucination/unknown-package"
	RuleMissingDependency    = "hallucination/missing-dependency"
	RuleWrongArity           = "hallucination/wrong-arity"
	RuleUnknownKeyword       = "hallucination/unknown-keyword"
	RuleUnknownModule        = "hallucination/unknown-module"
	RuleYoungPackage         = "hallucination/young-package"
	RuleDeprecated           = "hallucination/deprecated"
)

var rules = []*check.Rule{
	{ID: RuleSyntaxError, Default: policy.Error, Short: "the file does not parse",
		Doc: "The language's parser rejects the file (the Go parser for Go files and go.mod, the frontend's parser for Python, Common Lisp and every other language agentverify parses). Every error the parser recovers from is reported. Nothing else about the file can be verified until it parses; fix the syntax at the reported position."},
	{ID: RuleUnknownImport, Default: policy.Error, Short: "an import path resolves to no package",
		Doc: "The import path names no standard-library package, no package of the module and no package of a module go.mod requires (Go), or no module of the standard library, of the project or of the installed packages (Python; imports guarded by `try/except ImportError` or a version check are left to the dependency checks). Agents invent plausible module paths; installing one with `go get` or `pip install` is how typo-squatted modules get in, so the fix is to use an existing package, never to add whatever module has that name."},
	{ID: RuleUndeclaredDependency, Default: policy.Error, Short: "an import belongs to a module go.mod does not require",
		Doc: "The imported package's module exists (in the local module cache, or a module proxy knows it), but go.mod does not require it, so the build would need an unreviewed dependency. Use a package the module already depends on, or add the requirement deliberately in a reviewed change."},
	{ID: RuleNewDependency, Default: policy.Warning, Short: "the change adds a dependency requirement",
		Doc: "A requirement is added to go.mod, or to a Python project's declarations (pyproject.toml, a requirements file, setup.cfg, setup.py). New dependencies are a supply-chain decision: check that the module or distribution is the intended one (not a look-alike), maintained, and needed. For Python the message says when no installed distribution has the name, the mark of a made-up (slopsquattable) package."},
	{ID: RuleMissingImport, Default: policy.Error, Short: "a package is used but not imported",
		Doc: "The code uses pkg.Name where pkg is no identifier in scope but the name of a package the file does not import: one of the standard library, of the module, or of a module go.mod requires directly (or one the file imports under another name). The suggestion is the import line, and when Name is not a member of that standard-library package, the closest real members."},
	{ID: RuleUnknownSymbol, Default: policy.Error, Short: "pkg.Name is not declared by that package",
		Doc: "The selector names something the imported package does not declare (or does not export). The suggestion lists the closest exported names the package really has."},
	{ID: RuleUnknownMember, Default: policy.Error, Short: "x.Name is no field or method of x's type",
		Doc: "The selector names no field or method of the operand's type, including promoted fields and methods of embedded types and the pointer method set. The suggestion lists the closest real fields and methods."},
	{ID: RuleUndefined, Default: policy.Error, Short: "an identifier is not declared in scope",
		Doc: "The identifier is declared nowhere in scope: not locally, not in the package, not among the imports or the predeclared identifiers. The suggestion lists the closest names in scope."},
	{ID: RuleWrongSignature, Default: policy.Error, Short: "a call does not match the function's signature",
		Doc: "A call passes too many or too few arguments, arguments of the wrong types, or uses the wrong number of results of an existing function or method. Check the real signature."},
	{ID: RuleAPITooNew, Default: policy.Error, Short: "a standard-library symbol or language feature is newer than the project's language version",
		Doc: "The code uses a standard-library symbol (or a language feature) introduced by a release later than the oldest the project supports: the module's `go` directive (Go: as go vet's stdversion analyzer does, not in modules whose `go` line is older than 1.21, which was no minimum version before Go 1.21; a language feature newer than the `go` line is reported at any version, since the compiler rejects it), the floor of `requires-python` (Python; modules from typeshed's stdlib/VERSIONS, functions and methods from CPython's changelog, code under a `sys.version_info` or `hasattr` test excepted). It does not run on the versions the project supports. Raise the version deliberately, guard the use, or use an older API."},
	{ID: RuleTypeError, Default: policy.Error, Short: "any other type-checker error",
		Doc: "The type checker rejects the code for a reason no more specific rule covers (a mismatched type, an unused variable or import, a missing return, …). Every type error of the change is reported; nothing is hidden."},
	{ID: RuleUnknownPackage, Default: policy.Error, Short: "a package nobody has is used",
		Doc: "The code uses a package that exists nowhere the project could get it from: a Common Lisp `pkg:sym` whose package no system defines, a Python import of a distribution that is neither installed nor declared. Agents invent plausible package names, and attackers register them (slopsquatting): never install a package because a finding names it; use a package the project already has."},
	{ID: RuleMissingDependency, Default: policy.Warning, Short: "a declared dependency is not installed",
		Doc: "The project declares a dependency (an `.asd` `:depends-on` system, a Python requirement) that is installed nowhere the language's tools look, so what the code uses from it could not be verified. Install the declared dependencies where the verification runs; the finding names the dependency."},
	{ID: RuleWrongArity, Default: policy.Error, Short: "a call passes too many or too few arguments",
		Doc: "A call passes fewer arguments than the callee requires or more than it accepts, counted against the real lambda list or signature (of the language's own functions and of the project's). The message gives the callee's parameters."},
	{ID: RuleUnknownKeyword, Default: policy.Error, Short: "a keyword argument the callee does not accept",
		Doc: "A call passes a keyword argument that the callee does not declare and does not accept through `&allow-other-keys` or `**kwargs` forwarding. The suggestion lists the closest real keywords."},
	{ID: RuleUnknownModule, Default: policy.Error, Short: "a module path no module proxy knows",
		Doc: "An import or a requirement names a module, or a version of one, that no configured module proxy has ever served (every proxy answers 404 or 410 for it; a private path or an unreachable proxy is never reported so). Agents invent plausible module paths, and a name an assistant invents is a name someone can register: never add a module because a finding names it. The suggestion lists the module paths the repository already uses that are closest to it."},
	{ID: RuleYoungPackage, Default: policy.Warning, Short: "a dependency was first published very recently",
		Doc: "A dependency the change adds exists, but its first published version is younger than the trusted policy's threshold (`hallucination.young_package_days`, 30 by default; for Go, the time the module proxy gives its lowest tagged version). Names that assistants invent get registered by attackers (slopsquatting); a brand-new module or package with a plausible name is the mark of one. Check that it is the dependency you meant before you accept it."},
	{ID: RuleDeprecated, Default: policy.Warning, Short: "a use of an API deprecated at the version the project targets",
		Doc: "The change adds a use of an API that its own documentation marks deprecated at the language version the project targets (a `// Deprecated:` paragraph in Go, `warnings.deprecated` or typeshed's deprecations in Python, SBCL's deprecated symbols in Common Lisp). Models trained on old code write old APIs; the suggestion names the replacement the deprecation note gives. The policy can make this rule an error."},
	ruleUnverifiedFile,
	ruleOutsideRepository,
	ruleBuildError,
}

// allRules are the dimension's rules, those of go vet's analyzers last.
var allRules = append(append([]*check.Rule{}, rules...), vetRules...)

// RuleOutsideRepository is reported for a go.mod replace or a go.work use/replace that
// points at a directory outside the repository.
const RuleOutsideRepository = "hallucination/outside-repository"

var ruleOutsideRepository = &check.Rule{
	ID: RuleOutsideRepository, Default: policy.Error,
	Short: "the build depends on a directory outside the repository",
	Doc: "A go.mod `replace` with a local path, or a go.work `use` or `replace`, points at a directory " +
		"outside the repository. The build verified here would then depend on files that are not part of " +
		"the change, that no reviewer sees and that CI does not have — a way to make a change type-check " +
		"locally against code nobody verified. Depend on a published module version, or move the code into " +
		"the repository.",
}

// RuleUnverifiedFile is reported for a file of a verified language that could not be
// verified; unverified never means passed.
const RuleUnverifiedFile = "hallucination/unverified-file"

var ruleUnverifiedFile = &check.Rule{
	ID: RuleUnverifiedFile, Default: policy.Error, Short: "a file of a verified language could not be verified",
	Doc: "A changed file in a language the gate verifies could not be verified, and unverified never means passed. " +
		"For Go: the file is over the size limit (limits.max_file_size), holds a NUL byte (binary content), or is a " +
		"symbolic link whose target the toolchain would compile without it being checked (as is any link inside " +
		"a Go module that leads out of the repository); or a build constraint " +
		"excludes it from every build configuration the installed toolchain supports (//go:build ignore, an " +
		"unsatisfiable expression, an unsupported port), or a configuration including it could not be loaded. Files " +
		"the host build excludes are otherwise type-checked under a GOOS, GOARCH and tags that include them. For " +
		"Common Lisp: the file is over the size limit or holds a NUL byte. The " +
		"finding is an error unless the trusted policy lowers this rule.",
}

// Dimension is the hallucination dimension: it runs the resolver of every frontend that
// has one (lang.Resolver), and reports the syntax errors of the other frontends' files.
var Dimension = &check.Dimension{
	Name:         policy.Hallucination,
	Doc:          "every reference of the change resolves against the real APIs",
	Rules:        allRules,
	Run:          run,
	PerDirectory: true,
}

func run(p *check.Pass) ([]check.Finding, error) {
	resolved := map[string]bool{}
	for _, fe := range p.Languages {
		if _, ok := fe.(lang.Resolver); ok {
			resolved[fe.Name()] = true
		}
	}
	problems, err := p.Resolved(policy.Hallucination, allRules)
	if err != nil {
		return nil, err
	}
	syntax, err := frontendSyntaxErrors(p, resolved)
	if err != nil {
		return nil, err
	}
	problems = append(problems, syntax...)
	lang.SortProblems(problems)
	out := make([]check.Finding, len(problems))
	for i, pr := range problems {
		out[i] = check.Problem(policy.Hallucination, pr)
	}
	return out, nil
}
