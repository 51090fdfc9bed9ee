// Package pydeps reads what a Python project declares it depends on (pyproject.toml,
// requirements files, setup.py) and what an environment has installed (the .dist-info
// and .egg-info records of its site-packages), and maps import names to distribution
// names the way pip's metadata does. It knows nothing of syntax trees: the Python
// frontend asks it about the modules a file imports.
package pydeps

import (
	"fmt"
	"path"
	"strings"

	"github.com/agentverify/agentverify/lazyregexp"
)

// Requirement is one declared dependency.
type Requirement struct {
	// Name is the distribution's name as written; Key is its PEP 503 normalised form.
	Name, Key string
	// File and Line are where it is declared (File relative to the project's root, as
	// given to the parser).
	File string
	Line int
	// Conditional is set when an environment marker limits the requirement ("; sys_platform
	// == 'win32'"): it need not be installed everywhere.
	Conditional bool
}

// DeclError is a declaration file that cannot be read as pip would read it.
type DeclError struct {
	File         string
	Line, Column int
	Msg          string
}

// Error is "file:line[:column]: message".
func (e *DeclError) Error() string {
	if e.Column > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

func declErr(file string, line int, format string, args ...any) error {
	return &DeclError{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// IsDeclarationFile reports whether the file at p (slash-separated) declares a
// project's dependencies.
func IsDeclarationFile(p string) bool {
	base := path.Base(p)
	switch {
	case base == "pyproject.toml", base == "setup.cfg", base == "setup.py":
		return true
	case strings.HasSuffix(base, ".txt"):
		return strings.HasPrefix(base, "requirements") || path.Base(path.Dir(p)) == "requirements"
	}
	return false
}

// Declarations returns the requirements one declaration file declares (with the files
// a requirements file includes, read through read).
func Declarations(p string, data []byte, read ReadFile) ([]Requirement, error) {
	switch path.Base(p) {
	case "pyproject.toml":
		pp, err := ParsePyproject(p, data)
		if err != nil {
			return nil, err
		}
		return pp.Requires, nil
	case "setup.cfg":
		return setupCfg(p, string(data)), nil
	case "setup.py":
		return setupPy(p, string(data)), nil
	}
	return ParseRequirements(p, data, read)
}

var separators = lazyregexp.New(`[-_.]+`)

// Normalize is PEP 503's normalised form of a distribution name: lower case, each run
// of '-', '_' and '.' one '-'.
func Normalize(name string) string {
	return separators.ReplaceAllString(strings.ToLower(name), "-")
}

// IsStdlib reports whether a top-level module name belongs to the standard library of
// some CPython from 3.8 to 3.13.
func IsStdlib(top string) bool { return stdlib[top] }

// wellKnown maps the import names whose distribution is named differently, and whose
// distribution's metadata may be missing (not installed), to that distribution. With
// an installed distribution its top_level.txt and RECORD decide instead.
var wellKnown = map[string]string{
	"yaml": "PyYAML", "PIL": "Pillow", "sklearn": "scikit-learn", "cv2": "opencv-python",
	"bs4": "beautifulsoup4", "dateutil": "python-dateutil", "dotenv": "python-dotenv",
	"jwt": "PyJWT", "OpenSSL": "pyOpenSSL", "Crypto": "pycryptodome", "Cryptodome": "pycryptodomex",
	"serial": "pyserial", "usb": "pyusb", "magic": "python-magic", "docx": "python-docx",
	"pptx": "python-pptx", "git": "GitPython", "github": "PyGithub", "gi": "PyGObject",
	"dns": "dnspython", "google.protobuf": "protobuf", "attr": "attrs", "fitz": "PyMuPDF",
	"skimage": "scikit-image", "Levenshtein": "python-Levenshtein", "MySQLdb": "mysqlclient",
	"psycopg2": "psycopg2-binary", "zmq": "pyzmq", "win32api": "pywin32", "win32con": "pywin32",
	"nacl": "PyNaCl", "jose": "python-jose", "multipart": "python-multipart", "slugify": "python-slugify",
	"telegram": "python-telegram-bot", "socks": "PySocks", "pkg_resources": "setuptools",
	"setuptools": "setuptools", "_yaml": "PyYAML", "OpenGL": "PyOpenGL", "wx": "wxPython",
	"Bio": "biopython", "kafka": "kafka-python", "ldap": "python-ldap", "snappy": "python-snappy",
	"lxml": "lxml", "markdown": "Markdown", "jinja2": "Jinja2", "mpl_toolkits": "matplotlib",
	"pylab": "matplotlib", "sentencepiece": "sentencepiece", "tensorflow": "tensorflow",
	"typing_extensions": "typing-extensions", "pydantic_settings": "pydantic-settings",
}

// popular are import names of widely used distributions of the same name: real
// packages, whatever the environment has.
var popular = map[string]bool{
	"aiohttp": true, "anyio": true, "attrs": true, "black": true, "boto3": true, "botocore": true,
	"celery": true, "certifi": true, "chardet": true, "click": true, "coverage": true, "cryptography": true,
	"django": true, "docutils": true, "fastapi": true, "flake8": true, "flask": true, "gunicorn": true,
	"httpx": true, "hypothesis": true, "idna": true, "isort": true, "matplotlib": true, "mock": true,
	"mypy": true, "nose": true, "numpy": true, "orjson": true, "packaging": true, "pandas": true,
	"psutil": true, "pydantic": true, "pygments": true, "pylint": true, "pymongo": true, "pyparsing": true,
	"pytest": true, "pytz": true, "redis": true, "requests": true, "rich": true, "scipy": true,
	"simplejson": true, "six": true, "sphinx": true, "sqlalchemy": true, "starlette": true, "tomli": true,
	"toml": true, "torch": true, "tox": true, "tqdm": true, "transformers": true, "typer": true,
	"ujson": true, "urllib3": true, "uvicorn": true, "werkzeug": true,
}

// Known reports whether a top-level import name belongs to a well-known real
// distribution (so that its absence is a missing install, not an invented name).
func Known(top string) bool { _, ok := wellKnown[top]; return ok || popular[top] }

// DistName is the name of the distribution that provides module mod, as users spell it,
// for messages: a well-known mismatch (sklearn → scikit-learn), else the top-level name.
func DistName(mod string) string {
	top, _, _ := strings.Cut(mod, ".")
	for _, m := range []string{mod, top} {
		if d, ok := wellKnown[m]; ok {
			return d
		}
	}
	return top
}

// KnownAlternatives maps a well-known import name to other distributions that install
// it (psycopg2 is psycopg2 or psycopg2-binary; cv2 comes in four builds).
var knownAlternatives = map[string][]string{
	"psycopg2": {"psycopg2"},
	"cv2":      {"opencv-python-headless", "opencv-contrib-python", "opencv-contrib-python-headless"},
	"Crypto":   {"pycrypto"},
	"magic":    {"python-magic-bin"},
	"jwt":      {"jwt"},
	"serial":   {"serial"},
}

// Candidates returns the normalised names of the distributions that may provide the
// module mod (dotted) when no installed metadata says: the well-known mismatches of mod
// and of its top-level package, and the names pip users derive from the module's name.
func Candidates(mod string) []string {
	top, _, _ := strings.Cut(mod, ".")
	var out []string
	add := func(n string) {
		k := Normalize(n)
		for _, o := range out {
			if o == k {
				return
			}
		}
		out = append(out, k)
	}
	for _, m := range []string{mod, top} {
		if d, ok := wellKnown[m]; ok {
			add(d)
			for _, a := range knownAlternatives[m] {
				add(a)
			}
		}
	}
	add(top)
	add("python-" + top)
	add("py" + top)
	return out
}
