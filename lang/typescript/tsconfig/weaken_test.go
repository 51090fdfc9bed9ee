package tsconfig

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestWeakened compares a head configuration with the trusted one: every loosening is
// found, a tightening or an unrelated edit is none.
func TestWeakened(t *testing.T) {
	const base = `{ "compilerOptions": { "strict": true, "checkJs": true, "target": "es2020", "lib": ["es2020", "dom"],
  "paths": { "@/*": ["./src/*"], "shared": ["./libs/shared"] } }, "include": ["src", "test"], "exclude": ["src/gen"] }`
	for _, tt := range []struct {
		name, head string
		want       []string // the Whats, in order; nil: nothing loosened
	}{
		{"same", base, nil},
		{"tighter", `{ "compilerOptions": { "strict": true, "checkJs": true, "noUncheckedIndexedAccess": true, "target": "es2020", "lib": ["ES2020", "DOM"],
  "paths": { "@/*": ["src/*"], "shared": ["libs/shared"] } }, "include": ["src", "test", "scripts"], "exclude": ["src/gen"] }`, nil},
		{"strict off", `{ "compilerOptions": { "strict": false, "checkJs": true, "target": "es2020", "lib": ["es2020", "dom"], "paths": { "@/*": ["./src/*"], "shared": ["./libs/shared"] } }, "include": ["src", "test"], "exclude": ["src/gen"] }`,
			[]string{"turns off strict"}}, // the checks that follow it go with it
		{"one check off", strings.Replace(base, `"strict": true,`, `"strict": true, "noImplicitAny": false,`, 1), []string{"turns off noImplicitAny"}},
		{"strict dropped", strings.Replace(base, `"strict": true,`, ``, 1), []string{"turns off strict"}},
		{"noCheck", strings.Replace(base, `"strict": true,`, `"strict": true, "noCheck": true, "skipLibCheck": true,`, 1), []string{"turns on noCheck"}},
		{"checkJs off", strings.Replace(base, `"checkJs": true`, `"checkJs": false`, 1), []string{"turns off checkJs"}},
		{"lib raised", strings.Replace(base, `"lib": ["es2020", "dom"]`, `"lib": ["es2023", "dom"]`, 1), []string{`changes lib from ["es2020","dom"] to ["es2023","dom"]`}},
		{"paths redirect", strings.Replace(base, `"shared": ["./libs/shared"]`, `"shared": ["./libs/shared"], "lodash": ["./stubs/lodash"]`, 1), []string{"sends lodash elsewhere through paths"}},
		{"catch-all redirect", strings.Replace(base, `"shared": ["./libs/shared"]`, `"shared": ["./libs/shared"], "*": ["./stubs/*"], "@*": ["./stubs/*"]`, 1), []string{"sends *, @* elsewhere through paths"}},
		{"alias added", strings.Replace(base, `"shared": ["./libs/shared"]`, `"shared": ["./libs/shared"], "~/*": ["./src/*"], "#lib": ["./lib"]`, 1), nil},
		{"exclude widened", strings.Replace(base, `"exclude": ["src/gen"]`, `"exclude": ["src/gen", "src/bad.ts"]`, 1), []string{"adds src/bad.ts to exclude"}},
		{"include narrowed", strings.Replace(base, `"include": ["src", "test"]`, `"include": ["src"]`, 1), []string{"drops test from include"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{"base/tsconfig.json": {Data: []byte(base)}, "head/tsconfig.json": {Data: []byte(tt.head)}}
			b, err := Load(fsys, "base/tsconfig.json")
			if err != nil {
				t.Fatal(err)
			}
			h, err := Load(fsys, "head/tsconfig.json")
			if err != nil {
				t.Fatal(err)
			}
			// Both as if at the root: the same directory.
			b.Dir, h.Dir = ".", "."
			rebase(b)
			rebase(h)
			var got []string
			for _, w := range Weakened(b, h) {
				got = append(got, w.What)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("Weakened:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

// rebase moves a configuration loaded under base/ or head/ to the root.
func rebase(c *Config) {
	strip := func(ps []string) []string {
		for i, p := range ps {
			ps[i] = p[strings.Index(p, "/")+1:]
		}
		return ps
	}
	c.Include, c.Exclude, c.Files = strip(c.Include), strip(c.Exclude), strip(c.Files)
	c.Options.PathsDir = "."
	for k, s := range c.Set {
		s.Dir = "."
		c.Set[k] = s
	}
}

// TestWeakenedWithoutTrusted: a configuration the base did not have is compared with the
// defaults of a file no project owns, which are the widest already.
func TestWeakenedWithoutTrusted(t *testing.T) {
	fsys := fstest.MapFS{"tsconfig.json": {Data: []byte(`{ "compilerOptions": { "strict": false, "target": "es5", "noCheck": true,
  "paths": { "@/*": ["./src/*"], "left-pad": ["./stub"] } }, "include": ["src"] }`)}}
	h, err := Load(fsys, "tsconfig.json")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range Weakened(nil, h) {
		got = append(got, w.What)
	}
	want := []string{"turns on noCheck", "sends left-pad elsewhere through paths"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
	paths := TrustedPaths(nil, h)
	if _, ok := paths["left-pad"]; ok || paths["@/*"][0] != "src/*" {
		t.Errorf("TrustedPaths = %v, want the alias without the redirect", paths)
	}
	if Weakened(h, nil) != nil {
		t.Error("no head configuration: nothing to compare")
	}
}
