package resolve

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

// manifestFile is one go1.N.txt, parsed on first use: a check of a go 1.22 module reads
// only the few files of later releases unless it finds a candidate.
type manifestFile struct {
	minor int
	path  string
	once  sync.Once
	keys  map[string]bool     // symbol keys, as in stdAPI.since
	mem   map[string][]string // package path → package-level names
}

func (f *manifestFile) load() *manifestFile {
	f.once.Do(func() { f.keys, f.mem = readManifest(f.path) })
	return f
}

// manifests are the toolchain's manifest files by minor release, read once per process:
// they describe the installed toolchain, which does not change while the process runs,
// and are read-only once parsed.
var manifests = sync.OnceValue(func() []*manifestFile {
	return listManifests(filepath.Join(build.Default.GOROOT, "api"))
})

// listManifests lists the go1*.txt files of dir by minor release; a missing directory
// gives none (then nothing is known, and nothing is reported as too new).
func listManifests(dir string) []*manifestFile {
	files, _ := filepath.Glob(filepath.Join(dir, "go1*.txt"))
	var out []*manifestFile
	for _, f := range files {
		if minor, ok := manifestMinor(filepath.Base(f)); ok {
			out = append(out, &manifestFile{minor: minor, path: f})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].minor < out[j].minor })
	return out
}

// introduced returns the release that introduced key when it is later than minor: key is
// listed by a later release and by none up to minor.
func introduced(key string, minor int) (int, bool) {
	files := manifests()
	first := -1
	for _, f := range files {
		if f.minor > minor && f.load().keys[key] {
			first = f.minor
			break
		}
	}
	if first < 0 {
		return 0, false
	}
	for _, f := range files {
		if f.minor <= minor && f.load().keys[key] {
			return 0, false
		}
	}
	return first, true
}

// loadStdAPI returns the whole manifest: every file parsed, merged.
var loadStdAPI = sync.OnceValue(func() *stdAPI {
	return mergeManifests(manifests())
})

// readStdAPI parses the manifest files in dir (for tests of another directory).
func readStdAPI(dir string) *stdAPI { return mergeManifests(listManifests(dir)) }

func mergeManifests(files []*manifestFile) *stdAPI {
	api := &stdAPI{since: map[string]int{}, members: map[string][]string{}, byName: map[string][]string{}}
	seen := map[string]bool{}
	for _, f := range files { // by release, so the first listing wins
		f.load()
		for k := range f.keys {
			if _, ok := api.since[k]; !ok {
				api.since[k] = f.minor
			}
		}
		for p, names := range f.mem {
			for _, n := range names {
				if !seen[p+"."+n] {
					seen[p+"."+n] = true
					api.members[p] = append(api.members[p], n)
				}
			}
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

// readManifest parses one manifest file into its symbol keys and package members.
// Platform-specific lines ("pkg syscall (windows-386), …") are skipped: they are most of
// the manifest, nearly all syscall constants, and the portable lines date the rest.
func readManifest(name string) (map[string]bool, map[string][]string) {
	keys, mem := map[string]bool{}, map[string][]string{}
	f, err := os.Open(name)
	if err != nil {
		return keys, mem
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sc.Text()
		if i := strings.IndexByte(line, ','); i < 0 || strings.IndexByte(line[:i], '(') >= 0 {
			continue
		}
		pkg, key, member, ok := parseManifestLine(line)
		if !ok {
			continue
		}
		keys[pkg+"."+key] = true
		if member != "" {
			mem[pkg] = append(mem[pkg], member)
		}
	}
	return keys, mem
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
