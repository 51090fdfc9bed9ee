package resolve

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// moduleMembers returns the public names of a module, read from its source: typeshed's
// stub for the standard library, else the module's stub or source in the head tree or on
// the interpreter's sys.path, star imports followed (os.path is posixpath's names). A
// module is never imported to list its members: that would run the verified code.
func (j *job) moduleMembers(module string) []string {
	key := module
	if names, ok := j.members[key]; ok {
		return names
	}
	var names []string
	for _, d := range j.memberNames(module) {
		if !strings.HasPrefix(d, "_") {
			names = append(names, d)
		}
	}
	if !j.isStdlib(module) {
		if ns := j.namespaceOf(module); ns != nil {
			names = append(names, ns.public()...) // what its __getattr__ answers, too
		}
	}
	j.members[key] = names
	return names
}

// classMembers returns the public members of a class of a module, those of its bases
// included.
func (j *job) classMembers(module, class string) []string {
	key := module + ":" + class
	if names, ok := j.members[key]; ok {
		return names
	}
	var names []string
	for _, m := range j.classMemberNames(module, class) {
		if !strings.HasPrefix(m, "_") {
			names = append(names, m)
		}
	}
	j.members[key] = names
	return names
}

// membersOfClass returns the members of the class pyright names ("C", "type[C]",
// "m.C"): a builtin, a class the file imports by name, or a class of a module the file
// imports or one such module re-exports (requests' Response is requests.models').
func (j *job) membersOfClass(t *target, class string) []string {
	class = classOf(class)
	if i := strings.LastIndexByte(class, '.'); i >= 0 {
		if names := j.classMembers(class[:i], class[i+1:]); len(names) > 0 {
			return names
		}
		class = class[i+1:]
	}
	if names := j.classMembers("builtins", class); len(names) > 0 || t.idx == nil {
		return names
	}
	if q := t.idx.objects[class]; q != "" {
		return j.classMembers(strings.TrimSuffix(q, "."+class), class)
	}
	mods := make([]string, 0, len(t.idx.modules)+len(t.idx.imports))
	for _, m := range t.idx.modules {
		mods = append(mods, m)
	}
	for _, s := range t.idx.imports {
		mods = append(mods, s.module)
	}
	sort.Strings(mods)
	for _, m := range mods {
		if names := j.classMembers(m, class); len(names) > 0 {
			return names
		}
	}
	return nil
}

// source returns the source of a module: its typeshed stub, else its stub or source
// file in the head tree, else on the interpreter's sys.path; nil when none is found.
func (j *job) source(module string) []byte {
	if std, err := j.stdlibIndex(); err == nil {
		if p := std.Stub(module); p != "" {
			src, _ := os.ReadFile(p)
			return src
		}
	}
	rel := strings.ReplaceAll(module, ".", "/")
	cands := []string{rel + ".pyi", rel + ".py", rel + "/__init__.pyi", rel + "/__init__.py"}
	if head := j.headFS(); head != nil {
		for _, c := range cands {
			if src, err := fs.ReadFile(head, c); err == nil {
				return src
			}
		}
	}
	for _, dir := range j.sysPath() {
		for _, c := range cands {
			if src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(c))); err == nil {
				return src
			}
		}
	}
	return nil
}

// sysPath returns the directories the project's interpreter imports from (it runs the
// interpreter once per process and interpreter, see cache.sysPath, to print sys.path, and
// imports nothing of the project). An interpreter that fails is recorded in pathErr: the
// steps go on without installed modules, and run fails the verification.
func (j *job) sysPath() []string {
	if j.path != nil {
		return *j.path
	}
	j.path = new([]string)
	proj, err := j.projectConfig()
	if err != nil {
		return nil
	}
	py := proj.Options(j.req.Changes.Root).Python
	if py == "" {
		return nil
	}
	*j.path = j.fe.cache.sysPath(py, func() []string {
		dirs, err := askSysPath(j.req.Context, py)
		j.pathErr = err
		return dirs
	})
	return *j.path
}

// askSysPath runs the interpreter py to print its sys.path.
func askSysPath(ctx context.Context, py string) ([]string, error) {
	ask, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ask, py, "-I", "-c", "import sys, json; print(json.dumps(sys.path))")
	cmd.Dir = os.TempDir()
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case ask.Err() != nil:
		return nil, &lang.SetupError{Err: fmt.Errorf("%s did not print its sys.path within 10s (the machine is overloaded or the interpreter hangs at start-up): check that `%s -c 'import sys; print(sys.path)'` answers", py, py)}
	case err != nil:
		return nil, &lang.SetupError{Err: fmt.Errorf("%s failed to print its sys.path (%v): check that `%s -c 'import sys; print(sys.path)'` answers", py, err, py)}
	}
	var dirs, abs []string
	if json.Unmarshal(out, &dirs) == nil {
		for _, d := range dirs {
			if filepath.IsAbs(d) {
				abs = append(abs, d)
			}
		}
	}
	return abs, nil
}

// topLevelModules are the modules an import may have meant: the standard library's, the
// head tree's top-level packages and modules, and those on the interpreter's sys.path.
func (j *job) topLevelModules() []string {
	var out []string
	if std, err := j.stdlibIndex(); err == nil {
		out = append(out, std.Modules(j.floorOr("3.14"))...)
	}
	if head := j.headFS(); head != nil {
		out = append(out, moduleEntries(head, ".")...)
	}
	for _, dir := range j.sysPath() {
		out = append(out, moduleEntries(os.DirFS(dir), ".")...)
	}
	return out
}

// moduleEntries lists the importable names in dir of fsys: Python files and packages.
func moduleEntries(fsys fs.FS, dir string) []string {
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		name := e.Name()
		switch {
		case strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_"):
		case e.IsDir() && !strings.Contains(name, "."):
			out = append(out, name)
		case strings.HasSuffix(name, ".py") || strings.HasSuffix(name, ".pyi"):
			out = append(out, strings.TrimSuffix(strings.TrimSuffix(name, ".pyi"), ".py"))
		case strings.HasSuffix(name, ".so"):
			base, _, _ := strings.Cut(name, ".")
			out = append(out, base)
		}
	}
	return out
}

// stubNames appends the names the statements under n bind, qualified by prefix.
func stubNames(n *syntax.Node, src []byte, prefix string, out *[]string) {
	for _, s := range n.Children {
		switch s.Kind {
		case "decorated_definition":
			if d := s.Child("definition"); d != nil {
				stubNames(&syntax.Node{Children: []*syntax.Node{d}}, src, prefix, out)
			}
		case "function_definition":
			*out = append(*out, prefix+s.Child("name").Text(src))
		case "class_definition":
			name := s.Child("name").Text(src)
			*out = append(*out, prefix+name)
			if prefix == "" {
				stubNames(s.Child("body"), src, name+".", out)
			}
		case "expression_statement":
			if a := s.FirstOfKind("assignment"); a != nil && a.Child("left").Kind == "identifier" {
				*out = append(*out, prefix+a.Child("left").Text(src))
			}
		case "import_from_statement":
			for _, c := range s.Children {
				if c.Field == "name" && c.Kind == "aliased_import" {
					*out = append(*out, prefix+c.Child("alias").Text(src))
				}
			}
		case "if_statement", "else_clause", "elif_clause", "try_statement", "block":
			stubNames(s, src, prefix, out)
		}
	}
}

// scopeNames are the names an undefined name may have meant: those the file mentions
// and the builtins.
func (j *job) scopeNames(t *target) []string {
	var out []string
	if t.idx != nil {
		for n := range t.idx.names {
			out = append(out, n)
		}
	}
	out = append(out, "True", "False", "None")
	return append(out, j.moduleMembers("builtins")...)
}
