package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/internal/testkit/sariftest"
	"github.com/agentverify/agentverify/policy"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

var testRules = []*check.Rule{
	{ID: "complexity/cyclomatic", Default: policy.Error, Short: "a function is too complex", Doc: "Cyclomatic complexity as gocyclo counts it."},
	{ID: "hallucination/unknown-symbol", Default: policy.Error, Short: "pkg.Name is not declared by pkg", Doc: "The package declares no such name."},
	{ID: "semantics/removed-export", Default: policy.Error, Short: "an exported declaration is gone", Doc: "Callers outside the change break."},
	{ID: "scope/forbidden-path", Default: policy.Error, Short: "a changed path is forbidden", Doc: "The policy forbids changes to this path."},
	{ID: "style/missing-doc", Default: policy.Warning, Short: "an exported declaration has no doc comment", Doc: "Exported declarations need a doc comment."},
}

func dims(status map[string]Status, skipped ...string) []DimensionResult {
	var out []DimensionResult
	for _, d := range policy.Dimensions {
		r := DimensionResult{Dimension: d, Status: Passed, DurationMS: 3}
		if s, ok := status[d]; ok {
			r.Status = s
			if s == Failed {
				r.Errors = 1
			} else {
				r.Warnings = 1
			}
		}
		for _, s := range skipped {
			if s == d {
				r.Skipped, r.DurationMS = true, 0
			}
		}
		out = append(out, r)
	}
	return out
}

func fixture(status Status, files []FileEntry, vs []Violation, ds []DimensionResult) *Report {
	r := &Report{SchemaVersion: SchemaVersion, Tool: Tool{Name: "agentverify", Version: "0.1.0", InformationURI: "https://github.com/agentverify/agentverify"},
		Policy: "code-writer", Status: status, Passed: status.OK(), Files: files, Violations: vs, DimensionResults: ds, DurationMS: 57, Rules: testRules,
		Source: asciiSource}
	r.Dimensions = Dimensions{Scope: true, Hallucination: true, Style: true, Semantics: true, Complexity: true}
	for _, d := range ds {
		if !d.Status.OK() {
			switch d.Dimension {
			case "scope":
				r.Dimensions.Scope = false
			case "hallucination":
				r.Dimensions.Hallucination = false
			case "complexity":
				r.Dimensions.Complexity = false
			case "semantics":
				r.Dimensions.Semantics = false
			}
		}
	}
	for i := range r.Violations {
		v := &r.Violations[i]
		v.Fingerprint = Fingerprint(v.Rule, v.Location.File, "", v.Message)
	}
	return r
}

// asciiSource gives every file 100 lines of 100 ASCII characters, so that the golden
// files' SARIF columns equal the byte columns (TestSARIFColumns covers the others).
func asciiSource(string, bool) ([]byte, bool) {
	return bytes.Repeat([]byte(strings.Repeat("x", 100)+"\n"), 100), true
}

// withFix gives v the one exact edit --fix would apply: the misspelt name replaced.
func withFix(v Violation) Violation {
	v.Suggestion = "did you mean strings.Repeat?"
	v.Fix = &check.Fix{Description: "replace Reverse with Repeat", Edits: []check.Edit{{
		Range:   check.Location{File: v.Location.File, Line: 12, Column: 17, EndLine: 12, EndColumn: 24},
		NewText: "Repeat",
	}}}
	return v
}

func fixtures() map[string]*Report {
	unknown := Violation{Rule: "hallucination/unknown-symbol", Dimension: "hallucination", Severity: policy.Error,
		Message: "strings.Reverse is not declared by package strings", Suggestion: "did you mean strings.Repeat or strings.Replace?",
		Location: check.Location{File: "auth/token.go", Line: 12, Column: 9, EndLine: 12, EndColumn: 24}}
	doc := Violation{Rule: "style/missing-doc", Dimension: "style", Severity: policy.Warning,
		Message: "exported function Verify has no doc comment", Location: check.Location{File: "auth/token.go", Line: 30, Column: 6}}
	cyclo := Violation{Rule: "complexity/cyclomatic", Dimension: "complexity", Severity: policy.Error,
		Message: "function Parse has cyclomatic complexity 22 (limit 15; was 14 at base)", Location: check.Location{File: "parse/parse.go", Line: 8, Column: 6}}
	forbidden := Violation{Rule: "scope/forbidden-path", Dimension: "scope", Severity: policy.Error,
		Message: `path vendor/x.go matches forbidden glob "vendor/**"`, Location: check.Location{File: "vendor/x.go", Line: 1}}
	odd := Violation{Rule: "style/missing-doc", Dimension: "style", Severity: policy.Warning,
		Message: "100% odd: a,b:c\nsecond line — ünïcödé", Location: check.Location{File: "dir with space/ü.go", Line: 3}}
	removed := Violation{Rule: "semantics/removed-export", Dimension: "semantics", Severity: policy.Error,
		Message: "package example.com/m/auth: Verify: removed; callers outside the change break", Location: check.Location{File: "auth/token.go", Line: 1, Column: 1},
		Related: []check.Related{{Location: check.Location{File: "auth/token.go", Line: 41, Column: 6}, Base: true, Message: "Verify was declared here"}}}
	files := []FileEntry{{Path: "auth/token.go", Operation: change.Modify}, {Path: "parse/parse.go", OldPath: "parse/old.go", Operation: change.Rename}, {Path: "vendor/x.go", Operation: change.Create}}
	return map[string]*Report{
		"passed":   fixture(Passed, []FileEntry{{Path: "a.go", Operation: change.Modify}}, nil, dims(nil)),
		"warnings": fixture(Warnings, files[:1], []Violation{doc}, dims(map[string]Status{"style": Warnings})),
		"failed": fixture(Failed, files, []Violation{unknown, doc, cyclo, forbidden},
			dims(map[string]Status{"scope": Failed, "hallucination": Failed, "style": Warnings, "complexity": Failed}, "semantics")),
		"related":    fixture(Failed, files[:1], []Violation{removed}, dims(map[string]Status{"semantics": Failed})),
		"fix":        fixture(Failed, files[:1], []Violation{withFix(unknown)}, dims(map[string]Status{"hallucination": Failed})),
		"special":    fixture(Warnings, []FileEntry{{Path: "dir with space/ü.go", Operation: change.Create}}, []Violation{odd}, dims(map[string]Status{"style": Warnings})),
		"unverified": unverifiedFixture(files, unknown, doc),
		"error":      errorFixture(),
	}
}

// unverifiedFixture is a run in which one dimension could not complete (pyright missing):
// the other dimensions' findings are reported, the verdict is error, a file was skipped.
func unverifiedFixture(files []FileEntry, found ...Violation) *Report {
	internal := Violation{Rule: "semantics/internal-error", Dimension: "semantics", Severity: policy.Error,
		Message:  "the semantics dimension could not complete: pyright is not installed (npm install -g pyright@1.1.414)",
		Location: check.Location{File: "auth/token.go", Line: 1}}
	vs := append(append([]Violation(nil), found...), internal)
	Sort(vs)
	ds := dims(map[string]Status{"hallucination": Failed, "style": Warnings, "semantics": Errored})
	r := fixture(Errored, files[:1], vs, ds)
	r.Error = "pyright is not installed (npm install -g pyright@1.1.414)"
	r.Base = "0123456789abcdef0123456789abcdef01234567"
	r.Notes = []string{"auth/.#token.go: vanished while it was read; skipped"}
	return r
}

// errorFixture is a run that stopped before any dimension: a bad --base.
func errorFixture() *Report {
	r := fixture(Errored, nil, nil, nil)
	r.Policy = ""
	r.Error = `--base "HEAD:go.mod" names a file in a tree, not a commit`
	r.Dimensions = Dimensions{}
	return r
}

var writers = map[string]func(*bytes.Buffer, *Report) error{
	"json":        func(b *bytes.Buffer, r *Report) error { return WriteJSON(b, r) },
	"sarif":       func(b *bytes.Buffer, r *Report) error { return WriteSARIF(b, r) },
	"github":      func(b *bytes.Buffer, r *Report) error { return WriteGitHub(b, r) },
	"text":        func(b *bytes.Buffer, r *Report) error { return WriteText(b, r, TextOptions{Timings: true}) },
	"color":       func(b *bytes.Buffer, r *Report) error { return WriteText(b, r, TextOptions{Color: true}) },
	"checkstyle":  func(b *bytes.Buffer, r *Report) error { return WriteCheckstyle(b, r) },
	"junit":       func(b *bytes.Buffer, r *Report) error { return WriteJUnit(b, r) },
	"codeclimate": func(b *bytes.Buffer, r *Report) error { return WriteCodeClimate(b, r) },
	"rdjson":      func(b *bytes.Buffer, r *Report) error { return WriteRDJSON(b, r) },
	"rdjsonl":     func(b *bytes.Buffer, r *Report) error { return WriteRDJSONL(b, r) },
}

func TestGolden(t *testing.T) {
	for name, rep := range fixtures() {
		for format, write := range writers {
			t.Run(name+"."+format, func(t *testing.T) {
				var buf bytes.Buffer
				if err := write(&buf, rep); err != nil {
					t.Fatal(err)
				}
				golden := filepath.Join("testdata", name+"."+format+".golden")
				if *update {
					os.MkdirAll("testdata", 0o755)
					if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test ./report -update)", err)
				}
				if !bytes.Equal(buf.Bytes(), want) {
					t.Errorf("%s differs from %s:\n%s", format, golden, buf.String())
				}
				// Determinism: the same report gives the same bytes.
				var again bytes.Buffer
				write(&again, rep)
				if !bytes.Equal(buf.Bytes(), again.Bytes()) {
					t.Error("output is not deterministic")
				}
			})
		}
	}
}

func TestTextLayout(t *testing.T) {
	var buf bytes.Buffer
	WriteText(&buf, fixtures()["failed"], TextOptions{Timings: true})
	want := "agentverify: FAILED  (policy code-writer, 3 files, 57 ms)\n" +
		"  ✗ scope          1 error\n" +
		"  ✗ hallucination  1 error\n" +
		"  ✓ style          1 warning\n" +
		"  - semantics      skipped\n" +
		"  ✗ complexity     1 error\n" +
		"\nauth/token.go:12:9: error: strings.Reverse is not declared by package strings [hallucination/unknown-symbol]\n" +
		"    suggestion: did you mean strings.Repeat or strings.Replace?\n"
	if !strings.HasPrefix(buf.String(), want) {
		t.Errorf("text output:\n%s\nwant it to start with:\n%s", buf.String(), want)
	}
	if strings.Contains(buf.String(), "\x1b[") {
		t.Error("colour without a terminal")
	}
}

// TestSARIFValid validates every fixture against the OASIS schema and checks the rules
// GitHub code scanning adds.
func TestSARIFValid(t *testing.T) {
	for name, rep := range fixtures() {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteSARIF(&buf, rep); err != nil {
				t.Fatal(err)
			}
			var levels []string
			for _, v := range rep.Violations {
				levels = append(levels, string(v.Severity))
			}
			sariftest.CheckGitHub(t, buf.Bytes(), len(rep.Rules), levels)
			sariftest.ValidateSchema(t, buf.Bytes())
		})
	}
}

// TestP3StatusIsWorstSeverity: the verdict is error iff some dimension could not complete
// (an internal-error violation), else failed iff some violation is an error, warnings iff
// there are violations and all are warnings, passed iff there are none.
func TestP3StatusIsWorstSeverity(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sevs := rapid.SliceOf(rapid.SampledFrom([]policy.Severity{policy.Error, policy.Warning})).Draw(t, "severities")
		var vs []Violation
		errors, internal := 0, false
		for i, s := range sevs {
			rule := "style/naming"
			if s == policy.Error && rapid.Bool().Draw(t, "internal"+strconv.Itoa(i)) {
				rule, internal = "semantics/internal-error", true
			}
			vs = append(vs, Violation{Rule: rule, Severity: s})
			if s == policy.Error {
				errors++
			}
		}
		want := Passed
		switch {
		case internal:
			want = Errored
		case errors > 0:
			want = Failed
		case len(vs) > 0:
			want = Warnings
		}
		if got := StatusOf(vs); got != want {
			t.Fatalf("StatusOf(%v) = %s, want %s", sevs, got, want)
		}
	})
}

func genReport(t *rapid.T) *Report {
	str := rapid.StringMatching(`[a-zA-Z0-9 ,:%ü—\n"\\]{0,20}`)
	var vs []Violation
	for i := rapid.IntRange(0, 5).Draw(t, "n"); i > 0; i-- {
		vs = append(vs, Violation{
			Rule: rapid.SampledFrom([]string{"style/naming", "scope/forbidden-path"}).Draw(t, "rule"), Dimension: "style",
			Severity: rapid.SampledFrom([]policy.Severity{policy.Error, policy.Warning}).Draw(t, "sev"),
			Message:  str.Draw(t, "msg"), Suggestion: str.Draw(t, "sugg"),
			Location: check.Location{File: str.Draw(t, "file"), Line: rapid.IntRange(1, 1000).Draw(t, "line"), Column: rapid.IntRange(0, 80).Draw(t, "col")},
		})
	}
	r := fixture(StatusOf(vs), []FileEntry{{Path: str.Draw(t, "path"), Operation: change.Modify}}, vs, dims(nil))
	r.Task = str.Draw(t, "task")
	r.Rules, r.Source = nil, nil // not part of the JSON document
	return r
}

// TestP23JSONRoundTrip: writing a report as JSON and reading it back gives the same
// report, and writing that again gives the same bytes.
func TestP23JSONRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := genReport(t)
		var first bytes.Buffer
		if err := WriteJSON(&first, r); err != nil {
			t.Fatal(err)
		}
		back, err := ReadJSON(bytes.NewReader(first.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if r.Violations == nil {
			r.Violations = []Violation{}
		}
		if !reflect.DeepEqual(back, r) {
			t.Fatalf("round trip changed the report:\n%+v\n%+v", r, back)
		}
		var second bytes.Buffer
		WriteJSON(&second, back)
		if !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Fatal("second write differs")
		}
	})
}

func TestJSONShape(t *testing.T) {
	var buf bytes.Buffer
	WriteJSON(&buf, fixtures()["passed"])
	var m map[string]any
	if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"schema_version", "tool", "policy", "status", "passed", "dimensions", "dimension_results", "files", "violations", "duration_ms"} {
		if _, ok := m[key]; !ok {
			t.Errorf("JSON lacks %q", key)
		}
	}
	if vs, ok := m["violations"].([]any); !ok || len(vs) != 0 {
		t.Errorf("violations = %v, want []", m["violations"])
	}
	if _, err := ReadJSON(strings.NewReader(`{"schema_version":2,"surprise":true}`)); err == nil {
		t.Error("unknown field accepted")
	}
	if _, err := ReadJSON(strings.NewReader(`{"schema_version":1}`)); err == nil {
		t.Error("a version 1 document (no status error) read as version 2")
	}
}

func TestFingerprintStableUnderLineShifts(t *testing.T) {
	a := Fingerprint("semantics/removed-export", "a.go", "Parse", "Parse was removed (declared at a.go:12)")
	b := Fingerprint("semantics/removed-export", "a.go", "Parse", "Parse was removed (declared at a.go:40)")
	c := Fingerprint("complexity/cyclomatic", "a.go", "Parse", "function Parse has cyclomatic complexity 22 (limit 15)")
	d := Fingerprint("complexity/cyclomatic", "a.go", "Parse", "function Parse has cyclomatic complexity 23 (limit 15)")
	if a != b {
		t.Error("fingerprint changed with the line number")
	}
	if c == d {
		t.Error("fingerprint ignores a metric value")
	}
}

func TestGitHubEscaping(t *testing.T) {
	var buf bytes.Buffer
	WriteGitHub(&buf, fixtures()["special"])
	want := "::warning file=dir with space/ü.go,line=3,title=style/missing-doc::100%25 odd: a,b:c%0Asecond line — ünïcödé\n"
	if buf.String() != want {
		t.Errorf("got  %q\nwant %q", buf.String(), want)
	}
}

// FuzzReadJSON: any input either fails with an error or gives a report that writes back
// and reads again to the same report.
func FuzzReadJSON(f *testing.F) {
	for _, rep := range fixtures() {
		var buf bytes.Buffer
		WriteJSON(&buf, rep)
		f.Add(buf.String())
	}
	f.Add(`{"schema_version":2}`)
	f.Fuzz(func(t *testing.T, in string) {
		rep, err := ReadJSON(strings.NewReader(in))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteJSON(&buf, rep); err != nil {
			t.Fatal(err)
		}
		again, err := ReadJSON(&buf)
		if err != nil {
			t.Fatalf("a report read once does not read again: %v", err)
		}
		var b1, b2 bytes.Buffer
		WriteJSON(&b1, rep)
		WriteJSON(&b2, again)
		if !bytes.Equal(b1.Bytes(), b2.Bytes()) {
			t.Fatal("write/read/write is not stable")
		}
	})
}

// TestSARIFColumns: SARIF columns count Unicode code points, as the run declares, from
// the byte columns of the report: the text at a result's column, counted in code points
// on the line, is the text at its byte column. A column of a file whose content is
// unknown is left out, never given in bytes.
func TestSARIFColumns(t *testing.T) {
	head := "package ü\n\n// 日本語 héllo\nvar x = strings.Reverse(s) // end\n"
	base := "package ü\n\nvar ü = 1 // ↯\n"
	at := func(src string, line int, token string) check.Location {
		text := strings.Split(src, "\n")[line-1]
		col := strings.Index(text, token) + 1
		return check.Location{File: "u.go", Line: line, Column: col, EndLine: line, EndColumn: col + len(token)}
	}
	v := Violation{Rule: "hallucination/unknown-symbol", Dimension: "hallucination", Severity: policy.Error, Message: "m",
		Location: at(head, 3, "héllo"),
		Related:  []check.Related{{Location: at(base, 3, "//"), Base: true, Message: "was here"}},
		Fix:      &check.Fix{Description: "d", Edits: []check.Edit{{Range: at(head, 3, "héllo"), NewText: "hello"}}}}
	unknown := Violation{Rule: "style/missing-doc", Dimension: "style", Severity: policy.Warning, Message: "m",
		Location: check.Location{File: "gone.go", Line: 2, Column: 7}}
	r := fixture(Failed, nil, []Violation{unknown, v}, dims(nil))
	r.Source = func(path string, isBase bool) ([]byte, bool) {
		switch {
		case path != "u.go":
			return nil, false
		case isBase:
			return []byte(base), true
		}
		return []byte(head), true
	}
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, r); err != nil {
		t.Fatal(err)
	}
	sariftest.ValidateSchema(t, buf.Bytes())
	type region struct{ StartLine, StartColumn, EndLine, EndColumn int }
	var log struct {
		Runs []struct {
			ColumnKind string
			Results    []struct {
				Locations        []struct{ PhysicalLocation struct{ Region region } }
				RelatedLocations []struct{ PhysicalLocation struct{ Region region } }
				Fixes            []struct {
					ArtifactChanges []struct {
						Replacements []struct{ DeletedRegion region }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if log.Runs[0].ColumnKind != "unicodeCodePoints" {
		t.Fatalf("columnKind %q", log.Runs[0].ColumnKind)
	}
	slice := func(src string, rg region) string {
		line := []rune(strings.Split(src, "\n")[rg.StartLine-1])
		return string(line[rg.StartColumn-1 : rg.EndColumn-1])
	}
	res := log.Runs[0].Results
	if got := res[0].Locations[0].PhysicalLocation.Region; got.StartColumn != 0 || got.EndColumn != 0 {
		t.Errorf("a file with unknown content has columns %+v", got)
	}
	if got := slice(head, res[1].Locations[0].PhysicalLocation.Region); got != "héllo" {
		t.Errorf("result: code points %+v slice to %q", res[1].Locations[0].PhysicalLocation.Region, got)
	}
	if got := slice(base, res[1].RelatedLocations[0].PhysicalLocation.Region); got != "//" {
		t.Errorf("related (base): %q", got)
	}
	if got := slice(head, res[1].Fixes[0].ArtifactChanges[0].Replacements[0].DeletedRegion); got != "héllo" {
		t.Errorf("fix: %q", got)
	}
}

// TestTextOneLinePerViolation: whatever a file name or message holds (line breaks,
// carriage returns, terminal escapes), each violation is one line of the text output and
// each suggestion and related place one more, so nothing a change names can forge a line.
func TestTextOneLinePerViolation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		str := rapid.StringMatching(`[a-z \n\r\t\x1b\x00\x{2028}ü"\\]{0,12}`)
		var vs []Violation
		want := 0
		for i := rapid.IntRange(1, 4).Draw(t, "n"); i > 0; i-- {
			v := Violation{Rule: "style/naming", Dimension: "style", Severity: policy.Warning,
				Message: str.Draw(t, "msg"), Suggestion: str.Draw(t, "sugg"),
				Location: check.Location{File: str.Draw(t, "file"), Line: 1}}
			if rapid.Bool().Draw(t, "related") {
				v.Related = []check.Related{{Location: check.Location{File: str.Draw(t, "rfile"), Line: 2}, Message: str.Draw(t, "rmsg")}}
			}
			want += 1 + len(v.Related)
			if v.Suggestion != "" {
				want++
			}
			vs = append(vs, v)
		}
		var buf bytes.Buffer
		WriteText(&buf, fixture(Warnings, nil, vs, nil), TextOptions{Quiet: true})
		lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
		got := 0
		for _, l := range lines {
			if l != "" {
				got++
			}
			if strings.ContainsAny(l, "\r\x1b\x00\u2028") {
				t.Fatalf("control character in a line: %q", l)
			}
		}
		if got != want {
			t.Fatalf("%d lines, want %d:\n%s", got, want, buf.String())
		}
	})
}

// TestErrorDocuments: a report that could not be verified says so in every format: an
// error entry in each format that has only entries, executionSuccessful false with the
// reason in SARIF, status error in JSON; a verified report has none of these.
func TestErrorDocuments(t *testing.T) {
	for name, rep := range fixtures() {
		errored := rep.Status == Errored
		for format, write := range writers {
			var buf bytes.Buffer
			if err := write(&buf, rep); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			var mark string
			switch format {
			case "json":
				mark = `"status": "error"`
			case "sarif":
				mark = `"executionSuccessful": false`
			case "text", "color":
				mark = "COULD NOT VERIFY"
			case "junit":
				mark = "<error "
			default:
				mark = "could not"
			}
			if strings.Contains(out, mark) != errored {
				t.Errorf("%s.%s: contains %q = %v, want %v\n%s", name, format, mark, !errored, errored, out)
			}
			if errored && !strings.Contains(out, "pyright is not installed") && !strings.Contains(out, "HEAD:go.mod") {
				t.Errorf("%s.%s does not say why:\n%s", name, format, out)
			}
		}
	}
}
