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
	j.parseFiles(want)
	for i, f := range pf.parsed {
		if f == nil || !want(pf.srcs[i]) {
			continue
		}
		for _, c := range f.classes {
			pc[c.name] = append(pc[c.name], c.info)
		}
		sa.merge(f.sets)
	}
	return pc, sa
}

// parseFiles parses the project files for which want is true and that are not parsed
// yet, on every core.
func (j *job) parseFiles(want func(src []byte) bool) {
	pf := j.files()
	var todo []int
	for i, src := range pf.srcs {
		if pf.parsed[i] == nil && want(src) {
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
// that mention attr (every attribute a class defines or setattr sets with a literal name
// is spelled in its file's bytes), that call setattr (a computed name, or an escaped
// literal), that update an object's __dict__ or vars(), and, from class up through the
// bases found, that mention each class name (a class statement, and C.attr = … outside
// it, spell the name). What definedOn answers from it is what it answers from the whole
// project's index.
func (j *job) definingIndex(class, attr string) (projectClasses, setAttrs) {
	return j.familyIndex(class, attr, false)
}

// familyIndex is definingIndex, and with down also the files of the classes deriving from
// class (a subclass's class statement mentions its base), then of their bases: every
// class the mixin check (mixinMember) looks at has every class of its ancestors' names
// in the index.
func (j *job) familyIndex(class, attr string, down bool) (projectClasses, setAttrs) {
	names, derived := map[string]bool{class: true}, map[string]bool{class: true}
	mentions := func(src []byte) bool {
		if bytes.Contains(src, []byte(attr)) || bytes.Contains(src, []byte("setattr")) ||
			bytes.Contains(src, []byte("update")) && (bytes.Contains(src, []byte("__dict__")) || bytes.Contains(src, []byte("vars"))) {
			return true
		}
		for n := range names {
			if bytes.Contains(src, []byte(n)) {
				return true
			}
		}
		return false
	}
	for {
		pc, sa := j.projectIndex(mentions)
		grown := false
		for n, infos := range pc {
			for _, c := range infos {
				for _, b := range c.bases {
					if names[n] && !names[b] {
						names[b], grown = true, true // a base of a class of the family
					}
					if down && derived[b] && !derived[n] {
						derived[n], names[n], grown = true, true, true // a class deriving from class
					}
				}
			}
		}
		if !grown {
			return pc, sa
		}
	}
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
