package resolve

import (
	"testing"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/signature"
)

// TestFitsType: the families a mistaken sibling call mixes up fit the annotations made
// for them, and not the others.
func TestFitsType(t *testing.T) {
	for _, tc := range []struct {
		arg, ann string
		fits     bool
	}{
		{"Literal['{}']", "str | bytes | bytearray", true},
		{"Literal['{}']", "SupportsRead[str | bytes]", false},
		{"TextIOWrapper[_WrappedBuffer]", "SupportsRead[str | bytes]", true},
		{"TextIOWrapper[_WrappedBuffer]", "str | bytes | bytearray", false},
		{"Literal[b'x']", "ReadableBuffer", true},
		{"Literal[3]", "SupportsIndex", true},
		{"(x: int) -> bool", "Callable[[int], bool]", true},
		{"(x: int) -> bool", "str", false},
		{"MyClass", "str", false},
	} {
		if got := fitsType(tc.arg, tc.ann); got != tc.fits {
			t.Errorf("fitsType(%q, %q) = %v, want %v", tc.arg, tc.ann, got, tc.fits)
		}
	}
}

// TestRelated: siblings with a shared stem are candidates; unrelated names only for a
// keyword the callee lacks.
func TestRelated(t *testing.T) {
	for _, tc := range []struct {
		callee, cand string
		kind         lang.Kind
		a            signature.Args
		want         bool
	}{
		{"load", "loads", lang.WrongSignature, signature.Args{Positional: 1}, true},
		{"dump", "dumps", lang.WrongArity, signature.Args{Positional: 1}, true},
		{"randint", "randrange", lang.WrongArity, signature.Args{Positional: 1}, true},
		{"mkdir", "makedirs", lang.WrongArity, signature.Args{Positional: 1}, false},
		{"mkdir", "makedirs", lang.UnknownKeyword, signature.Args{Positional: 1, Keywords: []string{"exist_ok"}}, true},
		{"join", "split", lang.WrongArity, signature.Args{}, false},
	} {
		if got := related(tc.callee, tc.cand, tc.kind, tc.a); got != tc.want {
			t.Errorf("related(%s, %s) = %v, want %v", tc.callee, tc.cand, got, tc.want)
		}
	}
}
