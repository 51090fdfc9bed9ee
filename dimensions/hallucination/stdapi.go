package hallucination

import (
	"bufio"
	"go/build"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// stdAPI is the exported API of the standard library of the installed toolchain, read
// from its API manifest ($GOROOT/api/go1*.txt, the data of Go's own API checker): for each
// symbol the release that introduced it, and for each package its exported members.
type stdAPI struct {
	// since maps "path.Name", "path.Type.Method" and "path.Type.Field" to the minor
	// release that introduced it (0 for Go 1.0).
	since map[string]int
	// members maps a package path to its exported package-level names, sorted.
	members map[string][]string
	// byName maps a package name to the paths of the packages with that name, sorted.
	byName map[string][]string
}

// loadStdAPI reads the manifest once per process: it describes the installed toolchain,
// which does not change while the process runs, and is read-only once built.
var loadStdAPI = sync.OnceValue(func() *stdAPI {
	return readStdAPI(filepath.Join(build.Default.GOROOT, "api"))
})

// readStdAPI parses the manifest files in dir; a missing or unreadable directory gives an
// empty API (every lookup then fails, so nothing is reported as too new).
func readStdAPI(dir string) *stdAPI {
	api := &stdAPI{since: map[string]int{}, members: map[string][]string{}, byName: map[string][]string{}}
	files, _ := filepath.Glob(filepath.Join(dir, "go1*.txt"))
	seen := map[string]bool{}
	for _, f := range files {
		minor, ok := manifestMinor(filepath.Base(f))
		if ok {
			api.readFile(f, minor, seen)
		}
	}
	for p := range api.members {
		sort.Strings(api.members[p])
		name := pkgNameOf(p)
		api.byName[name] = append(api.byName[name], p)
	}
	for n := range api.byName {
		sort.Strings(api.byName[n])
	}
	return api
}

// manifestMinor returns N for "go1.N.txt" and 0 for "go1.txt".
func manifestMinor(base string) (int, bool) {
	v := strings.TrimSuffix(strings.TrimPrefix(base, "go1"), ".txt")
	if v == "" {
		return 0, true
	}
	n, err := strconv.Atoi(strings.TrimPrefix(v, "."))
	return n, err == nil && strings.HasPrefix(v, ".")
}

// pkgNameOf returns the name of a standard-library package from its path (the last
// element, skipping a major-version suffix such as math/rand/v2).
func pkgNameOf(p string) string {
	elems := strings.Split(p, "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		last = elems[len(elems)-2]
	}
	return last
}

func (api *stdAPI) readFile(name string, minor int, seen map[string]bool) {
	f, err := os.Open(name)
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		pkg, key, member, ok := parseManifestLine(sc.Text())
		if !ok {
			continue
		}
		k := pkg + "." + key
		if v, ok := api.since[k]; !ok || minor < v {
			api.since[k] = minor
		}
		if member != "" && !seen[pkg+"."+member] {
			seen[pkg+"."+member] = true
			api.members[pkg] = append(api.members[pkg], member)
		}
	}
}

// parseManifestLine parses one manifest line, such as
//
//	pkg strings, func Cut(string, string) (string, string, bool) #46336
//	pkg sync, method (*WaitGroup) Go(func()) #63796
//	pkg net/http, type Server struct, Protocols *Protocols #67814
//
// into the package path, the symbol key ("Cut", "WaitGroup.Go", "Server.Protocols") and
// the package-level member it declares ("" for methods and fields).
func parseManifestLine(line string) (pkg, key, member string, ok bool) {
	rest, ok := strings.CutPrefix(line, "pkg ")
	if !ok {
		return "", "", "", false
	}
	pkg, rest, ok = strings.Cut(rest, ", ")
	if !ok {
		return "", "", "", false
	}
	pkg, _, _ = strings.Cut(pkg, " ") // "syscall (windows-386)"
	kind, rest, _ := strings.Cut(rest, " ")
	switch kind {
	case "func", "const", "var":
		name := identPrefix(rest)
		return pkg, name, name, name != ""
	case "method":
		recv, after, _ := strings.Cut(strings.TrimPrefix(rest, "("), ") ")
		recv = identPrefix(strings.TrimPrefix(recv, "*"))
		return pkg, recv + "." + identPrefix(after), "", recv != ""
	case "type":
		name := identPrefix(rest)
		if _, field, hasField := strings.Cut(rest, ", "); hasField {
			// a struct field or an interface method; embedded ones are spelt "embedded T"
			if emb, isEmb := strings.CutPrefix(field, "embedded "); isEmb {
				emb = strings.TrimPrefix(emb, "*")
				field = emb[strings.LastIndexByte(emb, '.')+1:]
			}
			return pkg, name + "." + identPrefix(field), "", name != ""
		}
		return pkg, name, name, name != ""
	}
	return "", "", "", false
}

// identPrefix returns the leading Go identifier of s.
func identPrefix(s string) string {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r > 0x7f) {
			return s[:i]
		}
	}
	return s
}

// version returns the minor release that introduced key ("strings.Cut" with its path:
// "net/http.Server.Protocols"), and false when the manifest does not list it.
func (api *stdAPI) version(key string) (int, bool) {
	v, ok := api.since[key]
	return v, ok
}
