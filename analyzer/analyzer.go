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
		files[tf.Name()] = tf
	}
	if len(paths) == 0 {
		return nil
	}
	c := &agentverify.Checker{Dimensions: []*check.Dimension{dim}}
	rep, err := c.Check(context.Background(), agentverify.Request{Dir: filepath.Dir(paths[0]), Source: agentverify.Paths, Paths: paths})
	if err != nil {
		return fmt.Errorf("agentverify: %w", err)
	}
	root, err := repoRoot(rep, paths[0], files)
	if err != nil {
		return err
	}
	for _, v := range rep.Violations {
		report1(pass, v, files[filepath.Join(root, filepath.FromSlash(v.Location.File))])
	}
	return nil
}

// repoRoot recovers the root the report's paths are relative to from one file of the
// package (the report names files relative to the repository root).
func repoRoot(rep *report.Report, first string, files map[string]*token.File) (string, error) {
	for _, f := range rep.Files {
		suffix := string(filepath.Separator) + filepath.FromSlash(f.Path)
		for name := range files {
			if len(name) > len(suffix) && name[len(name)-len(suffix):] == suffix {
				return name[:len(name)-len(suffix)], nil
			}
		}
	}
	return "", fmt.Errorf("agentverify: no report path matches %s", first)
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
