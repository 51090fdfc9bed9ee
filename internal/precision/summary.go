package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// summary prints, for each binary, per repository and in total, the samples by verdict,
// then every false alarm, missed break and run that could not verify.
func (m *measure) summary(w io.Writer) {
	for i, b := range m.bins {
		fmt.Fprintf(w, "\n## %s\n\n", b.name)
		m.table(w, i)
		m.details(w, i)
	}
}

// verdicts are the table's columns.
var verdicts = []string{clean, falseAlarm, caught, missed, otherConfig, notVerified, baseBroken, oracleEnv}

// table prints the verdicts of binary i per repository and kind.
func (m *measure) table(w io.Writer, i int) {
	byRepo := map[string]map[string]int{}
	var repos []string
	total := map[string]int{}
	for _, s := range m.samples {
		if byRepo[s.Repo] == nil {
			byRepo[s.Repo] = map[string]int{}
			repos = append(repos, s.Repo)
		}
		for _, c := range []map[string]int{byRepo[s.Repo], total} {
			c[s.Kind+" "+s.Runs[i].Verdict]++
			c[s.Kind]++
		}
	}
	sort.Strings(repos)
	fmt.Fprintf(w, "| repository | kind | samples | %s |\n", strings.Join(verdicts, " | "))
	fmt.Fprintf(w, "|---|---|---|%s\n", strings.Repeat("---|", len(verdicts)))
	for _, r := range append(repos, "total") {
		counts := byRepo[r]
		if r == "total" {
			counts = total
		}
		for _, kind := range []string{"commit", "skip"} {
			row := []string{r, kind, fmt.Sprint(counts[kind])}
			for _, v := range verdicts {
				row = append(row, fmt.Sprint(counts[kind+" "+v]))
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
		}
	}
}

// details lists the samples a person must look at: false alarms, missed breaks, runs
// that could not verify.
func (m *measure) details(w io.Writer, i int) {
	for _, s := range m.samples {
		r := s.Runs[i]
		switch r.Verdict {
		case falseAlarm, missed, notVerified:
		default:
			continue
		}
		fmt.Fprintf(w, "\n%s %s %.12s (base %.12s): %s, exit %d\n", s.Repo, s.Kind, s.Commit, s.Base, r.Verdict, r.Exit)
		for _, f := range r.Errors {
			fmt.Fprintf(w, "  %s %s:%d %s\n", f.Rule, f.File, f.Line, oneLine(f.Message, 300))
		}
		if r.Verdict == missed {
			fmt.Fprintf(w, "  oracle: %s\n", oneLine(s.Head.Output, 300))
		}
		if r.Verdict == notVerified {
			fmt.Fprintf(w, "  stderr: %s\n", oneLine(r.Stderr, 300))
		}
	}
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > max {
		s = s[:max] + "…"
	}
	return s
}
