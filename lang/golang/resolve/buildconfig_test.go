package resolve

import (
	"slices"
	"testing"

	"github.com/agentverify/agentverify/lang/golang/load"
)

func TestNameOSArch(t *testing.T) {
	cases := []struct{ name, goos, arch string }{
		{"x.go", "", ""},
		{"windows.go", "", ""}, // the part before the first underscore never counts
		{"x_windows.go", "windows", ""},
		{"x_windows_test.go", "windows", ""},
		{"x_arm64.go", "", "arm64"},
		{"x_linux_arm64.go", "linux", "arm64"},
		{"x_linux_arm64_test.go", "linux", "arm64"},
		{"x_foo.go", "", ""},
		{"syscall_linux_foo.go", "", ""},
	}
	for _, c := range cases {
		if goos, arch := nameOSArch(c.name); goos != c.goos || arch != c.arch {
			t.Errorf("nameOSArch(%q) = %q, %q; want %q, %q", c.name, goos, arch, c.goos, c.arch)
		}
	}
}

func TestBuildFor(t *testing.T) {
	ports := map[string]bool{"linux/amd64": true, "linux/arm64": true, "windows/amd64": true, "windows/arm64": true,
		"darwin/arm64": true, "darwin/amd64": true, "js/wasm": true, "freebsd/amd64": true}
	host := host // the test runs on the host the dimension uses
	cases := []struct {
		name, src string
		want      load.Build
		ok        bool
		release   int
	}{
		{"a_windows.go", "package a\n", load.Build{GOOS: "windows", GOARCH: host.GOARCH}, true, 0},
		{"a.go", "//go:build darwin\n\npackage a\n", load.Build{GOOS: "darwin", GOARCH: host.GOARCH}, true, 0},
		{"a.go", "// +build darwin\n\npackage a\n", load.Build{GOOS: "darwin", GOARCH: host.GOARCH}, true, 0},
		{"a.go", "//go:build js && wasm\n\npackage a\n", load.Build{GOOS: "js", GOARCH: "wasm"}, true, 0},
		{"a.go", "//go:build integration\n\npackage a\n", load.Build{GOOS: host.GOOS, GOARCH: host.GOARCH, Tags: []string{"integration"}}, true, 0},
		{"a.go", "//go:build (a && !b) || c\n\npackage a\n", load.Build{GOOS: host.GOOS, GOARCH: host.GOARCH, Tags: []string{"a"}}, true, 0},
		{"a.go", "//go:build ignore\n\npackage main\n", load.Build{}, false, 0},
		{"a.go", "//go:build !ignore && darwin\n\npackage main\n", load.Build{}, false, 0},
		{"a.go", "//go:build linux && windows\n\npackage a\n", load.Build{}, false, 0},
		{"a.go", "//go:build !go1.1\n\npackage a\n", load.Build{}, false, 0},
		// A fallback for older releases is built as the last release without the tag.
		{"a.go", "//go:build !go1.21\n\npackage a\n", load.Build{GOOS: host.GOOS, GOARCH: host.GOARCH}, true, 20},
		{"a.go", "//go:build go1.18 && !go1.21\n\npackage a\n", load.Build{GOOS: host.GOOS, GOARCH: host.GOARCH}, true, 20},
		{"a.go", "//go:build !go1.18 || !go1.21\n\npackage a\n", load.Build{GOOS: host.GOOS, GOARCH: host.GOARCH}, true, 20},
		{"a.go", "//go:build go1.21 && !go1.18\n\npackage a\n", load.Build{}, false, 0},
		{"a_windows.go", "//go:build linux\n\npackage a\n", load.Build{}, false, 0},
		{"a_plan9.go", "package a\n", load.Build{}, false, 0}, // not a supported port here
	}
	for _, c := range cases {
		got, ok := buildFor(readConstraint(c.name, []byte(c.src)), platform{ports: ports})
		if ok != c.ok || got.GOOS != c.want.GOOS || got.GOARCH != c.want.GOARCH || !slices.Equal(got.Tags, c.want.Tags) || got.release != c.release {
			t.Errorf("buildFor(%s, %q) = %+v, %v; want %+v, %v", c.name, c.src, got, ok, c.want, c.ok)
		}
	}
}

// A cgo file is built on the host's own port with cgo on, where cgo is on for the host;
// the loader is handed no GOOS or GOARCH for it, so it does not turn cgo off.
func TestBuildForCgo(t *testing.T) {
	ports := map[string]bool{host.GOOS + "/" + host.GOARCH: true, "windows/amd64": true}
	fc := readConstraint("a_test.go", []byte("//go:build cgo && sometag\n\npackage a\n"))
	c, ok := buildFor(fc, platform{ports: ports, cgo: true})
	if !ok || !c.isHost() || !slices.Equal(c.Tags, []string{"sometag"}) {
		t.Fatalf("buildFor with cgo = %+v, %v; want the host with -tags=sometag", c, ok)
	}
	if b := loadBuild(c); b.GOOS != "" || b.GOARCH != "" {
		t.Errorf("loadBuild(%+v) = %+v: a cross build, cgo off", c, b)
	}
	if c, ok := buildFor(fc, platform{ports: ports}); ok {
		t.Errorf("buildFor without cgo = %+v: no configuration has cgo", c)
	}
	if c, _ := buildFor(fc, platform{ports: ports, cgo: true}); !fc.matches(c, true) || readConstraint("a.go", []byte("//go:build cgo\n\npackage a\n")).matches(host, false) {
		t.Error("cgo holds on the host only where cgo is on")
	}
}

// A file the host builds is never handed to another configuration.
func TestHostMatches(t *testing.T) {
	for _, src := range []string{"package a\n", "//go:build !windows\n\npackage a\n", "//go:build " + host.GOOS + "\n\npackage a\n", "//go:build go1.21\n\npackage a\n"} {
		if !readConstraint("a.go", []byte(src)).matches(host, false) {
			t.Errorf("host build excludes %q", src)
		}
	}
}

func TestParseManifestLine(t *testing.T) {
	cases := []struct{ line, pkg, key, member string }{
		{"pkg strings, func Cut(string, string) (string, string, bool) #46336", "strings", "Cut", "Cut"},
		{"pkg sync, method (*WaitGroup) Go(func()) #63796", "sync", "WaitGroup.Go", ""},
		{"pkg net/http, type Server struct, Protocols *Protocols #67814", "net/http", "Server.Protocols", ""},
		{"pkg syscall (windows-386), const AF_INET6 = 23", "syscall", "AF_INET6", "AF_INET6"},
		{"pkg math/rand/v2, func IntN(int) int #61716", "math/rand/v2", "IntN", "IntN"},
		{"pkg sync/atomic, method (*Pointer[$0]) Load() *$0 #47141", "sync/atomic", "Pointer.Load", ""},
		{"pkg sync/atomic, type Pointer[$0 interface{}] struct #47141", "sync/atomic", "Pointer", "Pointer"},
		{"pkg crypto/cipher, type AEAD interface, NonceSize() int", "crypto/cipher", "AEAD.NonceSize", ""},
		{"pkg go/ast, type Field struct, embedded Node", "go/ast", "Field.Node", ""},
		{"pkg io, var EOF error", "io", "EOF", "EOF"},
	}
	for _, c := range cases {
		pkg, key, member, ok := parseManifestLine(c.line)
		if !ok || pkg != c.pkg || key != c.key || member != c.member {
			t.Errorf("parseManifestLine(%q) = %q %q %q %v", c.line, pkg, key, member, ok)
		}
	}
	for _, bad := range []string{"", "# comment", "pkg strings", "pkg x, unknown Y"} {
		if _, _, _, ok := parseManifestLine(bad); ok {
			t.Errorf("parseManifestLine(%q) accepted", bad)
		}
	}
}

// The manifest of the installed toolchain knows the releases of a few well-known symbols.
func TestStdAPIVersions(t *testing.T) {
	api := loadStdAPI()
	for key, want := range map[string]int{"strings.Cut": 18, "strings.Contains": 0, "sync.WaitGroup.Go": 25, "slices.Sorted": 23, "net/http.Server.ReadHeaderTimeout": 8} {
		if got, ok := api.since[key]; !ok || got != want {
			t.Errorf("since[%s] = %d, %v; want %d", key, got, ok, want)
		}
		if got, ok := introduced(key, want-1); want > 0 && (!ok || got != want) {
			t.Errorf("introduced(%s, %d) = %d, %v; want %d", key, want-1, got, ok, want)
		}
		if _, ok := introduced(key, want); ok {
			t.Errorf("introduced(%s, %d) reports it too new", key, want)
		}
	}
	if got := api.byName["rand"]; !slices.Equal(got, []string{"crypto/rand", "math/rand", "math/rand/v2"}) {
		t.Errorf("byName[rand] = %v", got)
	}
}

// asRelease renames, on every constraint line of the header and in place, the release
// tags an older release does not set, each to a tag of its own.
func TestAsRelease(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"//go:build !go1.21\n// +build !go1.21\n\npackage p\n", "//go:build !agentverify_go1.21\n// +build !agentverify_go1.21\n\npackage p\n"},
		{"// +build !go1.21,linux\n// +build go1.19 !go1.22\n\npackage p\n", "// +build !agentverify_go1.21,linux\n// +build go1.19 !agentverify_go1.22\n\npackage p\n"},
		{"//go:build (go1.18 || xgo1.21) && !go1.21\n\npackage p // go1.22\n\n//go:build go1.22\n", "//go:build (go1.18 || xgo1.21) && !agentverify_go1.21\n\npackage p // go1.22\n\n//go:build go1.22\n"},
		{"//go:build go1.20\n\npackage p\n", ""},
		{"package p\n", ""},
	} {
		out, changed := asRelease([]byte(c.src), 20)
		if string(out) != c.want || changed != (c.want != "") {
			t.Errorf("asRelease(%q) = %q, %v; want %q", c.src, out, changed, c.want)
		}
	}
}
