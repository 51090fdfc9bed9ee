package resolve

import (
	"testing"

	"github.com/agentverify/agentverify/lang"
)

func TestDedupe(t *testing.T) {
	at := func(line int) lang.Location { return lang.Location{File: "a.py", Line: line, Column: 1} }
	in := []lang.Problem{
		{Kind: lang.UnknownSymbol, Location: at(1), Symbol: "itertools.pairwise", Message: "pairwise is not a member"},
		{Kind: lang.APITooNew, Location: at(1), Symbol: "itertools.pairwise", Message: "new in 3.10"},
		{Kind: lang.UnknownImport, Location: at(2), Symbol: "yamll", Message: "import"},
		{Kind: lang.UnknownPackage, Location: at(2), Symbol: "yamll", Message: "no such distribution"},
		{Kind: lang.UnknownImport, Location: at(3), Symbol: "x", Message: "import"},
		{Kind: lang.UnknownImport, Location: at(3), Symbol: "x", Message: "import"},
		{Kind: lang.UnknownSymbol, Location: at(4), Symbol: "json.dumpz", Message: "dumpz"},
	}
	got := dedupe(in)
	var kinds []lang.Kind
	for _, p := range got {
		kinds = append(kinds, p.Kind)
	}
	want := []lang.Kind{lang.APITooNew, lang.UnknownPackage, lang.UnknownImport, lang.UnknownSymbol}
	if len(kinds) != len(want) {
		t.Fatalf("dedupe kept %v, want %v", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Fatalf("dedupe kept %v, want %v", kinds, want)
		}
	}
}
