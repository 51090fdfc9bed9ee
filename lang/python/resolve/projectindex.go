package resolve

import (
	"bytes"
	"io/fs"
	"path"
	"runtime"
	"sync/atomic"

	"github.com/agentverify/agentverify/crash"
	"github.com/agentverify/agentverify/lang/python/pyright"
)

// The project-wide checks (a mixin's attribute, an attribute set from outside its class
// or by setattr) read every Python file of the head tree. Parsing them all is most of our
// cost when the change imports a large project (issue #29 item 5), and one attribute
// question needs only the files whose bytes can answer it: those that mention the
// attribute or a class on the way up from the one asked about, and those that set
// attributes by computed names. The files are read once per job and each is parsed at
// most once per job (and once per content in the cache).

// projectFiles are the head tree's Python sources, in walk order, with what each defines
// and sets once parsed.
type projectFiles struct {
	srcs   [][]byte
	parsed []*projectFile // nil: not parsed yet
}

// files returns the job's project files, read on first use.
func (j *job) files() *projectFiles {
	if j.projFiles == nil {
		srcs := j.projectSources()
		j.projFiles = &projectFiles{srcs: srcs, parsed: make([]*projectFile, len(srcs))}
	}
	return j.projFiles
}

// projectIndex indexes the classes and set attributes of the project files for which
// want is true.
func (j *job) projectIndex(want func(src []byte) bool) (projectClasses, setAttrs) {
	pc, sa := projectClasses{}, setAttrs{}
	pf := j.files()
	var wanted []int
	for i, src := range pf.srcs {
		if want(src) {
			wanted = append(wanted, i)
		}
	}
	j.parseFiles(wanted)
	for _, i := range wanted {
		f := pf.parsed[i]
		for _, c := range f.classes {
			pc[c.name] = append(pc[c.name], c.info)
		}
		sa.merge(f.sets)
	}
	return pc, sa
}

// parseFiles parses the project files numbered wanted that are not parsed yet, on
// every core. The filter that chose them runs once per file: it scans the file's bytes.
func (j *job) parseFiles(wanted []int) {
	pf := j.files()
	var todo []int
	for _, i := range wanted {
		if pf.parsed[i] == nil {
			todo = append(todo, i)
		}
	}
	var g crash.Group
	var next atomic.Int64 // not a channel: a worker that panics must not leave a sender blocked
	for range min(runtime.GOMAXPROCS(0), len(todo)) {
		g.Go(func() {
			for k := int(next.Add(1) - 1); k < len(todo); k = int(next.Add(1) - 1) {
				f := j.fe.projectFile(pf.srcs[todo[k]])
				pf.parsed[todo[k]] = &f
			}
		})
	}
	if err := g.Wait(); err != nil {
		panic(err) // in the resolver's goroutine, where the engine recovers it, place kept
	}
}

// definingIndex indexes the project files that can tell whether class, or a base of it in
// the project, defines attr, or whether attr is set on its instances by name: the files
// that spell a class name of its family (familyIndex: what a class defines, C.attr = …
// outside it, and setattr or a __dict__/vars update on its instances, reached only through
// self/cls in its body or a module variable bound to C(…), all spell C), and the files
// that call setattr and spell attr quoted (a literal name set on an object of unknown
// class: setByName reads a name only from a plain literal, stringValue, never one with an
// escape or a quote in it, so 'attr' or "attr" is in the file's bytes). What definedOn
// answers from it is what it answers from the whole project's index.
func (j *job) definingIndex(class, attr string) (projectClasses, setAttrs) {
	single, double := []byte("'"+attr+"'"), []byte(`"`+attr+`"`)
	return j.familyIndex(class, false, func(src []byte) bool {
		return bytes.Contains(src, []byte("setattr")) && (bytes.Contains(src, single) || bytes.Contains(src, double))
	})
}

// familyIndex indexes the project files that spell a class name of class's family, and
// those for which also (when not nil) is true. The family is class and the bases of its
// members, and with down also the classes deriving from a member that derives from
// class (a subclass's class statement spells its base), found until nothing is new:
// every class the mixin check (mixinMember) looks at then has every class of its
// ancestors' names in the index.
func (j *job) familyIndex(class string, down bool, also func([]byte) bool) (projectClasses, setAttrs) {
	names, derived := map[string]bool{class: true}, map[string]bool{class: true}
	mentions := func(src []byte) bool {
		if also != nil && also(src) {
			return true
		}
		for n := range names {
			if spelled(src, []byte(n), anywhere) {
				return true
			}
		}
		return false
	}
	for {
		pc, sa := j.projectIndex(mentions)
		if !grow(pc, names, derived, down) {
			return pc, sa
		}
	}
}

// grow adds to names the bases of the classes it names, and with down to derived (and
// names) the classes deriving from one in derived; it reports whether it added any.
func grow(pc projectClasses, names, derived map[string]bool, down bool) bool {
	grown := false
	for n, infos := range pc {
		for _, c := range infos {
			for _, b := range c.bases {
				if names[n] && !names[b] {
					names[b], grown = true, true
				}
				if down && derived[b] && !derived[n] {
					derived[n], names[n], grown = true, true, true
				}
			}
		}
	}
	return grown
}

// attrIndex indexes the project files that spell attr: those of every class that defines
// it (its name is an identifier of the class's file).
func (j *job) attrIndex(attr string) projectClasses {
	if j.projClasses != nil {
		return j.projClasses
	}
	pc, _ := j.projectIndex(func(src []byte) bool { return mayDefine(src, []byte(attr)) })
	return pc
}

// mayDefine reports whether src spells attr as a name (not inside a longer one: bytes
// beyond ASCII count as a boundary) where classAttrs or outside can read it as defined:
// after def or class (a method, a nested class), or as an assignment's target, which is
// followed by what can follow a target (=, :, an operator of an augmented assignment, or
// a comment, or , ) ] inside a tuple or list of targets, which only a bare name or
// self.attr and cls.attr can be part of). Most files that only use a common method
// (.strip(), map(str.strip, …)) or name it in prose ("strip the prefix") are not read.
func mayDefine(src, attr []byte) bool {
	return spelled(src, attr, func(start, end int) bool {
		before := bytes.TrimRight(src[:start], " \t")
		if keywordEnds(before, "def") || keywordEnds(before, "class") {
			return true
		}
		after := bytes.TrimLeft(src[end:], " \t\r\n\\")
		if len(after) == 0 {
			return false
		}
		switch c := after[0]; {
		case bytes.IndexByte([]byte("=:#+-*/%&|^<>@"), c) >= 0:
			return true
		case c == ',' || c == ')' || c == ']':
			obj := bytes.TrimRight(src[:max(start-1, 0)], " \t")
			return start == 0 || src[start-1] != '.' || keywordEnds(obj, "self") || keywordEnds(obj, "cls")
		}
		return false
	})
}

// keywordEnds reports whether b ends with word as a whole name.
func keywordEnds(b []byte, word string) bool {
	return bytes.HasSuffix(b, []byte(word)) && (len(b) == len(word) || !identByte(b[len(b)-len(word)-1]))
}

// mayName reports whether src spells name where a class is named for collectClasses: in
// its class statement (class name) or as the object of C.attr = … (outside). A call of
// super().__init__(…) or a def __init__ does not.
func mayName(src, name []byte) bool {
	return spelled(src, name, func(start, end int) bool {
		before := bytes.TrimRight(src[:start], " \t\r\n\\")
		after := bytes.TrimLeft(src[end:], " \t\r\n\\")
		return len(after) > 0 && after[0] == '.' ||
			keywordEnds(before, "class")
	})
}

// inComment reports whether the byte at i follows a # on a line without quotes: a
// comment, or the inside of a multi-line string (a quote on the line could close a
// string before the # or open one: the line is then taken as code). Neither defines
// anything.
func inComment(src []byte, i int) bool {
	start := bytes.LastIndexByte(src[:i], '\n') + 1
	end := bytes.IndexByte(src[i:], '\n')
	if end < 0 {
		end = len(src) - i
	}
	line := src[start : i+end]
	return bytes.IndexByte(src[start:i], '#') >= 0 && !bytes.ContainsAny(line, `'"`)
}

// anywhere keeps every occurrence spelled finds.
func anywhere(int, int) bool { return true }

// spelled reports whether word occurs in src as a whole name outside a comment, at an
// occurrence for which keep is true.
func spelled(src, word []byte, keep func(start, end int) bool) bool {
	for i := 0; len(word) > 0; {
		k := bytes.Index(src[i:], word)
		if k < 0 {
			return false
		}
		start, end := i+k, i+k+len(word)
		i = start + 1
		if start > 0 && identByte(src[start-1]) || end < len(src) && identByte(src[end]) {
			continue
		}
		if !inComment(src, start) && keep(start, end) {
			return true
		}
	}
	return false
}

func identByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// namedClasses returns the project's classes named name, from the files that spell it
// as a class is spelled where it is defined (mayName).
func (j *job) namedClasses(name string) []*classInfo {
	if j.projClasses != nil {
		return j.projClasses[name]
	}
	pc, _ := j.projectIndex(func(src []byte) bool { return mayName(src, []byte(name)) })
	return pc[name]
}

// projectSources returns the content of the project's Python files in the head tree,
// in walk order.
func (j *job) projectSources() [][]byte {
	fsys := j.headFS()
	if fsys == nil {
		return nil
	}
	var out [][]byte
	_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil // an unreadable directory defines nothing we can see
		case d.IsDir() && p != "." && pyright.SkipDir(fsys, p):
			return fs.SkipDir
		case d.IsDir() || !d.Type().IsRegular() || path.Ext(p) != ".py":
			return nil
		}
		if src, err := fs.ReadFile(fsys, p); err == nil {
			out = append(out, src)
		}
		return nil
	})
	return out
}
