package reader

import (
	"bufio"
	"bytes"
	"math/big"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// shape prints f in the notation of testdata/shapes.lisp. It reports false for forms
// whose SBCL value is not comparable: #. (evaluated by SBCL), #S, labels, and
// characters named by Unicode names.
func shape(f *Form, b *strings.Builder) bool {
	switch f.Kind {
	case List:
		return shapeList(f, b)
	case Vector:
		b.WriteString("#(")
		ok := shapeItems(f.Items, b)
		b.WriteByte(')')
		return ok
	case Symbol:
		shapeSymbol(f, b)
	case String:
		quoteShape(f.Name, b)
	case Integer, Ratio:
		return shapeRational(f, b)
	case Float:
		b.WriteString(floatType(f.Name))
	case Char:
		c, ok := f.CharCode()
		b.WriteString("CHAR" + strconv.Itoa(int(c)))
		return ok
	default:
		return shapeOther(f, b)
	}
	return true
}

func shapeOther(f *Form, b *strings.Builder) bool {
	wrap := map[Kind]string{Quote: "QUOTE", Function: "FUNCTION", Backquote: "QUASIQUOTE"}
	commas := map[Kind]string{Unquote: ",", UnquoteSplice: ",@", UnquoteNSplice: ",."}
	names := map[Kind]string{Array: "ARRAY", Complex: "COMPLEX", Pathname: "PATH", BitVector: "#*" + f.Name}
	switch {
	case wrap[f.Kind] != "":
		b.WriteString(`(S"` + wrap[f.Kind] + `" `)
		ok := shape(f.Items[0], b)
		b.WriteByte(')')
		return ok
	case commas[f.Kind] != "":
		b.WriteString(commas[f.Kind])
		return shape(f.Items[0], b)
	case names[f.Kind] != "":
		b.WriteString(names[f.Kind])
		return true
	}
	return false
}

func shapeItems(items []*Form, b *strings.Builder) bool {
	ok := true
	for i, x := range items {
		if i > 0 {
			b.WriteByte(' ')
		}
		ok = shape(x, b) && ok
	}
	return ok
}

// shapeList prints a list, splicing a dotted tail that is itself a list.
func shapeList(f *Form, b *strings.Builder) bool {
	items, tail := f.Items, f.Tail
	for tail != nil && tail.Kind == List {
		items, tail = append(items[:len(items):len(items)], tail.Items...), tail.Tail
	}
	if tail != nil && tail.IsSymbol("NIL") {
		tail = nil
	}
	if len(items) == 0 {
		b.WriteString("NIL")
		return true
	}
	b.WriteByte('(')
	ok := shapeItems(items, b)
	if tail != nil {
		b.WriteString(" . ")
		ok = shape(tail, b) && ok
	}
	b.WriteByte(')')
	return ok
}

func shapeSymbol(f *Form, b *strings.Builder) {
	switch {
	case f.IsSymbol("NIL"):
		b.WriteString("NIL")
		return
	case f.Package == Keyword:
		b.WriteByte('K')
	case f.Uninterned:
		b.WriteByte('U')
	default:
		b.WriteByte('S')
	}
	quoteShape(f.Name, b)
}

func quoteShape(s string, b *strings.Builder) {
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 32 || r > 126:
			b.WriteString(`\u{` + strings.ToUpper(strconv.FormatInt(int64(r), 16)) + "}")
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

// shapeRational prints an integer or ratio by value, as Lisp canonicalises it.
func shapeRational(f *Form, b *strings.Builder) bool {
	text := strings.TrimSuffix(f.Name, ".")
	num, den, _ := strings.Cut(text, "/")
	n, ok := new(big.Int).SetString(num, f.Radix)
	d := big.NewInt(1)
	if den != "" {
		d, ok = new(big.Int).SetString(den, f.Radix)
	}
	if !ok || d.Sign() == 0 {
		return false
	}
	r := new(big.Rat).SetFrac(n, d)
	if r.IsInt() {
		b.WriteString(r.Num().String())
	} else {
		b.WriteString(r.Num().String() + "/" + r.Denom().String())
	}
	return true
}

// floatType is the type SBCL gives a float: d and l markers make doubles, the others
// and none (*read-default-float-format*) singles.
func floatType(text string) string {
	if strings.ContainsAny(text, "dDlL") {
		return "DOUBLE-FLOAT"
	}
	return "SINGLE-FLOAT"
}

// sbclShapes runs testdata/shapes.lisp over files and returns each file's lines.
func sbclShapes(t *testing.T, files []string) map[string][]string {
	cmd := exec.Command("sbcl", "--script", "testdata/shapes.lisp")
	cmd.Args = append(cmd.Args, files...)
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sbcl --script testdata/shapes.lisp: %v\n%s", err, out)
	}
	_, body, found := bytes.Cut(out, []byte("BEGIN\n"))
	if !found {
		t.Fatalf("no BEGIN in SBCL's output:\n%s", out)
	}
	shapes := map[string][]string{}
	var cur string
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "FILE "); ok {
			cur = name
			shapes[cur] = []string{}
			continue
		}
		shapes[cur] = append(shapes[cur], line)
	}
	return shapes
}

// TestSBCLOracle reads testdata/oracle.lisp and every file of alexandria with SBCL and
// with this reader and compares the forms.
func TestSBCLOracle(t *testing.T) {
	if _, err := exec.LookPath("sbcl"); err != nil {
		t.Skip("sbcl is not on PATH; install sbcl: apt-get install sbcl")
	}
	if testing.Short() {
		t.Skip("starting SBCL and loading alexandria takes seconds; skipped in -short")
	}
	files, least := []string{"testdata/oracle.lisp"}, 15
	if _, err := os.Stat(alexandriaDir); err == nil {
		least = 450
		for _, f := range alexandriaFiles(t) {
			if strings.HasSuffix(f, ".lisp") {
				files = append(files, f)
			}
		}
	}
	want := sbclShapes(t, files)
	compared := 0
	for _, file := range files {
		compared += compareFile(t, file, want[file])
	}
	if compared < least {
		t.Errorf("only %d forms compared", compared)
	}
}

// compareFile compares the shapes of file's forms with SBCL's lines and returns how many
// forms it compared.
func compareFile(t *testing.T, file string, lines []string) int {
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// Loading alexandria pushes this feature (SBCL has sequence:emptyp).
	f := Read(src, Options{Features: append(DefaultFeatures(), "ALEXANDRIA::SEQUENCE-EMPTYP")})
	if len(f.Errors) > 0 {
		t.Errorf("%s: %v", file, f.Errors)
	}
	if len(lines) > 0 && strings.HasPrefix(lines[len(lines)-1], "ERROR") {
		t.Errorf("%s: SBCL: %s", file, lines[len(lines)-1])
	}
	if len(lines) != len(f.Forms) {
		t.Errorf("%s: SBCL reads %d forms, this reader %d", file, len(lines), len(f.Forms))
	}
	n := 0
	for i := 0; i < min(len(lines), len(f.Forms)); i++ {
		var b strings.Builder
		if !shape(f.Forms[i], &b) {
			continue
		}
		n++
		if b.String() != lines[i] {
			t.Errorf("%s:%d: form %d differs\n got %s\nsbcl %s", file, f.Forms[i].Span.Start.Line, i, b.String(), lines[i])
		}
	}
	return n
}
