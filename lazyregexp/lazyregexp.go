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

func (r *Regexp) MatchString(s string) bool      { return r.Regexp().MatchString(s) }
func (r *Regexp) Match(b []byte) bool            { return r.Regexp().Match(b) }
func (r *Regexp) FindString(s string) string     { return r.Regexp().FindString(s) }
func (r *Regexp) FindStringIndex(s string) []int { return r.Regexp().FindStringIndex(s) }
func (r *Regexp) FindStringSubmatch(s string) []string {
	return r.Regexp().FindStringSubmatch(s)
}
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.Regexp().FindStringSubmatchIndex(s)
}
func (r *Regexp) FindAllString(s string, n int) []string {
	return r.Regexp().FindAllString(s, n)
}
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.Regexp().FindAllStringIndex(s, n)
}
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Regexp().FindAllStringSubmatch(s, n)
}
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Regexp().FindAllStringSubmatchIndex(s, n)
}
func (r *Regexp) FindSubmatch(b []byte) [][]byte { return r.Regexp().FindSubmatch(b) }
func (r *Regexp) FindAllSubmatch(b []byte, n int) [][][]byte {
	return r.Regexp().FindAllSubmatch(b, n)
}
func (r *Regexp) FindAllSubmatchIndex(b []byte, n int) [][]int {
	return r.Regexp().FindAllSubmatchIndex(b, n)
}
func (r *Regexp) FindIndex(b []byte) []int { return r.Regexp().FindIndex(b) }
func (r *Regexp) FindAllIndex(b []byte, n int) [][]int {
	return r.Regexp().FindAllIndex(b, n)
}
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Regexp().ReplaceAllString(src, repl)
}
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.Regexp().ReplaceAllStringFunc(src, repl)
}
func (r *Regexp) ReplaceAllLiteralString(src, repl string) string {
	return r.Regexp().ReplaceAllLiteralString(src, repl)
}
func (r *Regexp) ReplaceAll(src, repl []byte) []byte { return r.Regexp().ReplaceAll(src, repl) }
func (r *Regexp) Split(s string, n int) []string     { return r.Regexp().Split(s, n) }
func (r *Regexp) SubexpIndex(name string) int        { return r.Regexp().SubexpIndex(name) }
func (r *Regexp) SubexpNames() []string              { return r.Regexp().SubexpNames() }
func (r *Regexp) String() string                     { return r.Regexp().String() }
func (r *Regexp) ReplaceAllFunc(src []byte, repl func([]byte) []byte) []byte {
	return r.Regexp().ReplaceAllFunc(src, repl)
}
