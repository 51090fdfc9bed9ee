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
	}{
		{"a_windows.go", "package a\n", load.Build{GOOS: "windows", GOARCH: host.GOARCH}, true},
		{"a.go", "//go:build darwin\n\npackage a\n", load.Build{GOOS: "darwin", GOARCH: host.GOARCH}, true},
		{"a.go", "// +build darwin\n\npackage a\n", load.Build{GOOS: "darwin", GOARCH: host.GOARCH}, true},
		{"a.go", "//go:build js && wasm\n\npackage a\n", load.Build{GOOS: "js", GOARCH: "wasm"}, true},
		{"a.go", "//go:build integration\n\npackage a\n", load.Build{GOOS: host.GOOS, GOARCH: host.GOARCH, Tags: []string{"integration"}}, true},
		{"a.go", "//go:build (a && !b) || c\n\npackage a\n", load.Build{GOOS: host.GOOS, GOARCH: host.GOARCH, Tags: []string{"a"}}, true},
		{"a.go", "//go:build ignore\n\npackage main\n", load.Build{}, false},
		{"a.go", "//go:build !ignore && darwin\n\npackage main\n", load.Build{}, false},
		{"a.go", "//go:build linux && windows\n\npackage a\n", load.Build{}, false},
		{"a.go", "//go:build !go1.1\n\npackage a\n", load.Build{}, false},
		{"a_windows.go", "//go:build linux\n\npackage a\n", load.Build{}, false},
		{"a_plan9.go", "package a\n", load.Build{}, false}, // not a supported port here
	}
	for _, c := range cases {
		got, ok := buildFor(readConstraint(c.name, []byte(c.src)), ports)
		if ok != c.ok || got.GOOS != c.want.GOOS || got.GOARCH != c.want.GOARCH || !slices.Equal(got.Tags, c.want.Tags) {
			t.Errorf("buildFor(%s, %q) = %+v, %v; want %+v, %v", c.name, c.src, got, ok, c.want, c.ok)
		}
	}
}

// A file the host builds is never handed to another configuration.
func TestHostMatches(t *testing.T) {
	for _, src := range []string{"package a\n", "//go:build !windows\n\npackage a\n", "//go:build " + host.GOOS + "\n\npackage a\n", "//go:build go1.21\n\npackage a\n"} {
		if !readConstraint("a.go", []byte(src)).matches(host) {
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
