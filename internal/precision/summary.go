package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// summary prints, per repository and in total, the samples by verdict, then every false
// alarm and missed break.
func (m *measure) summary(w io.Writer) {
	verdicts := []string{clean, falseAlarm, caught, missed, otherConfig, notVerified, baseBroken, oracleEnv}
	byRepo := map[string]map[string]int{}
	var repos []string
	total := map[string]int{}
	for _, s := range m.samples {
		if byRepo[s.Repo] == nil {
			byRepo[s.Repo] = map[string]int{}
			repos = append(repos, s.Repo)
		}
		byRepo[s.Repo][s.Kind+" "+s.Verdict]++
		byRepo[s.Repo][s.Kind]++
		total[s.Kind+" "+s.Verdict]++
		total[s.Kind]++
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
	m.details(w)
}

// details lists the samples a person must look at: false alarms, missed breaks, runs
// that could not verify.
func (m *measure) details(w io.Writer) {
	for _, s := range m.samples {
		switch s.Verdict {
		case falseAlarm, missed, notVerified:
		default:
			continue
		}
		fmt.Fprintf(w, "\n%s %s %.12s (base %.12s): %s, exit %d\n", s.Repo, s.Kind, s.Commit, s.Base, s.Verdict, s.Exit)
		for _, f := range s.Errors {
			fmt.Fprintf(w, "  %s %s:%d %s\n", f.Rule, f.File, f.Line, oneLine(f.Message, 300))
		}
		if s.Verdict == missed {
			fmt.Fprintf(w, "  oracle: %s\n", oneLine(s.Head.Output, 300))
		}
		if s.Verdict == notVerified {
			fmt.Fprintf(w, "  stderr: %s\n", oneLine(s.Stderr, 300))
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
