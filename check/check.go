// Package check defines the interface between the engine and the dimensions, in the manner
// of golang.org/x/tools/go/analysis: a Dimension is a plain, validated value with its rules
// and a Run function; a Pass is its immutable input; a Finding is a rule firing at a place.
// Findings carry no severity: the policy decides it.
package check

import (
	"context"
	"fmt"
	"sync"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/crash"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lazyregexp"
	"github.com/agentverify/agentverify/policy"
)

// Rule is one kind of finding.
type Rule struct {
	ID      string          // "dimension/kebab-name"
	Default policy.Severity // severity when the policy says nothing
	Short   string          // one line, shown in lists and SARIF shortDescription
	Doc     string          // full description: what fires, why it matters, how to fix
}

// Dimension is one independent axis of verification.
type Dimension struct {
	Name  string // one of policy.Dimensions
	Doc   string
	Rules []*Rule
	// Run reports the findings of the dimension for the pass. An error means the
	// dimension could not complete; the engine turns it into <dim>/internal-error. In
	// diff mode the engine may run it a second time over the base view of the change
	// (Pass.Focus set) to learn which of its findings the base already had; it reads the
	// tree through the Pass (Changes.HeadFS, the files' content), never the disk directly,
	// so the same code verifies either side.
	Run func(*Pass) ([]Finding, error)
	// PerDirectory says that in check mode the dimension's findings in a directory depend
	// only on that directory's files, the policy and the inputs its frontends name
	// (lang.InputHasher): a run over any set of directories reports the same findings in
	// each of them. A result cache may then keep them per directory (design.md §9). A
	// dimension that reads the change as a whole (a count of its files) leaves it unset.
	PerDirectory bool
}

var ruleID = lazyregexp.New(`^[a-z]+/[a-z0-9]+(-[a-z0-9]+)*$`)

// Validate checks that a dimension is well formed: a known name, a Run function and rule
// IDs of the form "<name>/kebab-name", each once.
func (d *Dimension) Validate() error {
	known := false
	for _, n := range policy.Dimensions {
		known = known || n == d.Name
	}
	if !known {
		return fmt.Errorf("dimension %q: unknown name", d.Name)
	}
	if d.Run == nil {
		return fmt.Errorf("dimension %q: no Run function", d.Name)
	}
	seen := map[string]bool{}
	for _, r := range d.Rules {
		if !ruleID.MatchString(r.ID) || r.ID[:len(d.Name)+1] != d.Name+"/" {
			return fmt.Errorf("dimension %q: bad rule ID %q", d.Name, r.ID)
		}
		if seen[r.ID] {
			return fmt.Errorf("dimension %q: rule %q declared twice", d.Name, r.ID)
		}
		if r.Short == "" || r.Doc == "" {
			return fmt.Errorf("dimension %q: rule %q has no documentation", d.Name, r.ID)
		}
		if r.Default != policy.Error && r.Default != policy.Warning {
			return fmt.Errorf("dimension %q: rule %q has bad default severity %q", d.Name, r.ID, r.Default)
		}
		seen[r.ID] = true
	}
	return nil
}

// Location, Related, Fix and Edit are the language contract's: a frontend's analyses
// report them in lang.Problems, and findings carry them unchanged.
type (
	Location = lang.Location
	Related  = lang.Related
	Fix      = lang.Fix
	Edit     = lang.Edit
)

// Finding is a rule firing at a location.
type Finding struct {
	Rule       string // rule ID
	Location   Location
	Message    string
	Suggestion string // optional, e.g. "did you mean strings.TrimSpace?"
	// Related lists other places the finding concerns (where a removed declaration was at
	// the base, the declaration a broken caller uses).
	Related []Related
	// Fix, when set, is the one safe edit that resolves the finding (a missing import, a
	// did-you-mean with a single candidate): `--fix` applies it.
	Fix *Fix
	// Symbol names what the finding is about (a function, an import path), for
	// fingerprints that survive line shifts.
	Symbol string
	// Key, when set, stands for Message when the finding is matched with the base's: the
	// message without the values a change may touch (lang.Problem.Key).
	Key string
	// Introduced is set when the dimension itself established that the change introduced
	// the finding (a metric that got worse, a removed export reported at the base, a
	// broken dependent, any scope finding). The diff filter keeps such findings even when
	// they are not on a changed line; the others are kept only on changed lines.
	Introduced bool
}

// Mode says what counts as new.
type Mode int

// Modes of design.md §3.
const (
	Diff  Mode = iota // only findings introduced by the change
	All               // diff, but pre-existing findings in changed files count too (--all)
	Check             // files as they are, no base: everything counts
)

// Pass is the immutable input of one dimension run. Every dimension of a run gets the same
// Changes, Policy and Files; none may modify them.
type Pass struct {
	Context context.Context
	Changes *change.Set
	Policy  *policy.Policy
	// PolicyPath is the repository-relative path of the policy file in force
	// (DefaultFile when the policy is the built-in default); Trust says what
	// scope/policy-changed protects.
	PolicyPath string
	// Trust is what the change must not touch, in the modes where the policy comes from
	// the trusted side (diff, hooks, MCP, agent); nil in check mode.
	Trust     *Trust
	Mode      Mode
	Languages lang.Registry
	Files     *Files
	// Focus is set on a base-view pass (a run over Changes.BaseView(), made to learn which
	// findings already existed before the change): it holds the paths whose findings will
	// be matched. A dimension may skip any work that cannot produce a finding in a focus
	// file that is not marked Introduced. Nil means every file matters.
	Focus map[string]bool
	// Memo holds values shared by every pass of one verification (the head pass and its
	// base-view passes), such as a package loader whose cache the base view reuses.
	Memo *Memo
	// Fresh asks the frontends to compute everything afresh (lang.Request.Fresh).
	Fresh bool
	// FirstError says the caller acts on the first error (lang.Request.FirstError): an
	// agent's hook. The base-view passes that settle findings never carry it.
	FirstError bool
}

// Trust describes the trusted side of a verification: the policy in force comes from the
// base commit or the command line, never from the change, and the change must not alter
// the files that decide it.
type Trust struct {
	// PolicyFile is the repository-relative policy file in force, empty when the policy
	// is the built-in default or a file outside the repository.
	PolicyFile string
	// PolicyFiles are the repository paths whose change changes the policy: the policy
	// file names at the root (a new one shadows the old), the --policy file when it is
	// inside the repository, and the targets of symbolic links among them.
	PolicyFiles []string
	// Weakened says what the policy the change puts in its place loosens ("drops the
	// scope dimension"); it is set only when the change touches PolicyFiles.
	Weakened []string
	// AllowGateConfig is the trusted policy's scope.allow_gate_config_changes: it comes
	// from the base even when a human puts the change's policy in force, so a change
	// cannot grant it to itself.
	AllowGateConfig bool
	// BaseContent, when set, returns a file's content at the trusted base, for the modes
	// whose change set is built over something the change controls (in-memory edits are
	// made over the working tree): suppressions count only when that base has them. Nil
	// means the change set's base side is the trusted base.
	BaseContent func(path string) ([]byte, bool)
}

// Memo is a per-verification store, safe for concurrent use. A nil Memo stores nothing.
type Memo struct {
	mu sync.Mutex
	m  map[string]any
}

// NewMemo returns an empty Memo.
func NewMemo() *Memo { return &Memo{m: map[string]any{}} }

// Get returns the value stored under key, storing newValue() first when there is none.
func (m *Memo) Get(key string, newValue func() any) any {
	if m == nil {
		return newValue()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.m[key]
	if !ok {
		v = newValue()
		m.m[key] = v
	}
	return v
}

// Files parses each (path, side) once and shares the result between dimensions. It is safe
// for concurrent use.
type Files struct {
	c *fileCache
	// flip swaps the sides: a Files for a base view (change.Set.BaseView) shares the cache
	// of the change it reverses, whose Head side is the view's Base side.
	flip bool
}

type fileCache struct {
	langs lang.Registry
	mu    sync.Mutex
	cache map[fileKey]*parsed
}

type fileKey struct {
	path string
	side change.Side
}

type parsed struct {
	once sync.Once
	file *lang.File
	err  error
}

// NewFiles returns a parse cache over the given frontends.
func NewFiles(langs lang.Registry) *Files {
	return &Files{c: &fileCache{langs: langs, cache: map[fileKey]*parsed{}}}
}

// Flip returns the parse cache for the base view of the change: it shares this cache, with
// the sides swapped, so no file is parsed twice.
func (fs *Files) Flip() *Files { return &Files{c: fs.c, flip: !fs.flip} }

// Parse returns the parsed side s of f, or nil with no error when no frontend handles the
// file or the side is not analysable (absent, binary, symlink, too large).
func (fs *Files) Parse(f *change.File, s change.Side) (*lang.File, error) {
	path := f.Path
	if s == change.Base && f.OldPath != "" {
		path = f.OldPath
	}
	src := f.Content(s)
	if src == nil || f.Binary || f.Symlink || f.TooLarge {
		return nil, nil
	}
	fe := fs.c.langs.For(path)
	if fe == nil {
		return nil, nil
	}
	key := fileKey{path, s}
	if fs.flip {
		key.side = change.Head
		if s == change.Head {
			key.side = change.Base
		}
	}
	fs.c.mu.Lock()
	p, ok := fs.c.cache[key]
	if !ok {
		p = &parsed{}
		fs.c.cache[key] = p
	}
	fs.c.mu.Unlock()
	p.once.Do(func() { p.file, p.err = parse(fe, path, src) })
	return p.file, p.err
}

// parse runs a frontend, turning a crash into an error: once.Do would otherwise leave a
// nil file and no error behind, and every later caller would take the file for one no
// frontend handles — skipped, silently.
func parse(fe lang.Frontend, path string, src []byte) (lf *lang.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			c := crash.New(r)
			lf, err = nil, fmt.Errorf("%s: the %s frontend crashed: %v%s", path, fe.Name(), c.Value, c.Site())
		}
	}()
	return fe.Parse(path, src)
}

// Keep reports whether a finding survives the diff filter of design.md §3: in Diff mode only
// findings the change introduced (on a changed head line, or marked Introduced by their
// dimension); in All and Check mode every finding.
func (p *Pass) Keep(f Finding) bool {
	if p.Mode != Diff || f.Introduced || p.Changes.NoBase {
		return true
	}
	cf := p.Changes.File(f.Location.File)
	return cf != nil && cf.Path == f.Location.File && cf.Op != change.Delete && cf.LineChanged(f.Location.Line)
}

// Request is the pass as the language contract sees it: what a frontend's resolver or API
// comparer is asked about.
func (p *Pass) Request() *lang.Request {
	files := p.Files
	if files == nil {
		files = NewFiles(p.Languages)
	}
	req := &lang.Request{Context: p.Context, Changes: p.Changes, Policy: p.Policy, Focus: p.Focus, Parse: files.Parse, Fresh: p.Fresh,
		FirstError: p.FirstError && p.Focus == nil}
	if p.Trust != nil {
		req.Trusted = p.Trust.BaseContent
	}
	if p.Memo != nil {
		req.Memo = p.Memo
	} else {
		req.Memo = (*Memo)(nil)
	}
	return req
}

// Problem turns a frontend's problem into a finding of rule dimension/Kind.
func Problem(dimension string, pr lang.Problem) Finding {
	return Finding{
		Rule: dimension + "/" + string(pr.Kind), Location: pr.Location, Message: pr.Message,
		Suggestion: pr.Suggestion, Related: pr.Related, Fix: pr.Fix, Symbol: pr.Symbol, Key: pr.Key,
		Introduced: pr.Introduced,
	}
}
