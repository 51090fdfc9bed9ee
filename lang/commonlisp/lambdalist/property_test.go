package lambdalist

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/lang/commonlisp/reader"
	"pgregory.net/rapid"
)

// genLambdaList writes a random ordinary lambda list and returns it with its counts.
func genLambdaList(t *rapid.T) (src string, req, opt, keys int, rest, key, allow bool) {
	req = rapid.IntRange(0, 3).Draw(t, "required")
	opt = rapid.IntRange(0, 2).Draw(t, "optional")
	rest = rapid.Bool().Draw(t, "rest")
	key = rapid.Bool().Draw(t, "key")
	var parts []string
	for i := 0; i < req; i++ {
		parts = append(parts, fmt.Sprintf("r%d", i))
	}
	if opt > 0 {
		parts = append(parts, "&optional")
		for i := 0; i < opt; i++ {
			parts = append(parts, rapid.SampledFrom([]string{"o%d", "(o%d)", "(o%d 1)", "(o%d nil o%d-p)"}).Draw(t, "opt"))
			parts[len(parts)-1] = strings.ReplaceAll(parts[len(parts)-1], "%d", fmt.Sprint(i))
		}
	}
	if rest {
		parts = append(parts, "&rest", "args")
	}
	if key {
		keys = rapid.IntRange(0, 2).Draw(t, "keys")
		parts = append(parts, "&key")
		for i := 0; i < keys; i++ {
			k := rapid.SampledFrom([]string{"k%d", "(k%d 2)", "((:kw%d k%d))", "((:kw%d k%d) 3 k%d-p)"}).Draw(t, "key")
			parts = append(parts, strings.ReplaceAll(k, "%d", fmt.Sprint(i)))
		}
		allow = rapid.Bool().Draw(t, "allow")
		if allow {
			parts = append(parts, "&allow-other-keys")
		}
	}
	if rapid.Bool().Draw(t, "aux") {
		parts = append(parts, "&aux", "(tmp 0)")
	}
	return "(" + strings.Join(parts, " ") + ")", req, opt, keys, rest, key, allow
}

// TestParseProperties: the parts of a generated lambda list are counted right, String
// is a fixed point of Parse, and Accepts agrees with Min and Max.
func TestParseProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		src, req, opt, keys, rest, key, allow := genLambdaList(t)
		f := reader.Read([]byte(src), reader.Options{})
		l, err := Parse(f.Forms[0], Ordinary)
		if err != nil {
			t.Fatalf("Parse(%s): %v", src, err)
		}
		if len(l.Required) != req || len(l.Optional) != opt || len(l.Key) != keys || (l.Rest != nil) != rest || l.HasKey != key || l.AllowOtherKeys != allow {
			t.Fatalf("Parse(%s) = %s with %+v", src, l, l)
		}
		again, err := Parse(reader.Read([]byte(l.String()), reader.Options{}).Forms[0], Ordinary)
		if err != nil || again.String() != l.String() {
			t.Fatalf("Parse(%s) = %v, %v; want %s", l, again, err, l)
		}
		if !l.Accepts(l.Min()) {
			t.Fatalf("%s does not accept its minimum %d", src, l.Min())
		}
		for n := 0; n < 10; n++ {
			if l.Accepts(n) && (n < l.Min() || l.Max() >= 0 && n > l.Max()) {
				t.Fatalf("%s accepts %d outside [%d, %d]", src, n, l.Min(), l.Max())
			}
		}
	})
}
