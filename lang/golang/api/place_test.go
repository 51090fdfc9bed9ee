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

func TestDeclText(t *testing.T) {
	const base = "package p\n\n// F is f.\nfunc F(x int) int {\n\treturn x\n}\n\nvar V = 1\n"
	same := map[string]string{
		"body":     "package p\n\n// F is f.\nfunc F(x int) int {\n\tx++\n\treturn x * 2\n}\n\nvar V = 1\n",
		"comments": "package p\n\n// F is f, now better.\nfunc F(x int) int { return x }\n\n// V is v.\nvar V = 1\n",
		"init":     "package p\n\nfunc init() {}\n\nfunc F(x int) int { return x }\n\nvar V = 1\n\nfunc _() {}\n",
	}
	differ := map[string]string{
		"signature":   "package p\n\nfunc F(x int64) int { return 0 }\n\nvar V = 1\n",
		"initializer": "package p\n\nfunc F(x int) int { return x }\n\nvar V = \"1\"\n",
		"new import":  "package p\n\nimport \"fmt\"\n\nfunc F(x int) int { return x }\n\nvar V = fmt.Sprint(1)\n",
		"excluded":    "//go:build never\n\npackage p\n\nfunc F(x int) int { return x }\n\nvar V = 1\n",
	}
	text := func(src string) (string, bool) {
		f, ok := parseDecls("p.go", []byte(src))
		if !ok {
			return "", false
		}
		return declText(f)
	}
	b, ok := text(base)
	if !ok {
		t.Fatal("base does not parse")
	}
	for name, src := range same {
		if h, ok := text(src); !ok || h != b {
			t.Errorf("%s: declarations differ:\n%s\n%s", name, b, h)
		}
	}
	for name, src := range differ {
		if h, ok := text(src); ok && h == b {
			t.Errorf("%s: declarations the same", name)
		}
	}
	if _, ok := text("package p\n\nfunc ("); ok {
		t.Error("a file that does not parse is ok")
	}
}
