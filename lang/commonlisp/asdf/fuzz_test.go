package asdf

import (
	"testing"

	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

// FuzzParse: parsing any .asd never panics and every system has a span in the source.
func FuzzParse(f *testing.F) {
	f.Add(asdSrc)
	for _, s := range []string{"(defsystem)", "(defsystem 1 :components ((:module)))", `(defsystem "a" :depends-on ((:feature) (:version) (:require)))`,
		`(defsystem "a" :components ((:file "x" :if-feature (:or)) (:module "m" :pathname "" :components ((:file "y")))))`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		a := Parse("x.asd", []byte(src), reader.Options{})
		for _, s := range a.Systems {
			if s.Span.End.Offset > len(src) {
				t.Fatalf("system %+v out of the source", s)
			}
			_ = s.SourceFiles()
		}
	})
}
