package resolve

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/commonlisp/asdf"
)

// TestDeprecatedTable: every deprecated symbol is an external symbol of its listed
// package, in a known state, and every replacement names an external symbol of a listed
// package (the suggestion is a real name).
func TestDeprecatedTable(t *testing.T) {
	if len(deprecatedBuiltins) < 10 {
		t.Fatalf("%d deprecated symbols: gen.lisp read SBCL's declarations wrong", len(deprecatedBuiltins))
	}
	for _, d := range deprecatedBuiltins {
		p := builtins().byName[d.Package]
		if p == nil || builtins().symbols[p][d.Name] == nil {
			t.Errorf("%s:%s is not an external symbol of a listed package", d.Package, d.Name)
		}
		if stateNote[d.State] == "" {
			t.Errorf("%s:%s: state %q", d.Package, d.Name, d.State)
		}
		for _, r := range d.Replacements {
			pn, name, _ := strings.Cut(r, ":")
			rp := builtins().byName[pn]
			if rp == nil || builtins().symbols[rp][name] == nil {
				t.Errorf("%s:%s: replacement %s is not an external symbol of a listed package", d.Package, d.Name, r)
			}
		}
	}
}

// TestDeprecatedFix: a replacement in the same package with the same lambda list is the
// fix, written as the use was (qualified or not); another lambda list is only a
// suggestion.
func TestDeprecatedFix(t *testing.T) {
	src := "(defpackage #:p (:use #:cl #:sb-thread))\n(in-package #:p)\n" +
		"(defun a (th) (sb-thread:destroy-thread th) (destroy-thread th) (get-mutex th))\n"
	head := fstest.MapFS{"p.lisp": {Data: []byte(src)}}
	set := &change.Set{Root: "/nonexistent", HeadFS: head, NoBase: true, Files: []*change.File{change.NewFile("p.lisp", "", nil, []byte(src))}}
	ps, err := Resolver{Deps: NewDeps([]asdf.Root{}, nil)}.Resolve(&lang.Request{Context: context.Background(), Changes: set})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ps {
		fix := ""
		if p.Fix != nil {
			fix = p.Fix.Edits[0].NewText
		}
		got = append(got, string(p.Kind)+" "+p.Symbol+" → "+fix)
	}
	want := "deprecated sb-thread:destroy-thread → sb-thread:terminate-thread|deprecated destroy-thread → terminate-thread|deprecated get-mutex → "
	if strings.Join(got, "|") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, "|"), want)
	}
}
