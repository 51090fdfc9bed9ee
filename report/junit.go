package report

import (
	"fmt"
	"io"
)

// junitSuites is the JUnit XML format as GitLab, Jenkins and most CI systems read it.
type junitSuites struct {
	XMLName  struct{}     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Error     *junitFailure `xml:"error,omitempty"`
	Skipped   *struct{}     `xml:"skipped,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes the report as JUnit XML: one test suite per dimension, one failed test
// case per violation (warnings included, typed by severity so a reader can tell them apart),
// one passing case for a dimension with no violation and one skipped case for a dimension
// the policy skipped, so the report shows what ran. What could not be verified is an
// <error> (the test could not run), not a <failure>: a dimension's internal error in its
// suite, or, for a run that stopped before any dimension, one case in a suite "agentverify".
func WriteJUnit(w io.Writer, r *Report) error {
	doc := junitSuites{Name: "agentverify", Time: seconds(r.DurationMS)}
	add := func(s junitSuite) {
		s.Tests = len(s.Cases)
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Errors += s.Errors
		doc.Skipped += s.Skipped
		doc.Suites = append(doc.Suites, s)
	}
	for _, d := range r.DimensionResults {
		s := junitSuite{Name: d.Dimension, Time: seconds(d.DurationMS)}
		for _, v := range r.Violations {
			if v.Dimension == d.Dimension {
				s.addCase(v)
			}
		}
		switch {
		case d.Skipped:
			s.Cases = append(s.Cases, junitCase{Name: d.Dimension, Classname: "agentverify", Skipped: &struct{}{}})
			s.Skipped++
		case len(s.Cases) == 0:
			s.Cases = append(s.Cases, junitCase{Name: d.Dimension, Classname: "agentverify"})
		}
		add(s)
	}
	if extra := unverified(r); extra != nil {
		s := junitSuite{Name: "agentverify", Time: seconds(r.DurationMS)}
		s.addCase(extra[0])
		add(s)
	}
	return writeXML(w, doc)
}

// addCase adds the case of one violation: an <error> for what could not be verified, a
// <failure> for the rest.
func (s *junitSuite) addCase(v Violation) {
	body := &junitFailure{Message: v.Message, Type: string(v.Severity),
		Text: fmt.Sprintf("%s:%d:%d: %s [%s]", v.Location.File, max(v.Location.Line, 1), v.Location.Column, messageWithSuggestion(v), v.Rule)}
	c := junitCase{Name: fmt.Sprintf("%s %s:%d", v.Rule, v.Location.File, max(v.Location.Line, 1)), Classname: v.Location.File}
	if IsInternalError(v.Rule) || v.Rule == UnverifiedRule {
		c.Error, body.Type = body, "error"
		s.Errors++
	} else {
		c.Failure = body
		s.Failures++
	}
	s.Cases = append(s.Cases, c)
}

func seconds(ms int64) string { return fmt.Sprintf("%.3f", float64(ms)/1000) }
