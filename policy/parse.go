package policy

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"go.yaml.in/yaml/v3"

	"github.com/agentverify/agentverify/lazyregexp"
)

// maxFile bounds a policy file; a policy is a page of YAML.
const maxFile = 1 << 20

// Find returns the policy file at the repository root: .agentverify.yaml, else
// .agentverify.yml.
func Find(root string) (path string, found bool, err error) {
	for _, name := range []string{DefaultFile, ".agentverify.yml"} {
		p := filepath.Join(root, name)
		fi, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return "", false, err
		}
		if fi.IsDir() {
			return "", false, fmt.Errorf("%s: is a directory, not a policy file", p)
		}
		return p, true, nil
	}
	return "", false, nil
}

// Load reads and parses the policy file at path.
func Load(path string) (*Policy, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("policy %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(data) > maxFile {
		return nil, fmt.Errorf("%s: policy file larger than 1 MiB", path)
	}
	return Parse(path, data)
}

// Parse decodes a policy strictly. name is the file name used in errors, which have the
// form "name:line: message".
func Parse(name string, data []byte) (*Policy, error) {
	if len(data) > maxFile {
		return nil, fmt.Errorf("%s:1: policy file larger than 1 MiB", name)
	}
	d := &decoder{file: name}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, d.yamlError(err)
	}
	if root.Kind == 0 || len(root.Content) == 0 || root.Content[0].Kind == yaml.ScalarNode && root.Content[0].Tag == "!!null" {
		return nil, fmt.Errorf("%s:1: empty policy (a policy starts with \"version: 1\")", name)
	}
	doc := root.Content[0]
	p := &Policy{Source: name, Name: strings.TrimSuffix(filepath.Base(name), filepath.Ext(name)), Limits: DefaultLimits()}
	if err := d.policy(doc, p); err != nil {
		return nil, err
	}
	return p, nil
}

type decoder struct{ file string }

var yamlLine = lazyregexp.New(`^yaml: (?:line (\d+): )?(.*)$`)

// yamlError turns a YAML syntax error into a one-line "file:line: message".
func (d *decoder) yamlError(err error) error {
	msg := strings.Join(strings.Fields(err.Error()), " ")
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line := m[1]
		if line == "" {
			line = "1"
		}
		return fmt.Errorf("%s:%s: not valid YAML: %s", d.file, line, m[2])
	}
	return fmt.Errorf("%s:1: not valid YAML: %s", d.file, msg)
}

func (d *decoder) errorf(n *yaml.Node, format string, args ...any) error {
	line, col := 1, 1
	if n != nil && n.Line > 0 {
		line, col = n.Line, max(n.Column, 1)
	}
	return fmt.Errorf("%s:%d:%d: %s", d.file, line, col, fmt.Sprintf(format, args...))
}

// fields walks a mapping node, rejecting duplicate and unknown keys; known maps each key
// to its handler. where names the mapping in errors ("scope", "overrides[1]").
func (d *decoder) fields(n *yaml.Node, where string, known map[string]func(v *yaml.Node) error) error {
	if n.Kind != yaml.MappingNode {
		return d.errorf(n, "%s: want a mapping of keys, got %s", where, describe(n))
	}
	seen := map[string]int{}
	var errs []error
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return d.errorf(k, "%s: keys must be plain names", where)
		}
		if line, dup := seen[k.Value]; dup {
			return d.errorf(k, "%s: key %q given twice (first at line %d)", where, k.Value, line)
		}
		seen[k.Value] = k.Line
		h, ok := known[k.Value]
		if !ok {
			names := make([]string, 0, len(known))
			for name := range known {
				names = append(names, name)
			}
			slices.Sort(names)
			errs = append(errs, d.errorf(k, "%s: unknown key %q (known keys: %s)", where, k.Value, strings.Join(names, ", ")))
			continue
		}
		if err := h(v); err != nil {
			errs = append(errs, err) // every bad key is reported, not only the first
		}
	}
	return errors.Join(errs...)
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	switch n.Tag {
	case "!!null":
		return "null"
	case "!!int":
		return "the number " + n.Value
	case "!!bool":
		return "the boolean " + n.Value
	}
	return strconv.Quote(n.Value)
}

func (d *decoder) int(key string, dst *int) func(*yaml.Node) error {
	return func(v *yaml.Node) error {
		if v.Kind != yaml.ScalarNode || v.Tag != "!!int" {
			return d.errorf(v, "%s: want a whole number, got %s", key, describe(v))
		}
		n, err := strconv.Atoi(v.Value)
		if err != nil || n < 0 {
			return d.errorf(v, "%s: want a whole number ≥ 0, got %s", key, v.Value)
		}
		*dst = n
		return nil
	}
}

// intRange decodes a whole number from lo to hi.
func (d *decoder) intRange(key string, dst *int, lo, hi int) func(*yaml.Node) error {
	return func(v *yaml.Node) error {
		var n int
		if err := d.int(key, &n)(v); err != nil {
			return err
		}
		if n < lo || n > hi {
			return d.errorf(v, "%s: want a whole number from %d to %d, got %d", key, lo, hi, n)
		}
		*dst = n
		return nil
	}
}

func (d *decoder) intPtr(key string, dst **int) func(*yaml.Node) error {
	return func(v *yaml.Node) error {
		var n int
		if err := d.int(key, &n)(v); err != nil {
			return err
		}
		*dst = &n
		return nil
	}
}

func (d *decoder) bool(key string, dst *bool) func(*yaml.Node) error {
	return func(v *yaml.Node) error {
		if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
			return d.errorf(v, "%s: want true or false, got %s", key, describe(v))
		}
		*dst = v.Value == "true"
		return nil
	}
}

func (d *decoder) boolPtr(key string, dst **bool) func(*yaml.Node) error {
	return func(v *yaml.Node) error {
		var b bool
		if err := d.bool(key, &b)(v); err != nil {
			return err
		}
		*dst = &b
		return nil
	}
}

// enum decodes a string that must be one of choices.
func (d *decoder) enum(key string, dst *string, choices ...string) func(*yaml.Node) error {
	return func(v *yaml.Node) error {
		if v.Kind != yaml.ScalarNode || v.Tag != "!!str" || !slices.Contains(choices, v.Value) {
			return d.errorf(v, "%s: want one of %s, got %s", key, strings.Join(choices, ", "), describe(v))
		}
		*dst = v.Value
		return nil
	}
}

func (d *decoder) enumPtr(key string, dst **string, choices ...string) func(*yaml.Node) error {
	return func(v *yaml.Node) error {
		var s string
		if err := d.enum(key, &s, choices...)(v); err != nil {
			return err
		}
		*dst = &s
		return nil
	}
}

// globs decodes a list of doublestar globs over repository-relative paths.
func (d *decoder) globs(key string, dst *[]string) func(*yaml.Node) error {
	return func(v *yaml.Node) error {
		if v.Kind != yaml.SequenceNode {
			return d.errorf(v, "%s: want a list of path globs, got %s", key, describe(v))
		}
		out := []string{}
		for _, e := range v.Content {
			if e.Kind != yaml.ScalarNode || e.Tag != "!!str" {
				return d.errorf(e, "%s: want a path glob, got %s", key, describe(e))
			}
			if e.Value == "" || !doublestar.ValidatePattern(e.Value) {
				return d.errorf(e, "%s: bad glob %q", key, e.Value)
			}
			if strings.HasPrefix(e.Value, "/") || strings.HasPrefix(e.Value, "./") || strings.Contains(e.Value, `\`) {
				return d.errorf(e, "%s: glob %q must be relative to the repository root with '/' separators (no leading / or ./)", key, e.Value)
			}
			out = append(out, e.Value)
		}
		*dst = out
		return nil
	}
}

var operations = []string{"create", "modify", "delete", "rename"}

func (d *decoder) ops(key string, dst *[]string) func(*yaml.Node) error {
	return func(v *yaml.Node) error {
		if v.Kind != yaml.SequenceNode {
			return d.errorf(v, "%s: want a list of operations, got %s", key, describe(v))
		}
		out := []string{}
		for _, e := range v.Content {
			if e.Kind != yaml.ScalarNode || !slices.Contains(operations, e.Value) {
				return d.errorf(e, "%s: unknown operation %s (want create, modify, delete or rename)", key, describe(e))
			}
			out = append(out, e.Value)
		}
		*dst = out
		return nil
	}
}

// dimension decodes a dimension key: null leaves it skipped, a mapping enables it.
func dimension[T any](d *decoder, key string, dst **T, defaults func() *T, fields func(*T) map[string]func(*yaml.Node) error) func(*yaml.Node) error {
	return func(v *yaml.Node) error {
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			return nil // P2: null means skipped
		}
		opts := defaults()
		if err := d.fields(v, key, fields(opts)); err != nil {
			return err
		}
		*dst = opts
		return nil
	}
}

var (
	namings     = []string{"go", "lisp-case", "snake_case", "pep8", "camelCase", "detect"}
	requireDocs = []string{"none", "exported"}
)

func (d *decoder) policy(n *yaml.Node, p *Policy) error {
	versionSeen := false
	err := d.fields(n, "policy", map[string]func(*yaml.Node) error{
		"version": func(v *yaml.Node) error {
			versionSeen = true
			if v.Kind != yaml.ScalarNode || v.Value != "1" {
				got := describe(v)
				if v.Kind == yaml.ScalarNode && v.Tag == "!!int" {
					got = v.Value // "version 2", not "version the number 2"
				}
				return d.errorf(v, "version: unsupported policy version %s (this agentverify reads version 1)", got)
			}
			p.Version = 1
			return nil
		},
		"name": func(v *yaml.Node) error {
			if v.Kind != yaml.ScalarNode || v.Tag != "!!str" || v.Value == "" {
				return d.errorf(v, "name: want a non-empty string, got %s", describe(v))
			}
			p.Name = v.Value
			return nil
		},
		"scope": dimension(d, "scope", &p.Scope, defaultScope, func(o *ScopeOptions) map[string]func(*yaml.Node) error {
			return map[string]func(*yaml.Node) error{
				"allowed_paths":      d.globs("scope.allowed_paths", &o.AllowedPaths),
				"forbidden_paths":    d.globs("scope.forbidden_paths", &o.ForbiddenPaths),
				"allowed_operations": d.ops("scope.allowed_operations", &o.AllowedOperations),
				"max_files_changed":  d.int("scope.max_files_changed", &o.MaxFilesChanged),

				"allow_gate_config_changes": d.bool("scope.allow_gate_config_changes", &o.AllowGateConfigChanges),
			}
		}),
		"hallucination": dimension(d, "hallucination", &p.Hallucination, defaultHallucination, func(o *HallucinationOptions) map[string]func(*yaml.Node) error {
			return map[string]func(*yaml.Node) error{
				"young_package_days": d.intRange("hallucination.young_package_days", &o.YoungPackageDays, 1, maxYoungPackageDays),
			}
		}),
		"style": dimension(d, "style", &p.Style, defaultStyle, func(o *StyleOptions) map[string]func(*yaml.Node) error {
			return map[string]func(*yaml.Node) error{
				"naming":          d.enum("style.naming", &o.Naming, namings...),
				"require_docs":    d.enum("style.require_docs", &o.RequireDocs, requireDocs...),
				"max_line_length": d.int("style.max_line_length", &o.MaxLineLength),
			}
		}),
		"semantics": dimension(d, "semantics", &p.Semantics, defaultSemantics, func(o *SemanticsOptions) map[string]func(*yaml.Node) error {
			return map[string]func(*yaml.Node) error{
				"preserve_exports":    d.bool("semantics.preserve_exports", &o.PreserveExports),
				"preserve_signatures": d.bool("semantics.preserve_signatures", &o.PreserveSignatures),
				"preserve_tests":      d.bool("semantics.preserve_tests", &o.PreserveTests),
				"include_internal":    d.bool("semantics.include_internal", &o.IncludeInternal),
			}
		}),
		"complexity": dimension(d, "complexity", &p.Complexity, defaultComplexity, func(o *ComplexityOptions) map[string]func(*yaml.Node) error {
			return map[string]func(*yaml.Node) error{
				"max_function_lines": d.int("complexity.max_function_lines", &o.MaxFunctionLines),
				"max_nesting_depth":  d.int("complexity.max_nesting_depth", &o.MaxNestingDepth),
				"max_cyclomatic":     d.int("complexity.max_cyclomatic", &o.MaxCyclomatic),
				"max_cognitive":      d.int("complexity.max_cognitive", &o.MaxCognitive),
			}
		}),
		"rules": func(v *yaml.Node) error {
			rs, err := d.rules("rules", v)
			p.Rules = rs
			return err
		},
		"overrides": func(v *yaml.Node) error { return d.overrides(v, p) },
		"limits":    d.limits(&p.Limits),
		"languages": d.languages(&p.Languages),
		"suppressions": func(v *yaml.Node) error {
			return d.fields(v, "suppressions", map[string]func(*yaml.Node) error{
				"allow_new": d.bool("suppressions.allow_new", &p.Suppressions.AllowNew),
			})
		},
	})
	if err != nil {
		return err
	}
	if !versionSeen {
		return d.errorf(n, "missing key version (a policy starts with \"version: 1\")")
	}
	return nil
}

var severities = []string{string(Error), string(Warning), string(Off)}

var rulePattern = lazyregexp.New(`^[a-z*?\[\]{},!-]+/[a-z0-9*?\[\]{},!-]+$|^\*\*$`)

func (d *decoder) rules(where string, v *yaml.Node) ([]RuleSeverity, error) {
	if v.Kind != yaml.MappingNode {
		return nil, d.errorf(v, "%s: want a mapping of rule or glob to severity, got %s", where, describe(v))
	}
	var out []RuleSeverity
	seen := map[string]int{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, s := v.Content[i], v.Content[i+1]
		if k.Kind != yaml.ScalarNode || !rulePattern.MatchString(k.Value) || !doublestar.ValidatePattern(k.Value) {
			return nil, d.errorf(k, "%s: %s is not a rule ID (dimension/name) or a glob over rule IDs", where, describe(k))
		}
		if line, dup := seen[k.Value]; dup {
			return nil, d.errorf(k, "%s: rule %q given twice (first at line %d)", where, k.Value, line)
		}
		seen[k.Value] = k.Line
		if !isGlob(k.Value) {
			dim, _, _ := strings.Cut(k.Value, "/")
			if !slices.Contains(Dimensions, dim) {
				return nil, d.errorf(k, "%s: rule %q names no dimension (want one of %s)", where, k.Value, strings.Join(Dimensions, ", "))
			}
		}
		if s.Kind != yaml.ScalarNode || !slices.Contains(severities, s.Value) {
			return nil, d.errorf(s, "%s.%s: bad severity %s (want error, warning or off)", where, k.Value, describe(s))
		}
		out = append(out, RuleSeverity{Pattern: k.Value, Severity: Severity(s.Value), Line: k.Line})
	}
	return out, nil
}

func (d *decoder) overrides(v *yaml.Node, p *Policy) error {
	if v.Kind != yaml.SequenceNode {
		return d.errorf(v, "overrides: want a list, got %s", describe(v))
	}
	for i, e := range v.Content {
		where := fmt.Sprintf("overrides[%d]", i)
		var o Override
		err := d.fields(e, where, map[string]func(*yaml.Node) error{
			"paths": d.globs(where+".paths", &o.Paths),
			"scope": func(v *yaml.Node) error {
				o.Scope = &ScopeOverride{}
				return d.fields(v, where+".scope", map[string]func(*yaml.Node) error{
					"max_files_changed": d.intPtr(where+".scope.max_files_changed", &o.Scope.MaxFilesChanged),
				})
			},
			"style": func(v *yaml.Node) error {
				o.Style = &StyleOverride{}
				return d.fields(v, where+".style", map[string]func(*yaml.Node) error{
					"naming":          d.enumPtr(where+".style.naming", &o.Style.Naming, namings...),
					"require_docs":    d.enumPtr(where+".style.require_docs", &o.Style.RequireDocs, requireDocs...),
					"max_line_length": d.intPtr(where+".style.max_line_length", &o.Style.MaxLineLength),
				})
			},
			"semantics": func(v *yaml.Node) error {
				o.Semantics = &SemanticsOverride{}
				return d.fields(v, where+".semantics", map[string]func(*yaml.Node) error{
					"preserve_exports":    d.boolPtr(where+".semantics.preserve_exports", &o.Semantics.PreserveExports),
					"preserve_signatures": d.boolPtr(where+".semantics.preserve_signatures", &o.Semantics.PreserveSignatures),
					"preserve_tests":      d.boolPtr(where+".semantics.preserve_tests", &o.Semantics.PreserveTests),
					"include_internal":    d.boolPtr(where+".semantics.include_internal", &o.Semantics.IncludeInternal),
				})
			},
			"complexity": func(v *yaml.Node) error {
				o.Complexity = &ComplexityOverride{}
				return d.fields(v, where+".complexity", map[string]func(*yaml.Node) error{
					"max_function_lines": d.intPtr(where+".complexity.max_function_lines", &o.Complexity.MaxFunctionLines),
					"max_nesting_depth":  d.intPtr(where+".complexity.max_nesting_depth", &o.Complexity.MaxNestingDepth),
					"max_cyclomatic":     d.intPtr(where+".complexity.max_cyclomatic", &o.Complexity.MaxCyclomatic),
					"max_cognitive":      d.intPtr(where+".complexity.max_cognitive", &o.Complexity.MaxCognitive),
				})
			},
			"rules": func(v *yaml.Node) error {
				rs, err := d.rules(where+".rules", v)
				o.Rules = rs
				return err
			},
		})
		if err != nil {
			return err
		}
		if len(o.Paths) == 0 {
			return d.errorf(e, "%s: missing or empty paths (an override applies to the files matching its paths)", where)
		}
		p.Overrides = append(p.Overrides, o)
	}
	return nil
}

// ValidateRules checks that every exact rule ID the policy names is a known rule; globs are
// not checked. The error names the file and line of the first unknown rule.
func (p *Policy) ValidateRules(known func(id string) bool) error {
	check := func(where string, rs []RuleSeverity) error {
		for _, r := range rs {
			if !isGlob(r.Pattern) && !known(r.Pattern) {
				return fmt.Errorf("%s:%d: %s: unknown rule %q (run 'agentverify explain' to list the rules)", p.Source, max(r.Line, 1), where, r.Pattern)
			}
		}
		return nil
	}
	if err := check("rules", p.Rules); err != nil {
		return err
	}
	for i, o := range p.Overrides {
		if err := check(fmt.Sprintf("overrides[%d].rules", i), o.Rules); err != nil {
			return err
		}
	}
	return nil
}
