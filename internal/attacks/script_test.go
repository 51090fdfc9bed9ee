package attacks

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/agentverify/agentverify/internal/testkit/shorttest"
)

// script is one attack read from testdata/NAME.txtar.
//
// The archive's comment says what the agent tries. Files named base/PATH are committed as
// the base commit (HEAD); files named head/PATH are what the agent writes into the working
// tree afterwards; the .attack section lists the steps, one a line; any other section is
// content a step refers to by name (stdin is the standard input of every run). $ROOT in
// steps and in stdin is the repository's absolute path.
type script struct {
	name    string
	comment string
	steps   []step
	base    map[string]string
	head    map[string]string
	named   map[string]string
}

// notInShortSample names the scripts -short leaves out: every one that runs the built
// agentverify binary (real git hooks; building it costs more than the rest of -short),
// and of the others, which each verify a change in process, all but one in eight.
func notInShortSample(scripts []*script) map[string]bool {
	out := map[string]bool{}
	n := 0
	for _, s := range scripts {
		if s.needsBinary() {
			out[s.name] = testing.Short()
			continue
		}
		out[s.name] = !shorttest.Runs(n, 8)
		n++
	}
	return out
}

// needsBinary reports whether the script runs the built agentverify command: it installs
// the git hook, or runs git (through the hook) or the command itself.
func (s *script) needsBinary() bool {
	for _, st := range s.steps {
		if st.verb == "hook-install" || st.verb == "run" && len(st.args) > 0 && (st.args[0] == "git" || st.args[0] == "git-served" || st.args[0] == "av-served") {
			return true
		}
	}
	return false
}

// step is one line of the .attack section.
type step struct {
	line int
	raw  string // the whole line
	verb string
	args []string
}

// rest returns the line after its first n fields, for arguments that contain spaces.
func (s step) rest(n int) string {
	line := strings.TrimSpace(s.raw)
	for i := 0; i < n; i++ {
		line = strings.TrimLeft(line, " \t")
		j := strings.IndexAny(line, " \t")
		if j < 0 {
			return ""
		}
		line = line[j:]
	}
	return strings.TrimSpace(line)
}

func (s step) String() string { return fmt.Sprintf(".attack:%d: %s", s.line, strings.TrimSpace(s.raw)) }

// loadScripts reads every testdata/*.txtar, sorted by name.
func loadScripts(t *testing.T) []*script {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	var out []*script
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := parseScript(strings.TrimSuffix(filepath.Base(f), ".txtar"), data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, s)
	}
	return out
}

// parseScript splits an archive into its parts and checks that it runs something and
// expects something.
func parseScript(name string, data []byte) (*script, error) {
	ar := txtar.Parse(data)
	s := &script{name: name, comment: strings.TrimSpace(string(ar.Comment)),
		base: map[string]string{}, head: map[string]string{}, named: map[string]string{}}
	for _, f := range ar.Files {
		switch {
		case f.Name == ".attack":
			s.steps = parseSteps(string(f.Data))
		case strings.HasPrefix(f.Name, "base/"):
			s.base[strings.TrimPrefix(f.Name, "base/")] = string(f.Data)
		case strings.HasPrefix(f.Name, "head/"):
			s.head[strings.TrimPrefix(f.Name, "head/")] = string(f.Data)
		default:
			s.named[f.Name] = string(f.Data)
		}
	}
	if s.comment == "" {
		return nil, fmt.Errorf("no comment saying what the attack tries")
	}
	runs, wants := 0, 0
	for _, st := range s.steps {
		if err := validStep(st); err != nil {
			return nil, fmt.Errorf("%s: %v", st, err)
		}
		switch st.verb {
		case "run":
			runs++
		case "want":
			wants++
		}
	}
	if runs == 0 || wants == 0 {
		return nil, fmt.Errorf(".attack has %d run and %d want steps; want at least one of each", runs, wants)
	}
	return s, nil
}

// validStep rejects a step or expectation the runner does not know, so a typo in a script
// is a failing test, not an attack that looks open.
func validStep(st step) error {
	switch st.verb {
	case "git", "rm", "symlink", "mkfifo", "chmod", "touch-reset", "write", "bigfile", "append-nul",
		"many", "hook-write", "timeout", "commit", "hook-install", "submodule", "subcommit":
		return nil
	case "run":
		if len(st.args) == 0 {
			return fmt.Errorf("run what?")
		}
		return nil
	case "want":
		if len(st.args) == 0 {
			return fmt.Errorf("want what?")
		}
		switch st.args[0] {
		case "exit", "http", "rule", "!rule", "out", "denied":
			return nil
		}
		return fmt.Errorf("unknown expectation %q", st.args[0])
	}
	return fmt.Errorf("unknown step %q", st.verb)
}

func parseSteps(text string) []step {
	var out []step
	for i, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		out = append(out, step{line: i + 1, raw: line, verb: f[0], args: f[1:]})
	}
	return out
}

// bigGo returns a Go file of at least size bytes with a compile error at the top: if the
// gate reads it, the error is found; if it skips it, nothing is.
func bigGo(size int) string {
	var b strings.Builder
	b.WriteString("package m\n\n// Big refers to nothing.\nvar Big = undefinedBig\n\n")
	for b.Len() < size {
		b.WriteString("// padding padding padding padding padding padding padding padding padding\n")
	}
	return b.String()
}
