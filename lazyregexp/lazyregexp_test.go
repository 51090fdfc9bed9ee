package lazyregexp

import (
	"sync"
	"testing"
)

// A pattern is compiled once, by whichever goroutine uses it first, and answers as
// regexp does.
func TestConcurrentFirstUse(t *testing.T) {
	r := &Regexp{str: `^(\p{Lu}\w*)_(\d+)$`} // not compiled yet, as outside a test binary
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if m := r.FindStringSubmatch("Name_42"); len(m) != 3 || m[1] != "Name" || m[2] != "42" {
				t.Errorf("FindStringSubmatch = %q", m)
			}
		})
	}
	wg.Wait()
	if r.MatchString("name_42") || r.String() != `^(\p{Lu}\w*)_(\d+)$` {
		t.Errorf("MatchString or String disagree with regexp")
	}
}

// In a test binary a bad pattern fails where it is declared, not on some later use.
func TestBadPatternPanicsInTests(t *testing.T) {
	if !inTest {
		t.Fatal("inTest is not set in a test binary")
	}
	defer func() {
		if recover() == nil {
			t.Error("New of a bad pattern did not panic in a test binary")
		}
	}()
	New(`(unclosed`)
}
