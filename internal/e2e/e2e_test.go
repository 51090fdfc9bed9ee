package e2e

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/internal/testkit/pyrighttest"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
	"github.com/agentverify/agentverify/report"
)

// script is one case of testdata: its directives (the .case file) and its files.
//
// Directives, one a line: `mode check` (default: the tree as it is, agentverify check),
// `mode diff` (the base committed, the change in the working tree) or `mode staged` (the
// change staged, then the after/ files written over the working tree); `needs pyright`;
// `only DIMENSION` (list only that dimension's violations); `show message`, `show
// suggestion`, `show related` (add them to each listed violation). Files under base/ are
// the base commit only, under head/ the change only, under after/ the working tree after
// staging; other files are in both. The want file is the listing, one violation a line
// as "FILE:LINE:COL RULE", sorted.
type script struct {
	mode, only string
	pyright    bool
	show       map[string]bool
	base, head map[string]string
	after      map[string]string
	want       string
}

func parse(data []byte) (*script, error) {
	a := txtar.Parse(data)
	s := &script{mode: "check", show: map[string]bool{}, base: map[string]string{}, head: map[string]string{}, after: map[string]string{}}
	for _, f := range a.Files {
		content := string(f.Data)
		switch name := f.Name; {
		case name == ".case":
			if err := s.directives(content); err != nil {
				return nil, err
			}
		case name == "want":
			s.want = content
		case strings.HasPrefix(name, "base/"):
			s.base[strings.TrimPrefix(name, "base/")] = content
		case strings.HasPrefix(name, "head/"):
			s.head[strings.TrimPrefix(name, "head/")] = content
		case strings.HasPrefix(name, "after/"):
			s.after[strings.TrimPrefix(name, "after/")] = content
		default:
			s.base[name] = content
		}
	}
	return s, nil
}

func (s *script) directives(text string) error {
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 0 || strings.HasPrefix(f[0], "#"):
		case len(f) == 2 && f[0] == "mode" && slices.Contains([]string{"check", "diff", "staged"}, f[1]):
			s.mode = f[1]
		case len(f) == 2 && f[0] == "needs" && f[1] == "pyright":
			s.pyright = true
		case len(f) == 2 && f[0] == "only":
			s.only = f[1]
		case len(f) == 2 && f[0] == "show" && slices.Contains([]string{"message", "suggestion", "related"}, f[1]):
			s.show[f[1]] = true
		default:
			return fmt.Errorf("unknown directive %q", line)
		}
	}
	return nil
}

var update = flag.Bool("update", false, "rewrite the want file of every script with the violations found")

// TestFrontends plays every testdata/*.txtar script through agentverify.Check. With
// -update it writes what it found as each script's want file (review the diff).
func TestFrontends(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			s, err := parse(data)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if s.pyright {
				pyrighttest.Require(t)
			}
			got := s.listing(s.run(t))
			if *update {
				rewriteWant(t, file, data, got)
				return
			}
			if got != s.want {
				t.Errorf("%s: violations:\n%s\nwant:\n%s", file, got, s.want)
			}
		})
	}
}

// run builds the case's tree or repository and verifies it.
func (s *script) run(t *testing.T) *report.Report {
	req := agentverify.Request{Source: agentverify.Paths}
	if s.mode == "check" {
		req.Dir = t.TempDir()
		writeFiles(t, req.Dir, s.base)
		writeFiles(t, req.Dir, s.head)
	} else {
		r := testrepo.New(t, s.base)
		r.WriteTB(t, s.head)
		req.Dir, req.Source = r.Dir, agentverify.WorkingTree
		if s.mode == "staged" {
			r.GitTB(t, "add", "-A")
			r.WriteTB(t, s.after)
			req.Source = agentverify.Staged
		}
	}
	rep, err := agentverify.Check(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// listing lists the report's violations as the want file does.
func (s *script) listing(rep *report.Report) string {
	var out []string
	for _, v := range rep.Violations {
		if s.only != "" && v.Dimension != s.only {
			continue
		}
		line := fmt.Sprintf("%s:%d:%d %s", v.Location.File, v.Location.Line, v.Location.Column, v.Rule)
		if s.show["message"] {
			line += " | " + v.Message
		}
		if s.show["suggestion"] {
			line += " | suggestion: " + v.Suggestion
		}
		if s.show["related"] {
			for _, r := range v.Related {
				line += fmt.Sprintf(" | related %s:%d base=%v", r.Location.File, r.Location.Line, r.Base)
			}
		}
		out = append(out, line)
	}
	slices.Sort(out)
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n") + "\n"
}

// rewriteWant replaces the want file of the script in file.
func rewriteWant(t *testing.T, file string, data []byte, want string) {
	a := txtar.Parse(data)
	for i := range a.Files {
		if a.Files[i].Name == "want" {
			a.Files[i].Data = []byte(want)
		}
	}
	if out := txtar.Format(a); !bytes.Equal(out, data) {
		if err := os.WriteFile(file, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
