package crash

import (
	"errors"
	"go/types"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// boom panics in code of ours.
func boom() { var m map[string]int; m["x"] = 1 }

// viaTypes panics inside go/types, called from code of ours: the place named is ours,
// the inner frame is go/types'.
func viaTypes() {
	var s *types.Scope
	s.Lookup("x")
}

func TestRecoverNamesOurFrame(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fn    func()
		where string // regexp over Error()
	}{
		{"ours", boom, `^panicked: assignment to entry in nil map at crash\.boom \(crash/crash_test\.go:\d+\)$`},
		{"inside go/types", viaTypes, `^panicked: runtime error: invalid memory address or nil pointer dereference in go/types\.\(\*Scope\)\.Lookup, called from crash\.viaTypes \(crash/crash_test\.go:\d+\)$`},
		{"a value", func() { panic("plain") }, `^panicked: plain at crash\.TestRecoverNamesOurFrame\.func\d+ \(crash/crash_test\.go:\d+\)$`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := func() (err error) {
				defer Recover(&err)
				tc.fn()
				return nil
			}()
			if err == nil || !regexp.MustCompile(tc.where).MatchString(err.Error()) {
				t.Fatalf("got %v, want %s", err, tc.where)
			}
			if strings.Contains(err.Error(), "/work/") || strings.Contains(err.Error(), "\n") {
				t.Errorf("not one repository-relative line: %q", err)
			}
		})
	}
}

func TestRuntimeErrorUnwraps(t *testing.T) {
	err := func() (err error) {
		defer Recover(&err)
		boom()
		return nil
	}()
	var re runtime.Error
	if !errors.As(err, &re) {
		t.Errorf("%v does not unwrap to a runtime.Error", err)
	}
}

// A panic in a goroutine of a Group is returned by Wait, keeps its place when re-raised
// in the caller, and the other goroutines finish.
func TestGroup(t *testing.T) {
	var g Group
	done := make([]bool, 4)
	for i := range 4 {
		g.Go(func() {
			if i == 2 {
				boom()
			}
			done[i] = true
		})
	}
	err := g.Wait()
	if err == nil || !strings.Contains(err.Error(), "crash.boom") {
		t.Fatalf("Wait: %v", err)
	}
	if !done[0] || !done[1] || !done[3] {
		t.Errorf("other goroutines did not finish: %v", done)
	}
	re := func() (e error) {
		defer Recover(&e)
		panic(err)
	}()
	if re != err {
		t.Errorf("re-raised: %v, want the first place kept (%v)", re, err)
	}
	var empty Group
	if empty.Wait() != nil {
		t.Error("an empty group has an error")
	}
}

func TestFrameNames(t *testing.T) {
	for fn, want := range map[string]string{
		Module + ".(*Checker).Check":                         "agentverify.(*Checker).Check (agentverify.go:7)",
		Module + "/lang/golang/load.(*stream).run.func1":     "load.(*stream).run.func1 (lang/golang/load/f.go:7)",
		Module + "/engine_test.TestX":                        "engine_test.TestX (engine/f.go:7)",
		Module + "/lang/python.F[go.shape.struct { a/b.c }]": "python.F[go.shape.struct { a/b.c }] (lang/python/f.go:7)",
	} {
		file := "/abs/f.go"
		if strings.HasSuffix(fn, "Check") {
			file = "/abs/agentverify.go"
		}
		if got := frame(runtime.Frame{Function: fn, File: file, Line: 7}); got != want {
			t.Errorf("%s: %q, want %q", fn, got, want)
		}
	}
}
