package signature

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestIncompatibilities(t *testing.T) {
	tests := []struct {
		base, head string
		method     bool
		want       string // substring of the joined reasons; "" for compatible
	}{
		{"def(a)", "def(a, b=...)", false, ""},
		{"def(a)", "def(a, *, b=...)", false, ""},
		{"def(a)", "def(a, *Args, **kw)", false, ""},
		{"def(a, b=...)", "def(a, b=..., c=...)", false, ""},
		{"def(a, /)", "def(b, /)", false, ""}, // positional-only names are nobody's business
		{"def(a, /)", "def(a)", false, ""},
		{"def(a, *, b)", "def(a, *, b=...)", false, ""},
		{"def(a, b)", "def(a, b, c)", false, "required parameter c added"},
		{"def(a)", "def(a, *, c)", false, "required parameter c added"},
		{"def(a, b=...)", "def(a, b)", false, "parameter b no longer has a default"},
		{"def(a, b)", "def(a)", false, "parameter b can no longer be passed by position (argument 2); parameter b removed"},
		{"def(a, b)", "def(a, c)", false, "parameter b renamed to c"},
		{"def(a, b)", "def(b, a)", false, "parameters reordered: argument 1 is now b, not a"},
		{"def(a, b)", "def(a, b, /)", false, "parameter a became positional-only"},
		{"def(a, b)", "def(a, *, b)", false, "parameter b became keyword-only"},
		{"def(a, b)", "def(a, *rest, b)", false, "parameter b became keyword-only"},
		{"def(a, b=...)", "def(*Args, **kwargs)", false, ""},
		{"def(a, b=...)", "def(a, *Args)", false, "parameter b removed"},
		{"def(a, b=...)", "def(a, x=..., b=...)", false, "parameters reordered: argument 2 is now x, not b"},
		{"def(*Args)", "def()", false, "*Args removed"},
		{"def(a, *Args)", "def(a, b=..., *Args)", false, "parameter b added before *Args"},
		{"def(**kw)", "def()", false, "**kw removed"},
		{"def(a, *, b=...)", "def(a, **kw)", false, ""},
		{"def(a)", "async def(a)", false, "became a coroutine function"},
		{"@property def(self)", "def(self)", true, "changed from a property to a method"},
		{"@property def(self)", "@property def(this)", true, ""},
		{"def(self, a)", "def(this, a)", true, ""},
		{"def(self, a)", "def(self, a, b)", true, "required parameter b added"},
		{"@staticmethod def(a)", "@staticmethod def(a, b)", true, "required parameter b added"},
		{"@classmethod def(cls, a)", "@classmethod def(klass, a, b=...)", true, ""},
	}
	for _, tt := range tests {
		got := strings.Join(Incompatibilities(Parse(tt.base, tt.method), Parse(tt.head, tt.method)), "; ")
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("%s → %s: got %q, want %q", tt.base, tt.head, got, tt.want)
		}
	}
}

func TestBindErr(t *testing.T) {
	tests := []struct {
		sig  string
		args Args
		want string
	}{
		{"def(a, b=...)", Args{Positional: 1}, ""},
		{"def(a, b=...)", Args{Positional: 3}, "takes 2 positional arguments but 3 were given"},
		{"def(a, *rest)", Args{Positional: 3}, ""},
		{"def(a, /, b)", Args{Keywords: []string{"a", "b"}}, "unexpected keyword argument 'a'"},
		{"def(a, **kw)", Args{Positional: 1, Keywords: []string{"zz"}}, ""},
		{"def(a)", Args{Positional: 1, Keywords: []string{"a"}}, "multiple values for argument 'a'"},
		{"def(a, *, b)", Args{Positional: 1}, "missing a required argument: 'b'"},
	}
	for _, tt := range tests {
		if got := Bind(Parse(tt.sig, false), tt.args); !strings.Contains(got, tt.want) || tt.want == "" && got != "" {
			t.Errorf("Bind(%s, %+v) = %q, want %q", tt.sig, tt.args, got, tt.want)
		}
	}
}

// genSig draws a normalised signature: positional parameters (some positional-only),
// *Args or a bare *, keyword-only parameters, **kw; names drawn in any order.
func genSig(t *rapid.T, label string) string {
	names := rapid.Permutation([]string{"a", "b", "c", "d", "e"}).Draw(t, label+"names")
	param := func(name string) string {
		if rapid.Bool().Draw(t, label+"def"+name) {
			return name + "=..."
		}
		return name
	}
	var parts []string
	n := rapid.IntRange(0, 4).Draw(t, label+"n")
	slash := rapid.IntRange(-1, n).Draw(t, label+"slash")
	for i := 0; i < n; i++ {
		if i == slash {
			parts = append(parts, "/")
		}
		parts = append(parts, param(names[i]))
	}
	m := rapid.IntRange(0, len(names)-n).Draw(t, label+"m")
	switch star := rapid.Bool().Draw(t, label+"Args"); {
	case star:
		parts = append(parts, "*Args")
	case m > 0:
		parts = append(parts, "*")
	}
	for i := n; i < n+m; i++ {
		parts = append(parts, param(names[i]))
	}
	if rapid.Bool().Draw(t, label+"kw") {
		parts = append(parts, "**kw")
	}
	return "def(" + strings.Join(parts, ", ") + ")"
}

// TestCompatibilityProperties: a signature is compatible with itself, and adding an
// optional keyword-only parameter is always compatible.
func TestCompatibilityProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genSig(t, "s")
		if got := Incompatibilities(Parse(s, false), Parse(s, false)); len(got) > 0 {
			t.Fatalf("%s against itself: %v", s, got)
		}
		if strings.Contains(s, "*") || strings.Contains(s, "zz") {
			return
		}
		more := strings.TrimSuffix(s, ")")
		if more != "def(" {
			more += ", "
		}
		more += "*, zz=...)"
		if got := Incompatibilities(Parse(s, false), Parse(more, false)); len(got) > 0 {
			t.Fatalf("%s → %s: %v", s, more, got)
		}
	})
}

// TestCompatibleMeansCallsBind: when the comparison finds nothing incompatible, every
// call the base signature accepts binds against the head signature too.
func TestCompatibleMeansCallsBind(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		base, head := Parse(genSig(t, "b"), false), Parse(genSig(t, "h"), false)
		if len(Incompatibilities(base, head)) > 0 {
			return
		}
		call := Args{Positional: rapid.IntRange(0, 6).Draw(t, "positional")}
		for _, k := range []string{"a", "b", "c", "d", "e", "zz"} {
			if rapid.Bool().Draw(t, "kw"+k) {
				call.Keywords = append(call.Keywords, k)
			}
		}
		if Bind(base, call) != "" {
			return
		}
		if msg := Bind(head, call); msg != "" {
			t.Fatalf("no incompatibility found from %+v to %+v, but %+v no longer binds: %s", base, head, call, msg)
		}
	})
}
