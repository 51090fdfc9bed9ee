package report

import (
	"bytes"
	"encoding/json"
	"io"
	"sort"
	"strings"

	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/agentverify/agentverify/check"
)

// srcRoot is the uriBaseId of every location: paths are relative to the repository root.
const srcRoot = "%SRCROOT%"

// WriteSARIF writes the report as SARIF 2.1.0 for GitHub code scanning: one run whose
// driver lists every rule (not only those that fired), results with ruleIndex pointing
// into that list, levels equal to the policy's severities, and repository-relative URIs.
// It builds the log with go-sarif and encodes it itself, so output is indented, always has
// "results" (empty when nothing fired) and is written to w only when complete. The run's
// invocation says whether the verification could be made (executionSuccessful) and, when
// not, why (toolExecutionNotifications); notes are notifications too. Columns count
// Unicode code points, as the run declares (columns.go).
func WriteSARIF(w io.Writer, r *Report) error {
	log, err := sarif.New(sarif.Version210)
	if err != nil {
		return err
	}
	driver := sarif.NewVersionedDriver(r.Tool.Name, r.Tool.Version)
	if r.Tool.InformationURI != "" {
		driver.InformationURI = &r.Tool.InformationURI
	}
	run := sarif.NewRun(*sarif.NewTool(driver))
	run.ColumnKind = "unicodeCodePoints"
	run.OriginalUriBaseIDs = map[string]*sarif.ArtifactLocation{srcRoot: {Description: &sarif.Message{Text: ptr("The root of the repository.")}}}
	// Rules first, all of them, so that every result's ruleIndex is valid (go-sarif gives a
	// result added before its rule the index 2^64-1).
	index := map[string]int{}
	for _, rule := range sarifRules(r) {
		index[rule.ID] = len(driver.Rules)
		driver.Rules = append(driver.Rules, descriptor(rule))
	}
	cols := newColumns(r.Source)
	for _, v := range r.Violations {
		run.AddResult(result(v, uint(index[v.Rule]), cols))
	}
	run.AddInvocations(invocation(r))
	log.AddRun(run)

	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(log); err != nil {
		return err
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// sarifRules is the report's rule catalogue plus any rule a violation names that the
// catalogue lacks, sorted by ID.
func sarifRules(r *Report) []*check.Rule {
	byID := map[string]*check.Rule{}
	for _, rule := range r.Rules {
		byID[rule.ID] = rule
	}
	for _, v := range r.Violations {
		if byID[v.Rule] == nil {
			byID[v.Rule] = &check.Rule{ID: v.Rule, Default: v.Severity, Short: v.Rule, Doc: "Reported by the " + v.Dimension + " dimension."}
		}
	}
	rules := make([]*check.Rule, 0, len(byID))
	for _, rule := range byID {
		rules = append(rules, rule)
	}
	sort.Slice(rules, func(i, j int) bool { return rules[i].ID < rules[j].ID })
	return rules
}

func descriptor(rule *check.Rule) *sarif.ReportingDescriptor {
	name := ruleName(rule.ID)
	help := rule.Doc + "\n\nRun 'agentverify explain " + rule.ID + "' for this text."
	markdown := "**" + rule.ID + "**: " + rule.Short + "\n\n" + rule.Doc
	return &sarif.ReportingDescriptor{
		ID:                   rule.ID,
		Name:                 &name,
		ShortDescription:     &sarif.MultiformatMessageString{Text: ptr(rule.Short)},
		FullDescription:      &sarif.MultiformatMessageString{Text: ptr(rule.Doc)},
		Help:                 &sarif.MultiformatMessageString{Text: &help, Markdown: &markdown},
		DefaultConfiguration: &sarif.ReportingConfiguration{Level: level(string(rule.Default))},
	}
}

// ruleName turns "hallucination/unknown-symbol" into "HallucinationUnknownSymbol", the
// PascalCase identifier SARIF viewers show.
func ruleName(id string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(id, func(r rune) bool { return r == '/' || r == '-' }) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

func level(severity string) string {
	if severity == "warning" {
		return "warning"
	}
	return "error"
}

// invocation is the run's one invocation: successful unless the report is Errored, whose
// reason is an error notification; each note is a note notification.
func invocation(r *Report) *sarif.Invocation {
	inv := &sarif.Invocation{ExecutionSuccessful: ptr(r.Status != Errored)}
	if r.Status == Errored {
		reason := r.Error
		if reason == "" {
			reason = "the change could not be verified"
		}
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications,
			&sarif.Notification{Level: "error", Message: &sarif.Message{Text: ptr("could not verify: " + reason)}})
	}
	for _, n := range r.Notes {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications,
			&sarif.Notification{Level: "note", Message: &sarif.Message{Text: ptr(n)}})
	}
	return inv
}

func result(v Violation, ruleIndex uint, cols *columns) *sarif.Result {
	text := v.Message
	if v.Suggestion != "" {
		text += " (" + v.Suggestion + ")"
	}
	res := &sarif.Result{
		RuleID:    ptr(v.Rule),
		RuleIndex: &ruleIndex,
		Level:     ptr(level(string(v.Severity))),
		Message:   sarif.Message{Text: &text},
		Locations: []*sarif.Location{{PhysicalLocation: physical(v.Location, false, cols)}},
	}
	for i, r := range v.Related {
		msg := r.Message
		if r.Base {
			msg += " (at the base of the change)"
		}
		res.RelatedLocations = append(res.RelatedLocations, &sarif.Location{
			Id:               ptr(uint(i + 1)),
			PhysicalLocation: physical(r.Location, r.Base, cols),
			Message:          &sarif.Message{Text: &msg},
		})
	}
	if v.Fix != nil {
		res.Fixes = []*sarif.Fix{fix(v.Fix, cols)}
	}
	if v.Fingerprint != "" {
		res.PartialFingerprints = map[string]interface{}{"agentverify/v1": v.Fingerprint}
	}
	return res
}

// fix is a SARIF fix: one artifact change per file, one replacement per edit. The deleted
// region is the edit's range (an empty one inserts).
func fix(f *check.Fix, cols *columns) *sarif.Fix {
	out := sarif.NewFix().WithDescriptionText(f.Description)
	byFile := map[string]*sarif.ArtifactChange{}
	for _, e := range f.Edits {
		ch := byFile[e.Range.File]
		if ch == nil {
			ch = sarif.NewArtifactChange(physical(e.Range, false, cols).ArtifactLocation)
			byFile[e.Range.File] = ch
			out.AddArtifactChanges(ch)
		}
		r := e.Range
		start, _ := cols.convert(r.File, false, max(r.Line, 1), max(r.Column, 1))
		end, _ := cols.convert(r.File, false, max(r.EndLine, r.Line, 1), max(r.EndColumn, 1))
		region := &sarif.Region{StartLine: ptr(max(r.Line, 1)), StartColumn: ptr(start),
			EndLine: ptr(max(r.EndLine, r.Line, 1)), EndColumn: ptr(end)}
		text := e.NewText
		ch.WithReplacement(sarif.NewReplacement(region).WithInsertedContent(&sarif.ArtifactContent{Text: &text}))
	}
	return out
}

// physical is a repository-relative SARIF location with its region, columns in code
// points; a column that cannot be converted (the file's content is unknown) is left out
// rather than given in the wrong unit.
func physical(l check.Location, base bool, cols *columns) *sarif.PhysicalLocation {
	region := &sarif.Region{StartLine: ptr(max(l.Line, 1))}
	if l.Column > 0 {
		if c, ok := cols.convert(l.File, base, max(l.Line, 1), l.Column); ok {
			region.StartColumn = ptr(c)
		}
	}
	if l.EndLine >= max(l.Line, 1) {
		region.EndLine = ptr(l.EndLine)
		if l.EndColumn > 0 {
			if c, ok := cols.convert(l.File, base, l.EndLine, l.EndColumn); ok {
				region.EndColumn = ptr(c)
			}
		}
	}
	return &sarif.PhysicalLocation{
		ArtifactLocation: &sarif.ArtifactLocation{URI: ptr(l.File), URIBaseId: ptr(srcRoot)},
		Region:           region,
	}
}

func ptr[T any](v T) *T { return &v }
