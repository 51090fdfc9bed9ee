package resolve

import (
	"strings"
	"testing"

	"github.com/agentverify/agentverify/change"
)

func TestOutsideFindings(t *testing.T) {
	mod := "module example.com/m\n\ngo 1.22\n\nrequire example.com/dep v0.0.0\n\n"
	for _, c := range []struct {
		name, path, base, head string
		want                   string // substring of the one finding's message, "" for none
	}{
		{"replace outside", "go.mod", "", mod + "replace example.com/dep => ../dep\n", "replaces example.com/dep with ../dep"},
		{"replace inside", "go.mod", "", mod + "replace example.com/dep => ./third_party/dep\n", ""},
		{"nested module climbing out", "sub/go.mod", "", mod + "replace example.com/dep => ../../dep\n", "../../dep"},
		{"nested module staying in", "sub/go.mod", "", mod + "replace example.com/dep => ../dep\n", ""},
		{"absolute path", "go.mod", "", mod + "replace example.com/dep => /opt/dep\n", "/opt/dep"},
		{"versioned replace", "go.mod", "", mod + "replace example.com/dep => example.com/fork v1.0.0\n", ""},
		{"already at base", "go.mod", mod + "replace example.com/dep => ../dep\n", mod + "replace example.com/dep => ../dep\n", ""},
		{"go.work use outside", "go.work", "", "go 1.22\n\nuse (\n\t.\n\t../dep\n)\n", "uses ../dep"},
		{"go.work use inside", "go.work", "", "go 1.22\n\nuse ./a\n", ""},
		{"unparsable", "go.mod", "", "module\n", ""},
	} {
		f := &change.File{Path: c.path, Head: []byte(c.head)}
		if c.base != "" {
			f.Base = []byte(c.base)
		}
		got := outsideFindings(f)
		switch {
		case c.want == "" && len(got) != 0:
			t.Errorf("%s: %+v, want none", c.name, got)
		case c.want != "" && (len(got) != 1 || !strings.Contains(got[0].Message, c.want) || got[0].Kind != OutsideRepository):
			t.Errorf("%s: %+v, want one %s naming %q", c.name, got, OutsideRepository, c.want)
		}
	}
}
