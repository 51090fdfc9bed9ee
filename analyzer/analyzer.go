package analyzer

import (
	"context"
	"fmt"
	"go/token"
	"path/filepath"

	"golang.org/x/tools/go/analysis"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/dimensions/complexity"
	"github.com/agentverify/agentverify/dimensions/style"
	"github.com/agentverify/agentverify/report"
)

// Complexity reports functions over the policy's length, nesting, cyclomatic and cognitive
// limits (the complexity dimension).
var Complexity = newAnalyzer("agentverify_complexity", complexity.Dimension)

// Style reports naming, missing doc comments, long lines and lint suppressions (the style
// dimension).
var Style = newAnalyzer("agentverify_style", style.Dimension)

// Analyzers returns every analyzer of the package.
func Analyzers() []*analysis.Analyzer { return []*analysis.Analyzer{Complexity, Style} }

func newAnalyzer(name string, dim *check.Dimension) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name: name,
		Doc:  "agentverify's " + dim.Name + " dimension: " + dim.Doc,
		URL:  agentverify.InformationURI,
		Run:  func(pass *analysis.Pass) (any, error) { return nil, run(pass, dim) },
	}
}

// run verifies the package's Go files with one dimension and reports each violation at its
// position in the pass's file set.
func run(pass *analysis.Pass, dim *check.Dimension) error {
	var paths []string
	files := map[string]*token.File{}
	for _, f := range pass.Files {
		tf := pass.Fset.File(f.Pos())
		if tf == nil {
			continue
		}
		paths = append(paths, tf.Name())
		files[resolved(tf.Name())] = tf // the report's root has its links resolved
	}
	if len(paths) == 0 {
		return nil
	}
	c := &agentverify.Checker{Dimensions: []*check.Dimension{dim}}
	rep, err := c.Check(context.Background(), agentverify.Request{Dir: filepath.Dir(paths[0]), Source: agentverify.Paths, Paths: paths})
	if err != nil {
		return fmt.Errorf("agentverify: %w", err)
	}
	for _, v := range rep.Violations {
		report1(pass, v, files[filepath.Join(rep.Root, filepath.FromSlash(v.Location.File))])
	}
	return nil
}

// resolved is path with its symbolic links resolved, or path when it cannot be.
func resolved(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}

// report1 reports v at its line and column, or at the start of the package when the file
// is not one of the pass's (a finding about a file the analysis did not parse).
func report1(pass *analysis.Pass, v report.Violation, tf *token.File) {
	pos := pass.Files[0].Package
	if tf != nil {
		line := min(max(v.Location.Line, 1), tf.LineCount())
		pos = tf.LineStart(line)
		if v.Location.Column > 1 && int(pos)-tf.Base()+v.Location.Column-1 <= tf.Size() {
			pos += token.Pos(v.Location.Column - 1)
		}
	}
	msg := v.Message
	if v.Suggestion != "" {
		msg += " (" + v.Suggestion + ")"
	}
	pass.Report(analysis.Diagnostic{Pos: pos, Category: v.Rule, Message: fmt.Sprintf("%s: %s [%s]", v.Severity, msg, v.Rule)})
}
