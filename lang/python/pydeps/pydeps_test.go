package pydeps

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"Friendly-Bar": "friendly-bar", "friendly.bar": "friendly-bar", "FRIENDLY__bar": "friendly-bar",
		"PyYAML": "pyyaml", "zope.interface": "zope-interface", "a-_.b": "a-b",
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func names(rs []Requirement) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Key+"@"+r.File+":"+strconv.Itoa(r.Line))
	}
	return out
}

func TestParseRequirements(t *testing.T) {
	files := map[string]string{
		"requirements/base.txt": "Django>=4 # web\nzope.interface\n",
		"requirements/loop.txt": "-r ../requirements.txt\n",
	}
	read := func(name string) ([]byte, error) {
		if s, ok := files[name]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}
	tests := []struct {
		name, in string
		want     []string
		err      string
	}{
		{"plain", "requests\nPyYAML==6.0\n", []string{"requests@r.txt:1", "pyyaml@r.txt:2"}, ""},
		{"comments and blanks", "# c\n\n  flask[async] >= 2 ; python_version>'3.8' # x\n", []string{"flask@r.txt:3"}, ""},
		{"continuation", "attrs==1 \\\n  --hash=sha256:00\nsix\n", []string{"attrs@r.txt:1", "six@r.txt:3"}, ""},
		{"options", "-i https://pypi.org/simple\n--index-url=https://x\n-c c.txt\n--hash=sha256:1\n", nil, ""},
		{"url", "pkg @ https://example.com/pkg.whl\nhttps://example.com/other.whl\n./local/dir\n", []string{"pkg@r.txt:1"}, ""},
		{"egg", "-e git+https://github.com/a/b.git#egg=My_Pkg\ngit+https://x/y.git#egg=other\n", []string{"my-pkg@r.txt:1", "other@r.txt:2"}, ""},
		{"include", "-r requirements/base.txt\nsix\n", []string{"django@requirements/base.txt:1", "zope-interface@requirements/base.txt:2", "six@r.txt:2"}, ""},
		{"include cycle", "-r requirements/loop.txt\n", nil, ""},
		{"include missing", "-r nope.txt\n", nil, "r.txt:1: -r nope.txt: file does not exist"},
		{"include outside", "-r ../../etc/passwd\n", nil, "outside the project"},
		{"include url", "-r https://x/req.txt\n", nil, "behind a URL"},
		{"garbage", "requests\nthis is not\n", nil, `r.txt:2: "this is not" is not a requirement`},
		{"bad start", "==1.0\n", nil, "is not a requirement"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := "r.txt"
			if tt.name == "include cycle" {
				name = "requirements.txt"
				files["requirements.txt"] = tt.in
			}
			got, err := ParseRequirements(name, []byte(tt.in), read)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if g := names(got); !reflect.DeepEqual(g, tt.want) {
				t.Errorf("got %v, want %v", g, tt.want)
			}
		})
	}
}

func TestParsePyproject(t *testing.T) {
	src := `[project]
name = "demo"
dependencies = ["requests>=2", 'PyYAML; sys_platform != "win32"']
[project.optional-dependencies]
b = ["zz"]
a = ["aa[x]"]
[dependency-groups]
test = ["pytest", {include-group = "a"}]
[tool.poetry.dependencies]
python = "^3.9"
Django = "^4"
[tool.poetry.group.docs.dependencies]
sphinx = {version = "^7", optional = true}
`
	pp, err := ParsePyproject("pyproject.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"requests@pyproject.toml:3", "pyyaml@pyproject.toml:3", "aa@pyproject.toml:6", "zz@pyproject.toml:5",
		"pytest@pyproject.toml:8", "django@pyproject.toml:11", "sphinx@pyproject.toml:13"}
	if g := names(pp.Requires); !reflect.DeepEqual(g, want) || pp.Name != "demo" {
		t.Errorf("got %v %q, want %v", g, pp.Name, want)
	}
	cond := map[string]bool{}
	for _, r := range pp.Requires {
		cond[r.Key] = r.Conditional
	}
	if !cond["pyyaml"] || cond["requests"] || !cond["sphinx"] || cond["django"] {
		t.Errorf("conditional = %v", cond)
	}
}

func TestParsePyprojectErrors(t *testing.T) {
	for _, src := range []string{
		"[project\nname = 1",
		"[project]\ndependencies = \"requests\"\n",
		"[project]\ndependencies = [\"requests\"]\ndependencies = []\n",
		"[project]\ndependencies = [\"not a requirement\"]\n",
	} {
		_, err := ParsePyproject("sub/pyproject.toml", []byte(src))
		if err == nil || !strings.HasPrefix(err.Error(), "sub/pyproject.toml") || strings.Contains(err.Error(), "\n") {
			t.Errorf("ParsePyproject(%q) = %v, want a one-line error naming the file", src, err)
		}
	}
}

func TestLoadProject(t *testing.T) {
	fsys := fstest.MapFS{
		"p/pyproject.toml":       {Data: []byte("[project]\nname='p'\ndynamic=['dependencies']\n")},
		"p/requirements-dev.txt": {Data: []byte("pytest\n")},
		"p/requirements/ci.txt":  {Data: []byte("tox\n")},
		"p/setup.cfg":            {Data: []byte("[options]\ninstall_requires =\n    click>=8\n    attrs\n[options.extras_require]\nfast = orjson\n")},
		"p/setup.py":             {Data: []byte("setup(install_requires=['six>=1', \"README.md\"])\n")},
		"q/pyproject.toml":       {Data: []byte("[project]\nname='q'\ndynamic=['dependencies']\n")},
	}
	p, err := LoadProject(fsys, "p")
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, r := range p.Requires {
		keys = append(keys, r.Key)
	}
	want := []string{"pytest", "tox", "click", "attrs", "orjson", "six", "readme-md"}
	if !reflect.DeepEqual(keys, want) || p.Name != "p" {
		t.Errorf("requires = %v, want %v", keys, want)
	}
	if want := []string{"p/requirements-dev.txt", "p/requirements/ci.txt", "p/setup.cfg", "p/setup.py"}; !reflect.DeepEqual(p.Sources, want) {
		t.Errorf("sources = %v, want %v (a dynamic pyproject declares nothing itself)", p.Sources, want)
	}
	q, err := LoadProject(fsys, "q")
	if err != nil || len(q.Sources) != 0 {
		t.Errorf("q: %v %v", q, err)
	}
}

func TestScanEnv(t *testing.T) {
	dir := t.TempDir()
	write := func(p, s string) {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("PyYAML-6.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: PyYAML\n\nName: not-this\n")
	write("PyYAML-6.0.dist-info/top_level.txt", "_yaml\nyaml\n")
	write("yaml/__init__.py", "")
	write("_yaml.cpython-311-x86_64-linux-gnu.so", "")
	write("protobuf-4.dist-info/RECORD", "google/protobuf/__init__.py,,\ngoogle/protobuf/x_pb2.py,,\n../../bin/protoc,,\n")
	write("google_auth-2.egg-info/PKG-INFO", "Name: google-auth\n")
	write("google_auth-2.egg-info/installed-files.txt", "../google/auth/__init__.py\n")
	write("apt_pkg.cpython-311-x86_64-linux-gnu.so", "")
	write("Jinja2-3.egg-info", "Metadata-Version: 1.1\nName: Jinja2\n")
	e, err := ScanEnv("test", []string{dir, filepath.Join(dir, "missing")})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		mod   string
		dists []string
		found bool
	}{
		{"yaml", []string{"PyYAML"}, true},
		{"yaml.loader", []string{"PyYAML"}, true},
		{"_yaml", []string{"PyYAML"}, true},
		{"google.protobuf.x_pb2", []string{"protobuf"}, true},
		{"google.auth", []string{"google-auth"}, true},
		{"google", []string{"google-auth", "protobuf"}, true},
		{"apt_pkg", nil, true},
		{"bin", nil, false},
		{"nothing", nil, false},
	}
	for _, tt := range tests {
		ds, found := e.Providers(tt.mod)
		var got []string
		for _, d := range ds {
			got = append(got, d.Name)
		}
		if !reflect.DeepEqual(got, tt.dists) || found != tt.found {
			t.Errorf("Providers(%q) = %v, %v; want %v, %v", tt.mod, got, found, tt.dists, tt.found)
		}
	}
	if e.Installed("jinja2") == nil || e.Installed("pyyaml") == nil {
		t.Errorf("Installed: jinja2 %v, pyyaml %v", e.Installed("jinja2"), e.Installed("pyyaml"))
	}
}

func TestLocate(t *testing.T) {
	root := t.TempDir()
	venv := filepath.Join(root, ".venv")
	if err := os.MkdirAll(filepath.Join(venv, "lib", "python3.12", "site-packages"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(venv, "pyvenv.cfg"), []byte("include-system-site-packages = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l := Locator{Getenv: func(string) string { return "/elsewhere" }, Python: "agentverify-no-python"}
	where, dirs, err := l.Locate(t.Context(), root)
	if err != nil || where != ".venv" || len(dirs) == 0 || dirs[0] != filepath.Join(venv, "lib", "python3.12", "site-packages") {
		t.Errorf("Locate = %q %v %v", where, dirs, err)
	}
	// Without a .venv and without an interpreter: Debian's directory only, no error.
	where, dirs, err = l.Locate(t.Context(), t.TempDir())
	if err != nil || !strings.Contains(where, "agentverify-no-python") || !reflect.DeepEqual(dirs, []string{"/usr/lib/python3/dist-packages"}) {
		t.Errorf("Locate without environment = %q %v %v", where, dirs, err)
	}
}

func TestLocatePython(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not on PATH (apt-get install python3)")
	}
	_, dirs, err := Locator{Getenv: func(string) string { return "" }}.Locate(t.Context(), t.TempDir())
	if err != nil || len(dirs) < 2 {
		t.Fatalf("Locate with python3 = %v %v", dirs, err)
	}
	for _, d := range dirs {
		if b := filepath.Base(d); b != "site-packages" && b != "dist-packages" {
			t.Errorf("dir %s is no site-packages", d)
		}
	}
}

func TestCandidates(t *testing.T) {
	for mod, want := range map[string]string{"yaml": "pyyaml", "PIL.Image": "pillow", "sklearn.svm": "scikit-learn",
		"cv2": "opencv-python", "bs4": "beautifulsoup4", "dateutil.parser": "python-dateutil", "requests": "requests",
		"google.protobuf": "protobuf"} {
		if got := Candidates(mod); len(got) == 0 || got[0] != want {
			t.Errorf("Candidates(%q) = %v, want %s first", mod, got, want)
		}
	}
	if !IsStdlib("tomllib") || !IsStdlib("distutils") || !IsStdlib("asyncore") || IsStdlib("yaml") {
		t.Error("IsStdlib disagrees with CPython 3.8-3.13")
	}
}

func FuzzParseRequirements(f *testing.F) {
	for _, s := range []string{"requests>=2\n", "-r other.txt\n", "a \\\n b\n", "-e git+https://x#egg=y\n", "x @ https://u\n#c\n", "[\n", "--hash=x\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		read := func(string) ([]byte, error) { return []byte(s), nil }
		rs, err := ParseRequirements("requirements.txt", []byte(s), read)
		if err != nil {
			if strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "requirements.txt") {
				t.Fatalf("error %q is not one line naming the file", err)
			}
			return
		}
		for _, r := range rs {
			if r.Key == "" || r.Key != Normalize(r.Name) || r.Line < 1 {
				t.Fatalf("bad requirement %+v from %q", r, s)
			}
		}
	})
}

func FuzzParsePyproject(f *testing.F) {
	for _, s := range []string{"[project]\ndependencies = [\"a>=1\"]\n", "[tool.poetry.dependencies]\nx = {version=\"1\", optional=true}\n",
		"[dependency-groups]\nt = [\"p\", {include-group=\"t\"}]\n", "[project\n", "a = 1\na = 2\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pp, err := ParsePyproject("pyproject.toml", []byte(s))
		if err != nil {
			if strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "pyproject.toml") {
				t.Fatalf("error %q is not one line naming the file", err)
			}
			return
		}
		for _, r := range pp.Requires {
			if r.Key != Normalize(r.Name) || r.Line < 1 {
				t.Fatalf("bad requirement %+v", r)
			}
		}
	})
}

// FuzzParseScript: a changed script's inline metadata (PEP 723) is outside input. No
// panic; an error is one line naming the script at a line of the file; a requirement has
// a name and a line of the file.
func FuzzParseScript(f *testing.F) {
	for _, s := range []string{
		"# /// script\n# requires-python = \">=3.11\"\n# dependencies = [\"rich\", \"requests<3\"]\n# ///\nimport rich\n",
		"# /// script\n# dependencies = [\"a\",\n#   \"b @ https://x\"]\n# ///\n", "# /// script\n# [\n# ///\n",
		"# /// script\n#\n# ///\n", "# /// script\nx = 1\n", "# /// script\r\n# dependencies = [\"-e x\"]\r\n# ///\r\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lines := strings.Count(s, "\n") + 1
		sc, err := ParseScript("tools/run.py", []byte(s))
		if err != nil {
			var de *DeclError
			if !errors.As(err, &de) || strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "tools/run.py:") || de.Line < 1 || de.Line > lines {
				t.Fatalf("error %q is not one line naming the script at one of its %d lines", err, lines)
			}
			return
		}
		if sc == nil {
			return
		}
		for _, r := range sc.Project.Requires {
			if r.Key == "" || r.Key != Normalize(r.Name) || r.Line < 1 || r.Line > lines {
				t.Fatalf("bad requirement %+v from %q", r, s)
			}
		}
	})
}
