// Package pydeps reads what a Python project declares it depends on (pyproject.toml,
// requirements files, setup.py) and what an environment has installed (the .dist-info
// and .egg-info records of its site-packages), and maps import names to distribution
// names the way pip's metadata does. It knows nothing of syntax trees: the Python
// frontend asks it about the modules a file imports.
package pydeps

import (
	"regexp"
	"strings"
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

var separators = regexp.MustCompile(`[-_.]+`)

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
