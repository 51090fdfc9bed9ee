// Package lazyregexp is a regular expression compiled on its first use, not at program
// start. Every command of agentverify is one process, and a hook call pays the start of
// all of them: compiled eagerly, the project's patterns (many with Unicode classes) cost
// each process milliseconds before it reads its input. Like the Go command's own
// cmd/go/internal/lazyregexp, a test binary compiles every pattern at once, so that a
// bad one fails the tests of its package.
package lazyregexp

import (
	"os"
	"regexp"
	"strings"
	"sync"
)

// Regexp is a regexp.Regexp compiled when first used. It is safe for concurrent use.
type Regexp struct {
	str  string
	once sync.Once
	rx   *regexp.Regexp
}

// New returns the lazily compiled expression str; like regexp.MustCompile, a bad
// pattern panics (when first used; at once in a test binary).
func New(str string) *Regexp {
	r := &Regexp{str: str}
	if inTest {
		r.Regexp()
	}
	return r
}

// inTest is set in test binaries, which compile every pattern as it is declared.
var inTest = len(os.Args) > 0 && strings.HasSuffix(strings.TrimSuffix(os.Args[0], ".exe"), ".test")

// Regexp returns the compiled expression.
func (r *Regexp) Regexp() *regexp.Regexp {
	r.once.Do(func() { r.rx = regexp.MustCompile(r.str) })
	return r.rx
}

// MatchString reports whether s matches, as regexp.Regexp.MatchString.
func (r *Regexp) MatchString(s string) bool {
	return r.Regexp().MatchString(s)
}

// Match reports whether b matches, as regexp.Regexp.Match.
func (r *Regexp) Match(b []byte) bool {
	return r.Regexp().Match(b)
}

// FindString is regexp.Regexp.FindString.
func (r *Regexp) FindString(s string) string {
	return r.Regexp().FindString(s)
}

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string {
	return r.Regexp().FindStringSubmatch(s)
}

// FindAllStringSubmatch is regexp.Regexp.FindAllStringSubmatch.
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Regexp().FindAllStringSubmatch(s, n)
}

// FindAllStringSubmatchIndex is regexp.Regexp.FindAllStringSubmatchIndex.
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Regexp().FindAllStringSubmatchIndex(s, n)
}

// FindSubmatch is regexp.Regexp.FindSubmatch.
func (r *Regexp) FindSubmatch(b []byte) [][]byte {
	return r.Regexp().FindSubmatch(b)
}

// FindAllSubmatch is regexp.Regexp.FindAllSubmatch.
func (r *Regexp) FindAllSubmatch(b []byte, n int) [][][]byte {
	return r.Regexp().FindAllSubmatch(b, n)
}

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Regexp().ReplaceAllString(src, repl)
}

// ReplaceAll is regexp.Regexp.ReplaceAll.
func (r *Regexp) ReplaceAll(src, repl []byte) []byte {
	return r.Regexp().ReplaceAll(src, repl)
}

// ReplaceAllFunc is regexp.Regexp.ReplaceAllFunc.
func (r *Regexp) ReplaceAllFunc(src []byte, repl func([]byte) []byte) []byte {
	return r.Regexp().ReplaceAllFunc(src, repl)
}

// String returns the source text of the expression.
func (r *Regexp) String() string {
	return r.Regexp().String()
}

// FindAllString is regexp.Regexp.FindAllString.
func (r *Regexp) FindAllString(s string, n int) []string {
	return r.Regexp().FindAllString(s, n)
}
