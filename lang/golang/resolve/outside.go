package resolve

import (
	"fmt"
	"path"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
)

// outsideFindings reports the local directories a changed go.mod or go.work puts into the
// build that lie outside the repository. Only directives the base did not have count
// (in check mode, every one).
func outsideFindings(f *change.File) []lang.Problem {
	if f.Head == nil {
		return nil
	}
	head := localDirs(f.Path, f.Head)
	base := map[string]bool{}
	for _, d := range localDirs(f.Path, f.Base) {
		base[d.dir] = true
	}
	var out []lang.Problem
	for _, d := range head {
		if base[d.dir] || !outside(path.Dir(f.Path), d.dir) {
			continue
		}
		out = append(out, lang.Problem{
			Kind:       OutsideRepository,
			Location:   lang.Location{File: f.Path, Line: max(d.line, 1)},
			Message:    fmt.Sprintf("%s %s %s, a directory outside the repository: the build would depend on code that is not in the change and that CI does not have", path.Base(f.Path), d.verb, d.dir),
			Suggestion: "require a published version of the module instead, or move the code into the repository",
			Symbol:     f.Path + ":" + d.dir,
			Introduced: true,
		})
	}
	return out
}

// localDir is a directory a go.mod or go.work directive names.
type localDir struct {
	dir, verb string
	line      int
}

// localDirs returns the local directories of the replace directives of a go.mod, or of
// the use and replace directives of a go.work; nothing when the file does not parse (the
// syntax error is reported on its own).
func localDirs(name string, data []byte) []localDir {
	if data == nil {
		return nil
	}
	var out []localDir
	addReplace := func(reps []*modfile.Replace) {
		for _, r := range reps {
			if r.New.Version == "" && modfile.IsDirectoryPath(r.New.Path) {
				out = append(out, localDir{dir: r.New.Path, verb: "replaces " + r.Old.Path + " with", line: line(r.Syntax)})
			}
		}
	}
	if path.Base(name) == "go.work" {
		wf, err := modfile.ParseWork(name, data, nil)
		if err != nil {
			return nil
		}
		for _, u := range wf.Use {
			out = append(out, localDir{dir: u.Path, verb: "uses", line: line(u.Syntax)})
		}
		addReplace(wf.Replace)
		return out
	}
	mf, err := modfile.Parse(name, data, nil)
	if err != nil {
		return nil
	}
	addReplace(mf.Replace)
	return out
}

func line(l *modfile.Line) int {
	if l == nil {
		return 1
	}
	return l.Start.Line
}

// outside reports whether dir, as written in a file of the repository directory from,
// leaves the repository.
func outside(from, dir string) bool {
	dir = strings.ReplaceAll(dir, `\`, "/")
	if path.IsAbs(dir) || len(dir) > 1 && dir[1] == ':' {
		return true
	}
	return strings.HasPrefix(path.Join(from, dir)+"/", "../")
}
