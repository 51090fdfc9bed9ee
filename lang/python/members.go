package python

import (
	"os"
	"strings"
)

// moduleMembers returns the public names of a standard-library module, read from its
// typeshed stub (never by importing it: the verified code's modules are not run).
func (j *job) moduleMembers(module string) []string {
	key := module
	if names, ok := j.members[key]; ok {
		return names
	}
	var names []string
	for _, d := range j.stub(module) {
		if !strings.Contains(d, ".") && !strings.HasPrefix(d, "_") {
			names = append(names, d)
		}
	}
	j.members[key] = names
	return names
}

// classMembers returns the public members of a class of a standard-library module.
func (j *job) classMembers(module, class string) []string {
	key := module + ":" + class
	if names, ok := j.members[key]; ok {
		return names
	}
	var names []string
	for _, d := range j.stub(module) {
		if m, ok := strings.CutPrefix(d, class+"."); ok && !strings.HasPrefix(m, "_") && !strings.Contains(m, ".") {
			names = append(names, m)
		}
	}
	j.members[key] = names
	return names
}

// stub returns the names a standard-library module's stub declares: module-level
// functions, classes, variables and re-exports (in version and platform branches too)
// and, as "Class.name", the members of its classes, overloads included.
func (j *job) stub(module string) []string {
	std, err := j.stdlibIndex()
	if err != nil {
		return nil
	}
	p := std.Stub(module)
	if p == "" {
		return nil
	}
	src, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	tree, err := j.fe.g.parse(src)
	if err != nil {
		return nil
	}
	var out []string
	stubNames(tree, src, "", &out)
	return out
}

// stubNames appends the names the statements under n bind, qualified by prefix.
func stubNames(n *node, src []byte, prefix string, out *[]string) {
	for _, s := range n.children {
		switch s.kind {
		case "decorated_definition":
			if d := s.child("definition"); d != nil {
				stubNames(&node{children: []*node{d}}, src, prefix, out)
			}
		case "function_definition":
			*out = append(*out, prefix+s.child("name").text(src))
		case "class_definition":
			name := s.child("name").text(src)
			*out = append(*out, prefix+name)
			if prefix == "" {
				stubNames(s.child("body"), src, name+".", out)
			}
		case "expression_statement":
			if a := s.firstOfKind("assignment"); a != nil && a.child("left").kind == "identifier" {
				*out = append(*out, prefix+a.child("left").text(src))
			}
		case "import_from_statement":
			for _, c := range s.children {
				if c.field == "name" && c.kind == "aliased_import" {
					*out = append(*out, prefix+c.child("alias").text(src))
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
	return append(out, j.moduleMembers("builtins")...)
}
