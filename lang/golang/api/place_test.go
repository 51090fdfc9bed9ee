package api

import "testing"

func TestSubject(t *testing.T) {
	for _, tc := range []struct{ in, name, member string }{
		{"T", "T", ""},
		{"T.M", "T", "M"},
		{"(*T).M", "T", "M"},
		{"(*G[K, V]).M", "G", "M"},
		{"G[T].M", "G", "M"},
		{"S.F", "S", "F"},
		{"embedm.EV2, method set of *SM", "SM", "EV2"},
		{"(*embedm).EP2, method set of *SM", "SM", "EP2"},
		{"io.Reader.Read, method set of U", "U", "Read"},
		{"Ch, element type", "Ch", ""},
	} {
		name, member := subject(tc.in)
		if name != tc.name || member != tc.member {
			t.Errorf("subject(%q) = %q, %q; want %q, %q", tc.in, name, member, tc.name, tc.member)
		}
	}
}

func TestImportPath(t *testing.T) {
	for _, tc := range []struct{ mod, modDir, dir, want string }{
		{"example.com/m", ".", ".", "example.com/m"},
		{"example.com/m", ".", "a/b", "example.com/m/a/b"},
		{"example.com/n", "nested", "nested", "example.com/n"},
		{"example.com/n", "nested", "nested/x", "example.com/n/x"},
	} {
		if got := importPath(tc.mod, tc.modDir, tc.dir); got != tc.want {
			t.Errorf("importPath(%q, %q, %q) = %q, want %q", tc.mod, tc.modDir, tc.dir, got, tc.want)
		}
	}
}

func TestUnknownValue(t *testing.T) {
	for detail, want := range map[string]bool{
		"value changed from unknown to unknown": true,
		"value changed from 2 to unknown":       true,
		"value changed from unknown to 2":       true,
		"value changed from 1 to 2":             false,
		`value changed from "unknown" to "x"`:   false,
		"changed from int to unknown":           false, // a type named unknown
	} {
		if got := unknownValue(detail); got != want {
			t.Errorf("unknownValue(%q) = %v, want %v", detail, got, want)
		}
	}
}
