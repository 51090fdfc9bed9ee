package resolve

import (
	"strings"

	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

// runtimeLoad is a top-level form of a file that loads a system while the file is being
// loaded: (ql:quickload :x), (asdf:load-system :x), (require :x). A script does that
// before it uses the system's packages, which exist from the next form on.
type runtimeLoad struct {
	offset int
	text   string // as written, for the message
}

// loadOps are the operators that load a system at run time, by package and name.
var loadOps = map[string]bool{
	"QL:QUICKLOAD": true, "QUICKLISP:QUICKLOAD": true, "QUICKLISP-CLIENT:QUICKLOAD": true,
	"ASDF:LOAD-SYSTEM": true, "ASDF:OOS": true, "ASDF:OPERATE": true, "ASDF:REQUIRE-SYSTEM": true,
	"UIOP:LOAD-SYSTEM": true, ":REQUIRE": true, "COMMON-LISP:REQUIRE": true, "CL:REQUIRE": true,
}

// runtimeLoads returns the file's top-level forms that load a system at run time.
func runtimeLoads(forms []*reader.Form, src []byte) []runtimeLoad {
	var out []runtimeLoad
	for _, f := range forms {
		h := f.Head()
		if f.Kind != reader.List || h == nil || h.Kind != reader.Symbol || !loadOps[h.Package+":"+h.Name] {
			continue
		}
		text := string(src[f.Span.Start.Offset:f.Span.End.Offset])
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			text = text[:i] + " …"
		}
		out = append(out, runtimeLoad{offset: f.Span.Start.Offset, text: text})
	}
	return out
}

// loadedBefore returns the last run-time load of the file before offset, if any.
func loadedBefore(loads []runtimeLoad, offset int) (runtimeLoad, bool) {
	var last runtimeLoad
	found := false
	for _, l := range loads {
		if l.offset < offset {
			last, found = l, true
		}
	}
	return last, found
}
