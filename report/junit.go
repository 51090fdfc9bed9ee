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
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
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
// the policy skipped, so the report shows what ran.
func WriteJUnit(w io.Writer, r *Report) error {
	doc := junitSuites{Name: "agentverify", Time: seconds(r.DurationMS)}
	for _, d := range r.DimensionResults {
		s := junitSuite{Name: d.Dimension, Time: seconds(d.DurationMS)}
		for _, v := range r.Violations {
			if v.Dimension != d.Dimension {
				continue
			}
			s.Cases = append(s.Cases, junitCase{
				Name:      fmt.Sprintf("%s %s:%d", v.Rule, v.Location.File, max(v.Location.Line, 1)),
				Classname: v.Location.File,
				Failure: &junitFailure{Message: v.Message, Type: string(v.Severity),
					Text: fmt.Sprintf("%s:%d:%d: %s [%s]", v.Location.File, max(v.Location.Line, 1), v.Location.Column, messageWithSuggestion(v), v.Rule)},
			})
			s.Failures++
		}
		switch {
		case d.Skipped:
			s.Cases = append(s.Cases, junitCase{Name: d.Dimension, Classname: "agentverify", Skipped: &struct{}{}})
			s.Skipped++
		case len(s.Cases) == 0:
			s.Cases = append(s.Cases, junitCase{Name: d.Dimension, Classname: "agentverify"})
		}
		s.Tests = len(s.Cases)
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Skipped += s.Skipped
		doc.Suites = append(doc.Suites, s)
	}
	return writeXML(w, doc)
}

func seconds(ms int64) string { return fmt.Sprintf("%.3f", float64(ms)/1000) }
