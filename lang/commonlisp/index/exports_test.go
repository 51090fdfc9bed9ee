package index

import (
	"fmt"
	"strings"
	"testing"
)

// TestTopLevelExports: (export …) forms at the top level (eval-when too) are read with
// the package they name or the one in effect; exports computed at run time, or inside a
// function, are not.
func TestTopLevelExports(t *testing.T) {
	src := `(in-package #:shapes)
(export '(area perimeter))
(export 'scale)
(eval-when (:compile-toplevel :load-toplevel :execute)
  (export (list 'rotate 'flip) :geometry))
(export 'x "OTHER")
(export (intern "DYN"))
(export some-list)
(defun f () (export 'inside))
`
	var got []string
	for _, e := range build(t, src).Exports {
		var names []string
		for _, s := range e.Symbols {
			names = append(names, s.Name)
		}
		got = append(got, fmt.Sprintf("%s:%s", e.Package, strings.Join(names, ",")))
	}
	want := "SHAPES:AREA,PERIMETER SHAPES:SCALE GEOMETRY:ROTATE,FLIP OTHER:X"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
}
