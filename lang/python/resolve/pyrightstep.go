package resolve

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/pyright"
	"github.com/agentverify/agentverify/lazyregexp"
)

// pyrightStep checks the files that parse with pyright and reports its errors that mean a
// reference to something that does not exist.
func pyrightStep(j *job) ([]lang.Problem, error) {
	var files []*target
	for _, t := range j.targets {
		if !t.broken {
			files = append(files, t)
		}
	}
	if len(files) == 0 {
		return nil, nil
	}
	diags, err := j.check(files)
	if err != nil {
		return nil, err
	}
	byPath := map[string]*target{}
	for _, t := range files {
		byPath[t.f.Path] = t
	}
	arguments := argumentRanges(diags)
	var out []lang.Problem
	for _, d := range diags {
		t := byPath[d.File]
		if t == nil || d.Severity != "error" {
			continue
		}
		if d.Rule == "reportCallIssue" && noOverloads.MatchString(d.Message) && within(arguments[d.File], d.Range) {
			continue // the overload fails on that argument's type: reported with it
		}
		if p, ok := j.problem(t, d); ok {
			out = append(out, p)
		}
	}
	return out, nil
}

// within reports whether one of ps lies in r: an argument of the call r spans.
func within(ps []pyright.Position, r pyright.Range) bool {
	for _, p := range ps {
		after := p.Line > r.Start.Line || p.Line == r.Start.Line && p.Character >= r.Start.Character
		before := p.Line < r.End.Line || p.Line == r.End.Line && p.Character <= r.End.Character
		if after && before {
			return true
		}
	}
	return false
}

// inferredArgument reports an argument-type error on a type pyright inferred from
// unannotated code rather than one the code states: a union (one branch, often the None
// of a default, does not fit: ",".join([x, "a"]) with x=None), a partly Unknown type, or
// the Self (C* once narrowed) of a mixin passed to its other base's method; or a parameter pyright takes for
// self in a function that is not a method (pygments' analyse_text(text), which its
// metaclass makes static, and helpers called in a class body). Those are pyright's
// guesses about untyped code, not calls with a made-up signature; a plain wrong type
// (time.sleep("1")) is still reported.
func inferredArgument(msg string) bool {
	m := argumentType.FindStringSubmatch(msg)
	if m == nil {
		return false
	}
	return strings.Contains(m[1], " | ") || strings.Contains(m[1], "Unknown") || strings.Contains(m[1], "Self@") ||
		strings.HasSuffix(m[1], "*") || strings.Contains(m[1], "None") || strings.HasPrefix(m[2], "Self@")
}

// check runs pyright over files with their head content, warm through the frontend's
// language server when it has one and the disk holds the rest of the head, else in batch
// mode. The diagnostics' File is the file's repository-relative path.
func (j *job) check(files []*target) ([]pyright.Diagnostic, error) {
	tool, err := j.pyright()
	if err != nil {
		return nil, err
	}
	proj, err := j.projectConfig()
	if err != nil {
		return nil, err
	}
	set := j.req.Changes
	opts := proj.Options(set.Root)
	if j.fe.servers != nil && set.OnDisk && set.Root != "" && !proj.Weakened() {
		overlay := map[string][]byte{}
		for _, t := range files {
			overlay[t.f.Path] = t.src
		}
		return j.fe.servers.Check(j.req.Context, tool, set.Root, opts, overlay)
	}
	dir, cleanup, err := j.workTree(files, proj)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	rel := make([]string, len(files))
	for i, t := range files {
		rel[i] = filepath.FromSlash(t.f.Path)
	}
	diags, err := tool.Check(j.req.Context, dir, rel, opts)
	if err != nil {
		return nil, err
	}
	for i := range diags {
		if r, err := filepath.Rel(dir, diags[i].File); err == nil {
			diags[i].File = filepath.ToSlash(r)
		}
	}
	return diags, nil
}

// workTree returns a directory holding the head tree for pyright to read: the repository
// itself when the disk already has the head content of every changed Python file, else
// a temporary mirror of the head's Python files and configuration, so that a proposed
// edit is checked before it is written.
func (j *job) workTree(files []*target, proj pyright.Project) (string, func(), error) {
	set := j.req.Changes
	if set.OnDisk && set.Root != "" && j.diskHasHead() && !proj.Weakened() {
		dir, err := filepath.EvalSymlinks(set.Root)
		return dir, func() {}, err
	}
	tmp, err := os.MkdirTemp("", "agentverify-pyright-")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.RemoveAll(tmp) }
	if tmp, err = filepath.EvalSymlinks(tmp); err == nil && j.headFS() != nil {
		err = mirror(j.headFS(), tmp)
	}
	for _, t := range files {
		if err != nil {
			break
		}
		p := filepath.Join(tmp, filepath.FromSlash(t.f.Path))
		if err = os.MkdirAll(filepath.Dir(p), 0o755); err == nil {
			err = os.WriteFile(p, t.src, 0o644)
		}
	}
	if err == nil && proj.Weakened() {
		err = enforce(tmp, set.Root, proj)
	}
	if err != nil {
		cleanup()
		return "", nil, fmt.Errorf("copying the head's Python files for pyright: %w", err)
	}
	return tmp, cleanup, nil
}

// enforce writes the project's pyright configuration with agentverify's rules enforced
// to the mirror at dir (pyrightconfig.json wins over pyproject.toml's [tool.pyright]).
func enforce(dir, root string, proj pyright.Project) error {
	data, err := proj.Enforced(root)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "pyrightconfig.json"), data, 0o644)
}

// diskHasHead reports whether every changed Python file is on disk as the head has it.
func (j *job) diskHasHead() bool {
	for _, f := range j.req.Changes.Files {
		if !j.fe.Match(f.Path) && !j.fe.Match(f.OldPath) {
			continue
		}
		if !f.Analyzable() {
			if _, err := os.Lstat(filepath.Join(j.req.Changes.Root, filepath.FromSlash(f.Path))); err == nil {
				return false // deleted by the change, still on disk
			}
			continue
		}
		data, err := os.ReadFile(filepath.Join(j.req.Changes.Root, filepath.FromSlash(f.Path)))
		if err != nil || !bytes.Equal(data, f.Head) {
			return false
		}
	}
	return true
}

// mirror copies the Python sources and pyright's configuration of fsys to dir, leaving
// out hidden directories, virtual environments, caches and node_modules (pyright finds
// installed packages through the interpreter, not the tree) and never following links.
func mirror(fsys fs.FS, dir string) error {
	return fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && p != "." && pyright.SkipDir(fsys, p):
			return fs.SkipDir
		case d.IsDir() || !d.Type().IsRegular() || !pyright.Mirrored(p):
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
}

// Messages of pyright this resolver understands (pyright's en.json localisation).
var (
	notModuleAttr  = lazyregexp.New(`^"([^"]+)" is not a known attribute of module "([^"]+)"`)
	unknownImport  = lazyregexp.New(`^"([^"]+)" is unknown import symbol`)
	noAttribute    = lazyregexp.New(`^Cannot access attribute "([^"]+)" for class "(.*?)"(?:\n|$)`)
	anyAttribute   = lazyregexp.New(`^Cannot (?:access|assign to|delete) attribute "([^"]+)" for class "(.*?)"(?:\n|$)`)
	importFailed   = lazyregexp.New(`^Import "([^"]+)" could not be resolved$`)
	notDefined     = lazyregexp.New(`^"([^"]+)" is not defined`)
	noParameter    = lazyregexp.New(`^No parameter named "([^"]+)"`)
	arity          = lazyregexp.New(`^(Expected \d+ positional argument|Arguments? missing for parameter)`)
	notCallable    = lazyregexp.New(`is not callable`)
	noOverloads    = lazyregexp.New(`^No overloads for "[^"]+" match the provided arguments`)
	argumentType   = lazyregexp.New(`^Argument of type "(.*)" cannot be assigned to parameter "[^"]*" of type "([^"]*)"`)
	requiresPython = lazyregexp.New(`requires? Python (\d+\.\d+) or newer`)
)

// problem turns one of pyright's errors into a problem, when it is one agentverify
// reports: basic mode's errors about names, members, imports and calls; its
// version-dependent syntax; any other diagnostic no rule controls (the parser's, which
// tree-sitter accepted). Other rules (style, strictness) are left out.
func (j *job) problem(t *target, d pyright.Diagnostic) (lang.Problem, bool) {
	msg, _, _ := strings.Cut(d.Message, "\n")
	p := lang.Problem{Location: t.location(d.Range), Message: msg}
	switch d.Rule {
	case "reportAttributeAccessIssue":
		if !j.madeUpMember(t, p.Location, d.Message) {
			return p, false
		}
		j.attribute(t, &p, msg)
	case "reportMissingImports":
		p.Kind = lang.UnknownImport
		if m := importFailed.FindStringSubmatch(msg); m != nil {
			p.Symbol = m[1]
			p.Message = fmt.Sprintf("import %q resolves to no module: no installed package, standard-library module or module of the project has that name", m[1])
			if !strings.ContainsAny(m[1], ".") {
				p.Suggestion = didYouMean(closest(m[1], j.topLevelModules()))
			}
		}
	case "reportUndefinedVariable":
		p.Kind = lang.Undefined
		if m := notDefined.FindStringSubmatch(msg); m != nil {
			p.Symbol = m[1]
			p.Message = m[1] + " is not defined in this scope"
			p.Suggestion = didYouMean(closest(m[1], j.scopeNames(t)))
		}
	case "reportCallIssue":
		j.callIssue(t, &p, msg)
	case "reportArgumentType":
		if !argumentMismatch(&p, d.Message) {
			return p, false
		}
		if j.argumentSibling(t, &p, d.Message) {
			// A sibling the call fits: the wrong function was called, not a value of the
			// wrong type passed (json.load("{}") for json.loads).
			p.Kind = lang.WrongSignature
		}
	case "":
		if m := requiresPython.FindStringSubmatch(msg); m != nil {
			p.Kind = lang.APITooNew
			p.Message = fmt.Sprintf("%s; the project supports Python %s (requires-python)", msg, j.floorOr("older versions"))
			p.Key = msg // without the floor, which the change may move
		} else {
			p.Kind = lang.SyntaxErrorKind
		}
	default:
		return p, false
	}
	return p, true
}

// madeUpMember reports whether pyright's attribute error full at loc is about a name
// that does not exist: not one of its type errors (madeUpAttribute), not a parameter it
// took for self, not a mixin's attribute the project provides.
func (j *job) madeUpMember(t *target, loc lang.Location, full string) bool {
	if !madeUpAttribute(full) {
		return false
	}
	if m := anyAttribute.FindStringSubmatch(full); m != nil && j.definedOn(classOf(m[2]), m[1]) {
		return false // set from outside the class: Logger.manager = Manager(…)
	}
	m := noAttribute.FindStringSubmatch(full)
	if m == nil {
		return true
	}
	if !strings.HasSuffix(m[2], "*") {
		return true
	}
	if r := t.receiver(loc); r != "self" && r != "cls" {
		// pyright took the first parameter of a function in a class for self
		// (pygments' analyse_text(text), made static by its metaclass).
		return false
	}
	return !j.mixinMember(strings.TrimSuffix(m[2], "*"), m[1])
}

// classOf is the class name in pyright's "C", "C*" or "type[C]".
func classOf(s string) string {
	if inner, ok := strings.CutPrefix(s, "type["); ok {
		s = strings.TrimSuffix(inner, "]")
	}
	return strings.TrimSuffix(s, "*")
}

// madeUpAttribute tells pyright's attribute errors about a name that does not exist from
// its type errors, which are not hallucinations: an assignment whose value does not fit
// the type pyright inferred from the class's own assignments (requests' Response sets
// self.encoding = None, its adapter assigns a str), and an attribute of a value typed
// None (the same inference: Response.raw is None until the adapter sets it).
func madeUpAttribute(full string) bool {
	if m := noAttribute.FindStringSubmatch(full); m != nil && m[2] == "None" {
		return false
	}
	if strings.HasPrefix(full, "Cannot assign to attribute") {
		return strings.Contains(full, "\" is unknown")
	}
	return true
}

func call(p *lang.Problem, msg string) {
	switch {
	case noParameter.MatchString(msg):
		p.Kind = lang.UnknownKeyword
		p.Symbol = noParameter.FindStringSubmatch(msg)[1]
	case arity.MatchString(msg):
		p.Kind = lang.WrongArity
	case notCallable.MatchString(msg):
		p.Kind = lang.TypeError
	default:
		p.Kind = lang.WrongSignature
	}
}

// attribute classifies an attribute error: a module member (unknown-symbol) or a member
// of a value's type (unknown-member), with the closest real names.
func (j *job) attribute(t *target, p *lang.Problem, msg string) {
	switch {
	case notModuleAttr.MatchString(msg):
		m := notModuleAttr.FindStringSubmatch(msg)
		mod := m[2]
		if strings.HasPrefix(mod, ".") {
			mod = t.moduleOfAttribute(p.Location, mod) // pyright's "..path" for os.path
		}
		p.Kind, p.Symbol = lang.UnknownSymbol, mod+"."+m[1]
		p.Message = fmt.Sprintf("%s is not a member of module %s", m[1], mod)
		p.Suggestion = didYouMean(closest(m[1], j.moduleMembers(mod)))
	case unknownImport.MatchString(msg):
		name := unknownImport.FindStringSubmatch(msg)[1]
		mod := t.importedFrom(name, p.Location.Line)
		p.Kind, p.Symbol = lang.UnknownSymbol, strings.TrimPrefix(mod+"."+name, ".")
		if mod != "" {
			p.Message = fmt.Sprintf("%s is not a member of module %s", name, mod)
			p.Suggestion = didYouMean(closest(name, j.moduleMembers(mod)))
		}
	case noAttribute.MatchString(msg) && j.declaredNarrower(noAttribute.FindStringSubmatch(msg)[2], noAttribute.FindStringSubmatch(msg)[1]):
		m := noAttribute.FindStringSubmatch(msg)
		p.Symbol = builtinClass(m[2]) + "." + m[1]
		narrowerMismatch(p, m[2], m[1])
	case noAttribute.MatchString(msg):
		m := noAttribute.FindStringSubmatch(msg)
		class := builtinClass(classOf(m[2]))
		p.Kind, p.Symbol = lang.UnknownMember, class+"."+m[1]
		p.Message = fmt.Sprintf("%s is not an attribute of %s", m[1], m[2])
		p.Suggestion = didYouMean(closest(m[1], j.membersOfClass(t, class)))
	default:
		p.Kind = lang.UnknownMember
	}
}

// builtinClass is the class pyright names a value's type by: "Literal['a']" is a str.
func builtinClass(s string) string {
	if rest, ok := strings.CutPrefix(s, "Literal["); ok {
		switch {
		case strings.HasPrefix(rest, "'") || strings.HasPrefix(rest, `"`):
			return "str"
		case strings.HasPrefix(rest, "b'") || strings.HasPrefix(rest, `b"`):
			return "bytes"
		case strings.HasPrefix(rest, "True") || strings.HasPrefix(rest, "False"):
			return "bool"
		default:
			return "int"
		}
	}
	if i := strings.IndexByte(s, '['); i >= 0 {
		s = s[:i]
	}
	return s
}

// importedFrom returns the module a from-import on line imports name from.
func (t *target) importedFrom(name string, line int) string {
	if t.idx == nil {
		return ""
	}
	for _, s := range t.idx.imports {
		if s.name == name && s.pos.Line == line {
			return s.module
		}
	}
	if o := t.idx.objects[name]; o != "" {
		return strings.TrimSuffix(o, "."+name)
	}
	return ""
}

func (j *job) floorOr(s string) string {
	if p, err := j.projectConfig(); err == nil && p.Floor != "" {
		return p.Floor
	}
	return s
}

// location converts a pyright range (0-based lines, UTF-16 columns) to a location (1-based
// lines, 1-based byte columns).
func (t *target) location(r pyright.Range) lang.Location {
	return lang.Location{
		File:      t.f.Path,
		Line:      r.Start.Line + 1,
		Column:    t.column(r.Start),
		EndLine:   r.End.Line + 1,
		EndColumn: t.column(r.End),
	}
}

// receiver is the name before the dot of the attribute at loc ("text" in
// text.startswith), or "" when it is not a plain name.
func (t *target) receiver(loc lang.Location) string {
	if loc.Line < 1 || loc.Line > len(t.lf.Lines) {
		return ""
	}
	line := t.lf.Lines[loc.Line-1]
	end := min(loc.Column-1, len(line))
	before := strings.TrimRight(line[:max(end, 0)], " \t")
	if !strings.HasSuffix(before, ".") {
		return ""
	}
	before = strings.TrimRight(strings.TrimSuffix(before, "."), " \t")
	i := strings.LastIndexFunc(before, func(r rune) bool { return !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) })
	return before[i+1:]
}

func (t *target) column(p pyright.Position) int {
	if p.Line < 0 || p.Line >= len(t.lf.Lines) {
		return p.Character + 1
	}
	return byteColumn(t.lf.Lines[p.Line], p.Character)
}

// byteColumn returns the 1-based byte column of the UTF-16 offset units in line.
func byteColumn(line string, units int) int {
	b := 0
	for units > 0 && b < len(line) {
		r, size := utf8.DecodeRuneInString(line[b:])
		units -= utf16.RuneLen(r)
		if utf16.RuneLen(r) < 0 {
			units-- // invalid UTF-8 decodes as U+FFFD, one unit
		}
		b += size
	}
	return b + 1
}
