package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/agent/toolout"
	"github.com/agentverify/agentverify/change/editset"
	"github.com/agentverify/agentverify/change/gitchange"
	"github.com/agentverify/agentverify/policy"
	"github.com/agentverify/agentverify/report"
)

// Verifier is the verification engine; *agentverify.Checker is one.
type Verifier interface {
	Check(ctx context.Context, req agentverify.Request) (*report.Report, error)
}

// Result is what one tool call produced.
type Result struct {
	// Observation is the text the model sees, already truncated and sanitised.
	Observation string
	// Verdict is the verification status when the tool ran the engine, else "".
	Verdict report.Status
	// Report is the verification report behind Verdict.
	Report *report.Report
	// Wrote is the path the tool wrote, relative to the box's directory.
	Wrote string
	// Failed says the tool did not do what was asked (bad arguments, refused path,
	// failed verification, command error).
	Failed bool
}

// Box runs tools in one directory. It is used by one agent at a time.
type Box struct {
	dir        string // absolute, symbolic links resolved
	root       string // repository root (dir when not in a repository)
	prefix     string // dir relative to root, "" when equal, '/'-separated
	verifier   Verifier
	policyFile string   // --policy, absolute; "" means the one found at the root
	protected  []string // root-relative policy paths no tool may write
	base       string   // commit the verify tool compares against; "" = no repository
	written    []string // dir-relative paths written, in order
	// Env is the environment of run_command; nil means the process's own.
	Env []string
	// OutputLimit bounds each observation in characters (default toolout.DefaultOutputLimit).
	OutputLimit int
	// Secrets are strings never to be shown to the model (the API key).
	Secrets []string
}

// Options configure a Box.
type Options struct {
	Dir        string
	Verifier   Verifier
	PolicyFile string
	// Base is the commit holding the state at the start of the run (see the runner's
	// snapshot); "" when dir is not in a git repository.
	Base string
}

// New returns a box over opts.Dir.
func New(opts Options) (*Box, error) {
	if opts.Verifier == nil {
		return nil, errors.New("tools: no verifier")
	}
	dir, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("tools: %w", err)
	}
	if dir, err = filepath.EvalSymlinks(dir); err != nil {
		return nil, fmt.Errorf("tools: working directory: %w", err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("tools: %s is not a directory", opts.Dir)
	}
	b := &Box{dir: dir, root: dir, verifier: opts.Verifier, base: opts.Base}
	if repo, err := gitchange.Open(dir); err == nil {
		root, err := filepath.EvalSymlinks(repo.Root())
		if err == nil {
			b.root = root
		}
	}
	if rel, err := filepath.Rel(b.root, dir); err == nil && rel != "." {
		b.prefix = filepath.ToSlash(rel)
	}
	b.protected = []string{policy.DefaultFile, ".agentverify.yml"}
	if opts.PolicyFile != "" {
		pf, err := filepath.Abs(opts.PolicyFile)
		if err != nil {
			return nil, fmt.Errorf("tools: policy file: %w", err)
		}
		b.policyFile = pf
		if real, err := filepath.EvalSymlinks(pf); err == nil {
			pf = real
		}
		if rel, err := filepath.Rel(b.root, pf); err == nil && filepath.IsLocal(rel) {
			b.protected = append(b.protected, filepath.ToSlash(rel))
		}
	}
	return b, nil
}

// Dir is the box's directory, absolute.
func (b *Box) Dir() string { return b.dir }

// Written lists the files written so far, relative to Dir, each once, in order.
func (b *Box) Written() []string { return slices.Clone(b.written) }

// Run executes one tool call with its JSON arguments.
func (b *Box) Run(ctx context.Context, name, args string) Result {
	var r Result
	switch name {
	case ReadFile:
		r = b.readFile(args)
	case ListFiles:
		r = b.listFiles(args)
	case WriteFile:
		r = b.writeFile(ctx, args)
	case EditFile:
		r = b.editFile(ctx, args)
	case RunCommand:
		r = b.runCommand(ctx, args)
	case Verify:
		r = b.verify(ctx, args)
	case Finish:
		var a struct {
			Answer string `json:"answer"`
		}
		if err := decode(args, &a, "answer"); err != nil {
			r = fail(err.Error())
		} else {
			r = Result{Observation: "finished"}
		}
	default:
		r = fail(fmt.Sprintf("unknown tool %q", name))
	}
	r.Observation = b.prepare(r.Observation)
	return r
}

// Final verifies everything the run changed, for the runner's closing verdict.
func (b *Box) Final(ctx context.Context) Result {
	r := b.verify(ctx, "{}")
	r.Observation = b.prepare(r.Observation)
	return r
}

// prepare is what every observation goes through before the model sees it.
func (b *Box) prepare(s string) string {
	for _, secret := range b.Secrets {
		if secret != "" {
			s = strings.ReplaceAll(s, secret, "[REDACTED]")
		}
	}
	limit := b.OutputLimit
	if limit <= 0 {
		limit = toolout.DefaultOutputLimit
	}
	return toolout.Sanitize(toolout.TruncateOutput(s, limit))
}

func fail(msg string) Result { return Result{Observation: "error: " + msg, Failed: true} }

// decode reads a tool's JSON arguments strictly: unknown keys are errors, and each
// name in required must be present.
func decode(args string, v any, required ...string) error {
	if strings.TrimSpace(args) == "" {
		args = "{}"
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal([]byte(args), &keys); err != nil {
		return fmt.Errorf("invalid arguments: not a JSON object: %v", err)
	}
	for _, k := range required {
		if _, ok := keys[k]; !ok {
			return fmt.Errorf("invalid arguments: missing %q", k)
		}
	}
	dec := json.NewDecoder(strings.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("invalid arguments: %v", err)
	}
	return nil
}

// clean validates a tool path and returns it relative to dir and to the root.
func (b *Box) clean(p string) (rel, rootRel string, err error) {
	if filepath.IsAbs(p) {
		r, err := filepath.Rel(b.dir, p)
		if err != nil || !filepath.IsLocal(r) {
			return "", "", fmt.Errorf("%s: path is outside the working directory", p)
		}
		p = r
	}
	rel, err = editset.Clean(b.dir, p)
	if err != nil {
		return "", "", err
	}
	return rel, path.Join(b.prefix, rel), nil
}

// display turns a root-relative path from a report into a dir-relative one.
func (b *Box) display(p string) string {
	if b.prefix != "" && strings.HasPrefix(p, b.prefix+"/") {
		return p[len(b.prefix)+1:]
	}
	return p
}

func (b *Box) readFile(args string) Result {
	var a struct {
		Path string `json:"path"`
	}
	if err := decode(args, &a, "path"); err != nil {
		return fail(err.Error())
	}
	rel, _, err := b.clean(a.Path)
	if err != nil {
		return fail(err.Error())
	}
	data, err := os.ReadFile(filepath.Join(b.dir, filepath.FromSlash(rel)))
	if err != nil {
		return fail(fmt.Sprintf("%s: %v", rel, unwrapPath(err)))
	}
	return Result{Observation: string(data)}
}

// maxListed bounds list_files.
const maxListed = 1000

// listing collects a directory walk for list_files: at most maxListed entries,
// directories marked with a trailing slash, .git and nested node_modules not entered.
type listing struct {
	start string
	out   []string
	more  int
}

func (l *listing) visit(p string, d fs.DirEntry, err error) error {
	if err != nil {
		return err
	}
	if d.IsDir() && (d.Name() == ".git" || p != l.start && d.Name() == "node_modules") {
		return fs.SkipDir
	}
	switch {
	case p == l.start:
		if !d.IsDir() {
			l.out = append(l.out, p)
		}
	case len(l.out) >= maxListed:
		l.more++
	case d.IsDir():
		l.out = append(l.out, p+"/")
	default:
		l.out = append(l.out, p)
	}
	return nil
}

func (b *Box) listFiles(args string) Result {
	var a struct {
		Path string `json:"path"`
	}
	if err := decode(args, &a, "path"); err != nil {
		return fail(err.Error())
	}
	start := "."
	if p := strings.TrimSuffix(a.Path, "/"); p != "" && p != "." {
		rel, _, err := b.clean(p)
		if err != nil {
			return fail(err.Error())
		}
		start = rel
	}
	l := &listing{start: start}
	if err := fs.WalkDir(os.DirFS(b.dir), start, l.visit); err != nil {
		return fail(fmt.Sprintf("%s: %v", start, unwrapPath(err)))
	}
	out, more := l.out, l.more
	s := strings.Join(out, "\n")
	if more > 0 {
		s += fmt.Sprintf("\n… and %d more", more)
	}
	if s == "" {
		s = "(empty directory)"
	}
	return Result{Observation: s}
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func (b *Box) writeFile(ctx context.Context, args string) Result {
	var a struct {
		Path    string  `json:"path"`
		Content *string `json:"content"`
	}
	if err := decode(args, &a, "path", "content"); err != nil {
		return fail(err.Error())
	}
	return b.gatedWrite(ctx, a.Path, []byte(*a.Content))
}

func (b *Box) editFile(ctx context.Context, args string) Result {
	var a struct {
		Path      string `json:"path"`
		OldString string `json:"old_string"`
		NewString string `json:"new_string"`
	}
	if err := decode(args, &a, "path", "old_string", "new_string"); err != nil {
		return fail(err.Error())
	}
	rel, _, err := b.clean(a.Path)
	if err != nil {
		return fail(err.Error())
	}
	if a.OldString == "" {
		return fail("old_string is empty; use write_file to create a file")
	}
	old, err := os.ReadFile(filepath.Join(b.dir, filepath.FromSlash(rel)))
	if err != nil {
		return fail(fmt.Sprintf("%s: %v", rel, unwrapPath(err)))
	}
	switch n := bytes.Count(old, []byte(a.OldString)); n {
	case 1:
	case 0:
		return fail(fmt.Sprintf("%s: old_string not found (0 matches); it must match exactly once", rel))
	default:
		return fail(fmt.Sprintf("%s: old_string matches %d times; it must match exactly once — include more context", rel, n))
	}
	content := bytes.Replace(old, []byte(a.OldString), []byte(a.NewString), 1)
	return b.gatedWrite(ctx, rel, content)
}
