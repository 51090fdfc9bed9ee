package goenv

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"
)

func TestLast(t *testing.T) {
	env := []string{"GOFLAGS=-a", "GOFLAGSX=no", "GOFLAGS=-mod=mod", "EMPTY="}
	for key, want := range map[string]string{"GOFLAGS": "-mod=mod", "GOFLAGSX": "no", "EMPTY": "", "UNSET": ""} {
		if got := Last(env, key); got != want {
			t.Errorf("Last(%s) = %q, want %q", key, got, want)
		}
	}
}

func TestFileAndRead(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		t.Skip("the config directory of this test is the XDG one")
	}
	home := t.TempDir()
	cfg := filepath.Join(home, ".config")
	file := filepath.Join(cfg, "go", "env")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("# comment\nGOPROXY=off\n\nGOFLAGS=-mod=mod\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	explicit := filepath.Join(t.TempDir(), "env")
	cases := []struct {
		name string
		env  []string
		file string
		want map[string]string
	}{
		{"XDG_CONFIG_HOME", []string{"HOME=" + t.TempDir(), "XDG_CONFIG_HOME=" + cfg}, file, map[string]string{"GOPROXY": "off", "GOFLAGS": "-mod=mod"}},
		{"HOME/.config", []string{"HOME=" + home}, file, map[string]string{"GOPROXY": "off", "GOFLAGS": "-mod=mod"}},
		{"GOENV names the file", []string{"XDG_CONFIG_HOME=" + cfg, "GOENV=" + explicit}, explicit, nil},
		{"GOENV=off", []string{"XDG_CONFIG_HOME=" + cfg, "GOENV=off"}, "", nil},
		{"no config directory", nil, "", nil},
	}
	for _, c := range cases {
		if got := File(c.env); got != c.file {
			t.Errorf("%s: File = %q, want %q", c.name, got, c.file)
		}
		if got := Read(c.env); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: Read = %v, want %v", c.name, got, c.want)
		}
	}
}
