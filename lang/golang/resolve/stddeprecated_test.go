package resolve

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
)

var updateDeprecations = flag.Bool("update", false, "rewrite stddeprecated_table.go from the installed toolchain")

// TestStdDeprecations keeps stddeprecated_table.go equal to what the installed toolchain's
// API manifests ($GOROOT/api) and sources ($GOROOT/src) say is deprecated, when the
// toolchain is the one the table was generated from. Run with -update after a toolchain
// bump (go generate ./lang/golang/resolve).
func TestStdDeprecations(t *testing.T) {
	if !*updateDeprecations && runtime.Version() != stdDeprecationsFrom {
		t.Skipf("the table is from %s, the toolchain is %s: run go generate ./lang/golang/resolve with the toolchain go.mod names", stdDeprecationsFrom, runtime.Version())
	}
	got := genStdDeprecations(t, build.Default.GOROOT)
	src := formatDeprecations(t, got, runtime.Version())
	if *updateDeprecations {
		if err := os.WriteFile("stddeprecated_table.go", src, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile("stddeprecated_table.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(src, want) {
		t.Errorf("stddeprecated_table.go is out of date with %s; run: go generate ./lang/golang/resolve", runtime.Version())
	}
}

// The table dates the deprecations models trip over at the release from which the
// replacement exists, and names the replacement.
func TestStdDeprecationExamples(t *testing.T) {
	for _, c := range []struct {
		key, repl string
		since     int
		same      bool
	}{
		{"io/ioutil.ReadAll", "io.ReadAll", 16, true},
		{"io/ioutil.ReadFile", "os.ReadFile", 16, true},
		{"io/ioutil.WriteFile", "os.WriteFile", 16, false}, // os.FileMode in one signature, fs.FileMode in the other
		{"math/rand.Seed", "", 20, false},
		{"strings.Title", "", 18, false},
		{"os.SEEK_SET", "io.SeekStart", 7, false},
	} {
		d, ok := stdDeprecated(c.key)
		if !ok || d.Repl != c.repl || d.Since != c.since || d.Same != c.same {
			t.Errorf("%s: %+v (found %v), want replacement %q since 1.%d same %v", c.key, d, ok, c.repl, c.since, c.same)
		}
	}
}

// genStdDeprecations builds the table from a GOROOT.
func genStdDeprecations(t *testing.T, goroot string) map[string]stdDeprecation {
	api := readStdAPI(filepath.Join(goroot, "api"))
	marked, catchUp := deprecationMarks(t, filepath.Join(goroot, "api"))
	sigs := manifestSigs(t, filepath.Join(goroot, "api"))
	docs := map[string]map[string]string{} // package path → key → note
	out := map[string]stdDeprecation{}
	for key, minor := range marked {
		pkg := pkgOfKey(key, api)
		if docs[pkg] == nil {
			docs[pkg] = packageNotes(filepath.Join(goroot, "src", filepath.FromSlash(pkg)))
		}
		note := docs[pkg][strings.TrimPrefix(key, pkg+".")]
		if note == "" {
			// No Deprecated: paragraph: a method the manifest lists under the type that
			// embeds its own (listed under that one), or a mark the doc no longer
			// supports (crypto/tls.ConnectionState.TLSUnique, un-deprecated).
			continue
		}
		d := stdDeprecation{Since: minor, Note: note}
		replacement(&d, pkg, key, api)
		// Same only where the manifests give both the same signature: then a use of one
		// type-checks as the other.
		d.Same = d.Same && sigs[key] != "" && sigs[key] == sigs[d.ReplPath+"."+d.ReplKey]
		if n := asOfGo(note); n > 0 && n < d.Since {
			d.Since = n
		}
		if d.ReplPath != "" {
			intro := api.since[d.ReplPath+"."+d.ReplKey]
			if catchUp[key] && intro < d.Since {
				d.Since = intro
			}
			d.Since = max(d.Since, intro)
		}
		out[key] = d
	}
	return out
}

// pkgOfKey splits "path.Key" at the package path the manifest knows.
func pkgOfKey(key string, api *stdAPI) string {
	for i := len(key) - 1; i > 0; i-- {
		if key[i] == '.' {
			if _, ok := api.members[key[:i]]; ok {
				return key[:i]
			}
		}
	}
	return key[:strings.IndexByte(key, '.')]
}

// deprecationMarks reads the " //deprecated" lines of the manifests: the release of each
// symbol's first mark, and which marks are Go 1.16's catch-up of earlier deprecations
// (no issue number).
func deprecationMarks(t *testing.T, dir string) (map[string]int, map[string]bool) {
	marked, catchUp := map[string]int{}, map[string]bool{}
	for _, f := range listManifests(dir) {
		b, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			decl, rest, ok := strings.Cut(line, " //deprecated")
			if !ok {
				continue
			}
			if i := strings.IndexByte(decl, ','); i < 0 || strings.IndexByte(decl[:i], '(') >= 0 {
				continue // a platform's line
			}
			pkg, key, _, ok := parseManifestLine(decl)
			k := pkg + "." + key
			if _, seen := marked[k]; ok && !seen {
				marked[k] = f.minor
				catchUp[k] = f.minor == 16 && !strings.Contains(rest, "#")
			}
		}
	}
	return marked, catchUp
}

// manifestSigs returns the declaration of each function, variable and constant of the
// manifests after its name ("(io.Reader) ([]uint8, error)"), as first listed.
func manifestSigs(t *testing.T, dir string) map[string]string {
	out := map[string]string{}
	for _, f := range listManifests(dir) {
		b, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if i := strings.IndexByte(line, ','); i < 0 || strings.IndexByte(line[:i], '(') >= 0 || strings.Contains(line, "//deprecated") {
				continue
			}
			pkg, key, _, ok := parseManifestLine(line)
			_, decl, _ := strings.Cut(line, ", ")
			kind, rest, _ := strings.Cut(decl, " ")
			if !ok || kind != "func" && kind != "var" && kind != "const" {
				continue
			}
			if _, seen := out[pkg+"."+key]; !seen {
				out[pkg+"."+key] = kind + qualify(strings.TrimPrefix(rest, key), pkgNameOf(pkg))
			}
		}
	}
	return out
}

var reUnqualified = regexp.MustCompile(`(^|[^.\w])([A-Z]\w*)`)

// qualify writes the package's own exported names in a manifest signature as other
// packages' signatures show them: "(Reader)" of package io as "(io.Reader)".
func qualify(sig, name string) string {
	return reUnqualified.ReplaceAllString(sig, "${1}"+name+".${2}")
}

// packageNotes returns the deprecation notes of a package's declarations by manifest key.
func packageNotes(dir string) map[string]string {
	out := map[string]string{}
	names, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	sort.Strings(names)
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for key, note := range fileNotes(f) {
			if _, ok := out[key]; !ok {
				out[key] = note
			}
		}
	}
	return out
}

// fileNotes returns the deprecation notes of a file's declarations by manifest key.
func fileNotes(f *ast.File) map[string]string {
	out := map[string]string{}
	declDocs(f, func(key string, _ *ast.Ident, docs ...*ast.CommentGroup) {
		if _, ok := out[key]; ok {
			return
		}
		for _, d := range docs {
			if n := deprecationNote(d); n != "" {
				out[key] = n
				return
			}
		}
	})
	return out
}

var reAsOf = regexp.MustCompile(`\b[Aa]s of Go 1\.(\d+)`)

// asOfGo returns N of "As of Go 1.N" in a note, or 0.
func asOfGo(note string) int {
	if m := reAsOf.FindStringSubmatch(note); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

// formatDeprecations renders the table as Go source.
func formatDeprecations(t *testing.T, m map[string]stdDeprecation, version string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by TestStdDeprecations (stddeprecated_test.go) from the API manifests and sources of %s; DO NOT EDIT.\n\n", version)
	b.WriteString("package resolve\n\n// stdDeprecationsFrom is the toolchain the table was generated from.\n")
	fmt.Fprintf(&b, "const stdDeprecationsFrom = %q\n\n", version)
	b.WriteString("// stdDeprecations holds the standard library's deprecated symbols by \"path.Key\".\nvar stdDeprecations = map[string]stdDeprecation{\n")
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		d := m[k]
		fmt.Fprintf(&b, "\t%q: {Since: %d, Note: %q", k, d.Since, d.Note)
		if d.Repl != "" {
			fmt.Fprintf(&b, ", Repl: %q, ReplPath: %q, ReplKey: %q", d.Repl, d.ReplPath, d.ReplKey)
		}
		if d.Same {
			b.WriteString(", Same: true")
		}
		b.WriteString("},\n")
	}
	b.WriteString("}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return src
}
