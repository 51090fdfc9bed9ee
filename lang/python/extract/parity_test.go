package extract

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// mccabeDriver prints, for each file named on stdin, every graph mccabe's own visitor
// builds (what `python3 -m mccabe --min 1 FILE` prints) as "file<TAB>line<TAB>entity<TAB>
// complexity". Files the interpreter cannot compile are skipped, as mccabe skips them.
const mccabeDriver = `
import ast, sys, mccabe
for path in sys.stdin.read().split("\n"):
    if not path:
        continue
    try:
        tree = compile(mccabe._read(path), path, "exec", ast.PyCF_ONLY_AST)
    except (SyntaxError, ValueError):
        continue
    v = mccabe.PathGraphingAstVisitor()
    v.preorder(tree, v)
    for g in v.graphs.values():
        print("%s\t%d\t%s\t%d" % (path, g.lineno, g.entity, g.complexity()))
`

// mccabePython returns an interpreter that can import mccabe, or skips the test.
func mccabePython(t testing.TB) string {
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(py, "-c", "import mccabe").Run() == nil {
			return py
		}
	}
	t.Skip("install python3-mccabe: apt-get install python3-mccabe")
	return ""
}

// stdlibFiles returns the top-level modules of the interpreter's standard library, a
// real Python code base shipped by Debian.
func stdlibFiles(t *testing.T, py string) []string {
	out, err := exec.Command(py, "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])").Output()
	if err != nil {
		t.Fatalf("locating the standard library: %v", err)
	}
	files, err := filepath.Glob(filepath.Join(strings.TrimSpace(string(out)), "*.py"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no standard-library modules found (err %v)", err)
	}
	sort.Strings(files)
	return files
}

type mccabeRow struct {
	file, entity string
	line, value  int
}

func runMcCabe(t *testing.T, py string, files []string) []mccabeRow {
	cmd := exec.Command(py, "-c", mccabeDriver)
	cmd.Stdin = strings.NewReader(strings.Join(files, "\n"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("mccabe: %v\n%s", err, stderr.String())
	}
	var rows []mccabeRow
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 4 {
			t.Fatalf("mccabe printed %q", sc.Text())
		}
		line, _ := strconv.Atoi(f[1])
		v, _ := strconv.Atoi(f[3])
		rows = append(rows, mccabeRow{f[0], f[2], line, v})
	}
	return rows
}

// TestMcCabeParity checks that Cyclomatic equals mccabe's number for every function
// mccabe reports in the standard library's top-level modules. mccabe also reports
// module-level if, loop and try statements ("If 12"); those are not functions. It does
// not report functions defined inside a module-level if, loop or try (they count toward
// that statement's graph), so those are not compared. Every file mccabe could compile
// must parse without syntax errors.
func TestMcCabeParity(t *testing.T) {
	py := mccabePython(t)
	files := stdlibFiles(t, py)
	if testing.Short() && len(files) > 12 {
		files = files[:12]
	}
	rows := runMcCabe(t, py, files)
	parsed := map[string]map[string]int{} // file → "line entity" → cyclomatic
	compared, equal := 0, 0
	for _, r := range rows {
		if strings.Contains(r.entity, " ") {
			continue // a module-level statement's graph
		}
		if parsed[r.file] == nil {
			parsed[r.file] = cyclomatics(t, r.file)
		}
		got, ok := parsed[r.file][fmt.Sprintf("%d %s", r.line, r.entity)]
		compared++
		switch {
		case !ok:
			t.Errorf("%s:%d: mccabe reports %s (%d); the frontend has no such function", r.file, r.line, r.entity, r.value)
		case got != r.value:
			t.Errorf("%s:%d: %s: cyclomatic %d, mccabe %d", r.file, r.line, r.entity, got, r.value)
		default:
			equal++
		}
	}
	t.Logf("%d files, %d functions compared, %d equal", len(parsed), compared, equal)
	if compared == 0 {
		t.Fatal("mccabe reported no function")
	}
}

// cyclomatics parses one file with the frontend: the cyclomatic number of each
// function by "line name", line being the def keyword's.
func cyclomatics(t *testing.T, path string) map[string]int {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lf, err := parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range lf.SyntaxErrors { // the interpreter compiled it
		t.Errorf("%s:%d:%d: false syntax error: %s", path, e.Pos.Line, e.Pos.Column, e.Message)
	}
	out := map[string]int{}
	for _, d := range lf.Decls {
		if d.Metrics != nil {
			out[fmt.Sprintf("%d %s", d.NamePos.Line, d.Name)] = d.Metrics.Cyclomatic
		}
	}
	return out
}
