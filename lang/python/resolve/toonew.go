package resolve

import (
	"fmt"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/pydeps"
	"github.com/agentverify/agentverify/lang/python/pyright"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// addedIn holds CPython facts pyright's bundled stubs no longer check: typeshed drops the
// version guards of Python versions it no longer supports, so under requires-python
// ">=3.8" pyright accepts math.lcm. The versions are from "What's New in Python 3.x".
// Modules are typeshed's stdlib/VERSIONS; this table is for functions, classes and
// constants of modules older than them.
func addedIn() map[string]string {
	return map[string]string{
		"math.isqrt": "3.8", "math.prod": "3.8", "math.dist": "3.8", "math.comb": "3.8", "math.perm": "3.8",
		"functools.cached_property": "3.8", "functools.singledispatchmethod": "3.8", "shlex.join": "3.8",
		"typing.Literal": "3.8", "typing.Final": "3.8", "typing.Protocol": "3.8", "typing.TypedDict": "3.8",
		"math.lcm": "3.9", "math.nextafter": "3.9", "math.ulp": "3.9", "functools.cache": "3.9",
		"random.randbytes": "3.9", "asyncio.to_thread": "3.9", "typing.Annotated": "3.9",
		"os.waitstatus_to_exitcode": "3.9", "ast.unparse": "3.9", "types.GenericAlias": "3.9",
		"itertools.pairwise": "3.10", "bisect.insort_right": "3.0", "statistics.correlation": "3.10",
		"statistics.covariance": "3.10", "statistics.linear_regression": "3.10", "typing.TypeAlias": "3.10",
		"typing.ParamSpec": "3.10", "typing.Concatenate": "3.10", "typing.TypeGuard": "3.10",
		"dataclasses.KW_ONLY": "3.10", "contextlib.aclosing": "3.10", "inspect.get_annotations": "3.10",
		"os.eventfd": "3.10", "aiter": "3.10", "anext": "3.10",
		"typing.Self": "3.11", "typing.Never": "3.11", "typing.LiteralString": "3.11", "typing.assert_never": "3.11",
		"typing.reveal_type": "3.11", "typing.Required": "3.11", "typing.NotRequired": "3.11",
		"typing.TypeVarTuple": "3.11", "typing.Unpack": "3.11", "typing.dataclass_transform": "3.11",
		"asyncio.TaskGroup": "3.11", "asyncio.timeout": "3.11", "asyncio.Runner": "3.11",
		"contextlib.chdir": "3.11", "enum.StrEnum": "3.11", "enum.verify": "3.11", "datetime.UTC": "3.11",
		"math.cbrt": "3.11", "math.exp2": "3.11", "operator.call": "3.11", "hashlib.file_digest": "3.11",
		"ExceptionGroup": "3.11", "BaseExceptionGroup": "3.11",
		"itertools.batched": "3.12", "math.sumprod": "3.12", "typing.override": "3.12",
		"typing.TypeAliasType": "3.12", "os.path.isjunction": "3.12", "os.path.splitroot": "3.12",
		"calendar.Month": "3.12", "calendar.Day": "3.12",
		"copy.replace": "3.13", "warnings.deprecated": "3.13", "typing.ReadOnly": "3.13",
		"typing.TypeIs": "3.13", "typing.NoDefault": "3.13", "math.fma": "3.13",
	}
}

// methodsAddedIn holds methods of builtin and standard-library types by name, for names
// distinctive enough that a call is the method whatever the receiver (a file that defines
// a function of the name is left alone).
func methodsAddedIn() map[string]string {
	return map[string]string{
		"removeprefix": "3.9", "removesuffix": "3.9", "is_relative_to": "3.9", "with_stem": "3.9",
		"bit_count": "3.10", "hardlink_to": "3.10", "is_junction": "3.12", "full_match": "3.13",
	}
}

// tooNewStep reports standard-library modules, functions and methods newer than the
// floor of requires-python, wherever the code does not guard them.
func tooNewStep(j *job) ([]lang.Problem, error) {
	proj, err := j.projectConfig()
	if err != nil || proj.Floor == "" {
		return nil, err
	}
	std, err := j.stdlibIndex()
	if err != nil {
		return nil, err
	}
	names, methods := addedIn(), methodsAddedIn()
	var out []lang.Problem
	for _, t := range j.targets {
		if t.idx == nil || t.broken {
			continue
		}
		floor := scriptFloor(t, proj.Floor)
		out = append(out, tooNewImports(t, std, names, floor)...)
		out = append(out, tooNewUses(t, names, methods, floor)...)
	}
	return out, nil
}

// scriptFloor is the floor of a script's own requires-python (PEP 723 inline metadata),
// which is what runs it, else the project's.
func scriptFloor(t *target, floor string) string {
	if s, err := pydeps.ParseScript(t.f.Path, t.src); err == nil && s != nil && s.RequiresPython != "" {
		if f := pyright.Floor(s.RequiresPython); f != "" {
			return f
		}
	}
	return floor
}

func tooNew(t *target, at lang.Pos, what, since, floor string) lang.Problem {
	return lang.Problem{
		Kind:     lang.APITooNew,
		Location: lang.Location{File: t.f.Path, Line: at.Line, Column: at.Column},
		Message: fmt.Sprintf("%s is new in Python %s, but the project supports Python %s (requires-python)",
			what, since, floor),
		Suggestion: fmt.Sprintf("use what Python %s has, guard it with a sys.version_info check, or raise requires-python to >=%s", floor, since),
		Symbol:     what,
		Key:        fmt.Sprintf("%s is new in Python %s", what, since), // the floor is the change's to move
	}
}

func tooNewImports(t *target, std *pyright.Stdlib, names map[string]string, floor string) []lang.Problem {
	var out []lang.Problem
	for _, s := range t.idx.imports {
		if t.idx.guarded(s.pos.Line) {
			continue
		}
		what, since := s.module, ""
		if s.name == "" {
			if v, ok := std.Since(s.module); ok {
				since = v
			}
		} else if v, ok := names[s.module+"."+s.name]; ok {
			what, since = s.module+"."+s.name, v
		}
		if since != "" && pyright.Less(floor, since) {
			out = append(out, tooNew(t, s.pos, what, since, floor))
		}
	}
	return out
}

// tooNewUses reports m.name attributes and distinctive method calls newer than floor.
func tooNewUses(t *target, names, methods map[string]string, floor string) []lang.Problem {
	var out []lang.Problem
	t.tree.Walk(func(n *syntax.Node) bool {
		if n.Kind != "attribute" || t.idx.guarded(n.Pos.Line) {
			return true
		}
		attr := n.Child("attribute")
		obj := n.Child("object")
		if attr == nil || obj == nil {
			return true
		}
		name := attr.Text(t.src)
		q := t.idx.qualified(n.Text(t.src))
		if v, ok := names[q]; ok && pyright.Less(floor, v) {
			out = append(out, tooNew(t, attr.Pos, q, v, floor))
			return false
		}
		if v, ok := methods[name]; ok && q == "" && !t.idx.defs[name] && pyright.Less(floor, v) {
			out = append(out, tooNew(t, attr.Pos, "the method "+name, v, floor))
		}
		return true
	})
	return out
}
