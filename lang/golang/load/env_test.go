package load

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/lang/golang/goenv"
)

func TestEnvModFlag(t *testing.T) {
	vendorTxt := "# example.com/dep v1.0.0\n## explicit; go 1.20\nexample.com/dep\n"
	cases := []struct {
		name  string
		files map[string]string
		env   []string
		want  string
	}{
		{"plain module", map[string]string{"go.mod": "module m\n\ngo 1.22\n"}, nil, "-mod=readonly"},
		{"vendored, go 1.22", map[string]string{"go.mod": "module m\n\ngo 1.22\n", "vendor/modules.txt": vendorTxt}, nil, "-mod=vendor"},
		{"vendored, go 1.13", map[string]string{"go.mod": "module m\n\ngo 1.13\n", "vendor/modules.txt": vendorTxt}, nil, "-mod=readonly"},
		{"user -mod=vendor kept", map[string]string{"go.mod": "module m\n\ngo 1.13\n"}, []string{"GOFLAGS=-mod=vendor -tags=x"}, "-tags=x -mod=vendor"},
		{"user --mod=vendor kept", map[string]string{"go.mod": "module m\n\ngo 1.22\n"}, []string{"GOFLAGS=--mod=vendor"}, "-mod=vendor"},
		{"user -mod=mod never writes", map[string]string{"go.mod": "module m\n\ngo 1.22\n", "vendor/modules.txt": vendorTxt}, []string{"GOFLAGS=-mod=mod"}, "-mod=vendor"},
		{"user -mod=mod, no vendor", map[string]string{"go.mod": "module m\n\ngo 1.22\n"}, []string{"GOFLAGS=-mod=mod"}, "-mod=readonly"},
		{"workspace ignores module vendor", map[string]string{"go.work": "go 1.22\n\nuse ./a\n", "a/go.mod": "module a\n\ngo 1.22\n", "a/vendor/modules.txt": vendorTxt}, nil, "-mod=readonly"},
		{"workspace vendor", map[string]string{"go.work": "go 1.22\n\nuse ./a\n", "a/go.mod": "module a\n\ngo 1.22\n", "vendor/modules.txt": vendorTxt}, nil, "-mod=vendor"},
		{"GOWORK=off", map[string]string{"go.work": "go 1.22\n\nuse ./a\n", "a/go.mod": "module a\n\ngo 1.22\n", "a/vendor/modules.txt": vendorTxt}, []string{"GOWORK=off"}, "-mod=vendor"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := writeModule(t, c.files)
			dir := root
			if _, ok := c.files["a/go.mod"]; ok {
				dir = filepath.Join(root, "a")
			}
			t.Setenv("GOFLAGS", "")
			env := New(Options{Env: c.env}).Env(dir)
			if got := goenv.Last(env, "GOFLAGS"); got != c.want {
				t.Errorf("GOFLAGS = %q, want %q", got, c.want)
			}
			for _, kv := range []string{"GOPROXY=off", "GOTOOLCHAIN=local"} {
				k, _, _ := strings.Cut(kv, "=")
				if goenv.Last(env, k) != strings.TrimPrefix(kv, k+"=") || !slices.Contains(env, kv) {
					t.Errorf("%s not forced", kv)
				}
			}
		})
	}
}

// Only a cross build turns cgo off: a configuration naming the host's own port keeps it
// as the user has it.
func TestBuildEnvCgo(t *testing.T) {
	other := "windows"
	if runtime.GOOS == "windows" {
		other = "linux"
	}
	cases := []struct {
		b      Build
		cgoOff bool
	}{
		{Build{}, false},
		{Build{Tags: []string{"x"}}, false},
		{Build{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH}, false},
		{Build{GOOS: other, GOARCH: runtime.GOARCH}, true},
		{Build{GOOS: runtime.GOOS, GOARCH: "wasm"}, true},
	}
	for _, c := range cases {
		if got := slices.Contains(c.b.env(), "CGO_ENABLED=0"); got != c.cgoOff {
			t.Errorf("%+v: CGO_ENABLED=0 %v, want %v", c.b, got, c.cgoOff)
		}
	}
}
