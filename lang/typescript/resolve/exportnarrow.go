package resolve

import (
	"github.com/agentverify/agentverify/lang/typescript/syntax"
	"github.com/agentverify/agentverify/lang/typescript/tsconfig"
	"io/fs"
	"slices"
	"strings"
)

// exportNarrowing narrows the check of a change that alters what its files export to
// the files the change reaches (importers.go), when every changed file's change can be
// put in exported names and every import of the project leads where the scan can
// follow it; else the whole project is checked.
func (j *job) exportNarrowing(g *group, content map[string][]byte) {
	c := g.config
	if !scannable(g) {
		return
	}
	fsys := j.headFS()
	e := newExportChange(fsys, j.req.Changes.Root, g, content)
	addedBy, ok := e.seed(g, content)
	if !ok {
		return
	}
	js := c.Options.AllowJs != nil && *c.Options.AllowJs
	specs, roots, err := readAll(fsys, c.Dir, js, c.Includes, includesHidden(c.IncludeList()), func(p string, data []byte) {
		for n, by := range addedBy {
			if p != by && !e.mentioned[n] && containsWord(data, n) {
				e.mentioned[n] = true
			}
		}
	})
	if err != nil {
		return
	}
	e.specs = specs
	for _, t := range g.targets {
		specs[t.f.Path] = specifiers(content[t.f.Path])
		if !e.newImportsKnown(t.f.Base, content[t.f.Path], t.f.Path, c.Includes) {
			return
		}
	}
	if e.leavesScan() || !e.follow() || e.reachesGlobals(roots, g) {
		return
	}
	reached, ok := e.inProgram(c.Includes, c.Files)
	if !ok {
		return
	}
	g.narrow, g.roots, g.reached = true, roots, reached
}

// inProgram lists the reached files the whole project's check holds: those it includes;
// one it does not include and no file may import is not in it, and is left out. ok is
// false for one some file may import: whether the whole project holds it is not known.
func (e *exportChange) inProgram(includes func(string) bool, files []string) (reached []string, ok bool) {
	for f := range e.checked {
		switch {
		case includes(f) || slices.Contains(files, f):
			reached = append(reached, f)
		case e.imported(f):
			return nil, false
		}
	}
	slices.Sort(reached)
	return reached, true
}

// imported reports whether a specifier of some file may lead to f.
func (e *exportChange) imported(f string) bool {
	for from, ss := range e.specs {
		for _, s := range ss {
			if from != f && e.reach.of(from, s).leads(f) {
				return true
			}
		}
	}
	return false
}

// scannable reports whether the scan can see every file g's project may hold and
// follow its resolution: no rootDirs or moduleSuffixes, no classic resolution, nothing
// included from outside its directory.
func scannable(g *group) bool {
	c := g.config
	if mayBeClassic(c.Options) {
		return false
	}
	for _, o := range []string{"rootdirs", "modulesuffixes"} {
		if _, ok := c.Set[o]; ok {
			return false
		}
	}
	for _, p := range append(c.IncludeList(), c.Files...) {
		if !within(p, c.Dir) {
			return false
		}
	}
	return true
}

// mayBeClassic reports whether a TypeScript before 6 may resolve the project's modules
// the classic way, which the reach does not follow: a bare specifier then names a file
// of any directory above the importer ("lib" → ./lib.ts, ../lib.ts, …). It is the
// default there for a module kind other than CommonJS, Node's and preserve.
func mayBeClassic(o tsconfig.Options) bool {
	switch strings.ToLower(o.ModuleResolution) {
	case "classic":
		return true
	case "":
		switch strings.ToLower(o.Module) {
		case "", "commonjs", "node16", "node18", "node20", "nodenext", "preserve":
			return o.Module == "" && !slices.Contains([]string{"", "es3", "es5"}, strings.ToLower(o.Target))
		}
		return true
	}
	return false
}

func newExportChange(fsys fs.FS, root string, g *group, content map[string][]byte) *exportChange {
	return &exportChange{reach: newReacher(fsys, root, g.config),
		paths: map[string]map[string]bool{}, checked: map[string]bool{}, trees: map[string]*syntax.Tree{},
		added: map[string]map[string]bool{}, mentioned: map[string]bool{},
		read: func(p string) ([]byte, error) {
			if data, ok := content[p]; ok {
				return data, nil
			}
			return fs.ReadFile(fsys, p)
		}}
}

// seed sets the names each changed file's exports changed and added; addedBy gives,
// for each added name, the file that adds it. ok is false when a change cannot be put
// in names.
func (e *exportChange) seed(g *group, content map[string][]byte) (addedBy map[string]string, ok bool) {
	addedBy = map[string]string{}
	for _, t := range g.targets {
		names, added, ok := changedExports(t.f, content[t.f.Path])
		if !ok {
			return nil, false
		}
		e.paths[t.f.Path], e.added[t.f.Path] = set(names), set(added)
		for _, n := range added {
			addedBy[n] = t.f.Path
		}
	}
	return addedBy, true
}

// reachesGlobals reports whether a reached file declares beyond its module: what it
// declares may now differ, for any file.
func (e *exportChange) reachesGlobals(roots []string, g *group) bool {
	for f := range e.checked {
		if slices.Contains(roots, f) && !e.augmentsChanged(f, g) {
			return true
		}
	}
	return false
}

func set(names []string) map[string]bool {
	out := make(map[string]bool, len(names))
	for _, n := range names {
		out[n] = true
	}
	return out
}

// augmentsChanged reports whether what makes the reached file f declare beyond its
// module is only augmentations of the changed modules, whose importers the change
// reaches anyway: not a script, `declare global`, a UMD global, a reference directive,
// or an augmentation of another module (whose importers would see the change).
func (e *exportChange) augmentsChanged(f string, g *group) bool {
	src := e.trees[f].Src
	if !moduleLine.Match(src) {
		return false
	}
	for _, m := range globalDecl.FindAllIndex(src, -1) {
		spec, ok := augmented(src, m)
		if !ok {
			return false
		}
		r := e.reach.of(f, spec)
		if !slices.ContainsFunc(g.targets, func(t *target) bool { return r.leads(t.f.Path) }) {
			return false
		}
	}
	return true
}

// augmented reads the module a `declare module "m"` match of globalDecl at m names; ok
// is false for any other match.
func augmented(src []byte, m []int) (string, bool) {
	text := string(src[m[0]:m[1]])
	if !strings.HasPrefix(text, "declare") || !strings.HasSuffix(text, "module") {
		return "", false
	}
	rest := strings.TrimLeft(string(src[m[1]:]), " \t\r\n")
	if rest == "" || rest[0] != '"' && rest[0] != '\'' {
		return "", false
	}
	end := strings.IndexByte(rest[1:], rest[0])
	if end < 0 {
		return "", false
	}
	return rest[1 : end+1], true
}

// leavesScan reports whether a file of the project may import a file outside the
// directory scanned (a JSON file aside: it imports nothing).
func (e *exportChange) leavesScan() bool {
	for f, ss := range e.specs {
		for _, s := range ss {
			if !strings.HasSuffix(s, ".json") && e.reach.of(f, s).outside {
				return true
			}
		}
	}
	return false
}

// newImportsKnown reports whether every module the head of the changed file at p
// imports and its base did not, or its base imported and its head does not, is in the
// whole project's program either way: a package another file of the project imports,
// or one of the project's files. A new one may declare globals every file sees; a
// module only this import held in the program may have declared globals other files
// use, gone with it.
func (e *exportChange) newImportsKnown(base, head []byte, p string, includes func(string) bool) bool {
	old, now := specifiers(base), specifiers(head)
	for _, s := range symmetricDifference(old, now) {
		if !e.known(p, s, includes) {
			return false
		}
	}
	return true
}

// symmetricDifference lists the strings in exactly one of the sorted lists a and b.
func symmetricDifference(a, b []string) []string {
	var out []string
	for _, s := range a {
		if _, found := slices.BinarySearch(b, s); !found {
			out = append(out, s)
		}
	}
	for _, s := range b {
		if _, found := slices.BinarySearch(a, s); !found {
			out = append(out, s)
		}
	}
	return out
}

func (e *exportChange) known(from, spec string, includes func(string) bool) bool {
	r := e.reach.of(from, spec)
	bare := len(r.stems) == 0 && len(r.dirs) == 0
	for f, ss := range e.specs {
		if f == from || !includes(f) {
			continue
		}
		if bare && slices.Contains(ss, spec) || !bare && r.leads(f) {
			return true
		}
	}
	return false
}
