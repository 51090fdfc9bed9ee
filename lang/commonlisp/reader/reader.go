package reader

import (
	"bytes"
	"sort"
	"strconv"
)

// Options configure a read.
type Options struct {
	// Features is the feature list #+ and #- test against: keyword names in upper case
	// without the colon ("SBCL"), and "PKG::NAME" for a symbol of another package that
	// a system pushes at load time ("ALEXANDRIA::SEQUENCE-EMPTYP"). Nil means
	// DefaultFeatures().
	Features []string
}

// Error is a syntax error at a position.
type Error struct {
	Pos Pos
	Msg string
}

// Error formats the error as "line:column: message".
func (e *Error) Error() string {
	return strconv.Itoa(e.Pos.Line) + ":" + strconv.Itoa(e.Pos.Column) + ": " + e.Msg
}

// Comment is a ';' line comment or a '#|…|#' block comment; Text includes the markers.
type Comment struct {
	Span  Span
	Text  string
	Block bool
}

// File is the result of reading one source.
type File struct {
	// Forms are the top-level forms read, in order, including those after an error.
	Forms []*Form
	// Comments are every comment outside strings, in order.
	Comments []Comment
	// Errors are the syntax errors, in order; the reader resumes after each at the next
	// line that starts with '(' in column 1.
	Errors []Error
	// Skipped are the spans of forms that a #+ or #- feature expression excluded.
	Skipped []Span
	// Lines are the byte offsets at which the source's lines start.
	Lines []int
}

// Pos returns the position of a byte offset into the source.
func (f *File) Pos(off int) Pos {
	off = max(off, 0)
	i := sort.Search(len(f.Lines), func(i int) bool { return f.Lines[i] > off })
	return Pos{Offset: off, Line: i, Column: off - f.Lines[i-1] + 1}
}

// maxDepth bounds the nesting of forms, so hostile input cannot exhaust the stack.
const maxDepth = 10000

// item says what the reader found where a form may start.
type item uint8

const (
	itemForm  item = iota // a form
	itemClose             // ')'
	itemDot               // a consing dot
	itemEOF               // end of input
	itemNone              // nothing: a form excluded by #+/#-
)

type reader struct {
	src      []byte
	off      int
	file     *File
	features map[string]bool
	depth    int
	bq       int // backquote nesting
	suppress int // > 0 while reading a form excluded by #+/#- (*read-suppress*)
	labels   map[int]bool
	slab     []Form
	slabSize int
	// rereadBudget is how many bytes resync may still read again.
	rereadBudget int
	strs         map[string]string // interned token texts
	upper        map[string]string // upcased token texts
}

// Read reads every top-level form of src. It never panics: syntax errors are returned in
// File.Errors with the forms that could be read before and after them.
func Read(src []byte, opts Options) *File {
	feats := opts.Features
	if feats == nil {
		feats = DefaultFeatures()
	}
	r := &reader{src: src, file: &File{Lines: lineStarts(src)}, features: make(map[string]bool, len(feats)),
		rereadBudget: 4*len(src) + 1<<16}
	for _, f := range feats {
		r.features[f] = true
	}
	if bytes.HasPrefix(src, []byte("\xEF\xBB\xBF")) {
		r.off = 3 // a UTF-8 byte order mark
	}
	r.run()
	return r.file
}

func lineStarts(src []byte) []int {
	lines := make([]int, 1, bytes.Count(src, []byte{'\n'})+1)
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			return lines
		}
		i += j + 1
		lines = append(lines, i)
	}
}

// run reads top-level forms until the end of input.
func (r *reader) run() {
	for {
		r.skipBlank()
		start := r.off
		r.labels = nil
		f, it, err := r.next()
		switch {
		case err != nil:
			r.addError(err)
			r.resync(start, r.off)
		case it == itemEOF:
			return
		case it == itemClose:
			r.fail(start, "unmatched ')'")
		case it == itemDot:
			r.fail(start, "'.' outside a list")
		case it == itemForm:
			r.file.Forms = append(r.file.Forms, f)
		}
	}
}

// nextLineParen returns the offset of the first '(' after from that starts a line, or
// the end of src.
func nextLineParen(src []byte, from int) int {
	if i := bytes.Index(src[from:], []byte("\n(")); i >= 0 {
		return from + i + 1
	}
	return len(src)
}

func (r *reader) fail(off int, msg string) {
	r.addError(r.errAt(off, msg))
}

// addError records err unless it repeats the last one, as when resync re-reads an
// erroneous line that starts with '(' inside the form that failed.
func (r *reader) addError(err *Error) {
	errs := r.file.Errors
	if len(errs) > 0 && errs[len(errs)-1] == *err {
		return
	}
	r.file.Errors = append(errs, *err)
}

// resync moves past a top-level form that had an error, to the next line after its
// start that begins with '(', and forgets comments and skips recorded beyond it. stop is
// where reading stopped: text between the new position and stop is read again, within
// a budget of a few times the source's size, past which resync moves on from stop, so
// that hostile input (thousands of unclosed lines) costs linear time.
func (r *reader) resync(start, stop int) {
	r.off = nextLineParen(r.src, start)
	if r.off < stop {
		if cost := stop - r.off; cost <= r.rereadBudget {
			r.rereadBudget -= cost
		} else {
			r.off = nextLineParen(r.src, max(stop-1, start))
		}
	}
	cs := r.file.Comments
	for len(cs) > 0 && cs[len(cs)-1].Span.Start.Offset >= r.off {
		cs = cs[:len(cs)-1]
	}
	r.file.Comments = cs
	sk := r.file.Skipped
	for len(sk) > 0 && sk[len(sk)-1].Start.Offset >= r.off {
		sk = sk[:len(sk)-1]
	}
	r.file.Skipped = sk
}

func (r *reader) errAt(off int, msg string) *Error {
	return &Error{Pos: r.file.Pos(off), Msg: msg}
}

func (r *reader) span(start, end int) Span {
	return Span{Start: r.file.Pos(start), End: r.file.Pos(end)}
}

// skipBlank skips whitespace and comments, recording the comments.
func (r *reader) skipBlank() {
	for r.off < len(r.src) {
		c := r.src[r.off]
		switch {
		case isWhitespace(c):
			r.off++
		case c == ';':
			r.lineComment()
		case c == '#' && r.off+1 < len(r.src) && r.src[r.off+1] == '|':
			if !r.blockComment() {
				return
			}
		default:
			return
		}
	}
}

func (r *reader) lineComment() {
	start := r.off
	end := bytes.IndexByte(r.src[start:], '\n')
	if end < 0 {
		end = len(r.src)
	} else {
		end += start
	}
	r.off = end
	r.addComment(start, end, false)
}

// blockComment skips a nested #|…|# comment; at an unterminated one it stays put and
// reports false, so that the dispatch reader reports the error.
func (r *reader) blockComment() bool {
	start, level := r.off, 0
	for i := start; i+1 < len(r.src); i++ {
		switch {
		case r.src[i] == '#' && r.src[i+1] == '|':
			level++
			i++
		case r.src[i] == '|' && r.src[i+1] == '#':
			level--
			i++
			if level == 0 {
				r.off = i + 1
				r.addComment(start, r.off, true)
				return true
			}
		}
	}
	return false
}

func (r *reader) addComment(start, end int, block bool) {
	r.file.Comments = append(r.file.Comments, Comment{Span: r.span(start, end), Text: string(r.src[start:end]), Block: block})
}

// next reads what starts at the next non-blank position: a form, a ')', a consing dot
// or the end of input. Forms excluded by #+/#- are skipped.
func (r *reader) next() (*Form, item, *Error) {
	for {
		r.skipBlank()
		if r.off >= len(r.src) {
			return nil, itemEOF, nil
		}
		f, it, err := r.macro(r.src[r.off])(r, r.off)
		if err != nil || it != itemNone {
			return f, it, err
		}
	}
}

// nextForm reads the form that must follow what is at start (e.g. a quote).
func (r *reader) nextForm(start int, after string) (*Form, *Error) {
	f, it, err := r.next()
	if err != nil {
		return nil, err
	}
	switch it {
	case itemEOF:
		return nil, r.errAt(start, "end of file: no form after "+after)
	case itemClose:
		return nil, r.errAt(r.off-1, "')' where a form after "+after+" must be")
	case itemDot:
		return nil, r.errAt(r.off-1, "'.' where a form after "+after+" must be")
	}
	return f, nil
}

type macroFn func(r *reader, start int) (*Form, item, *Error)

// macro returns the reader function for a form starting with c.
func (r *reader) macro(c byte) macroFn {
	switch c {
	case '(':
		return (*reader).readList
	case ')':
		return func(r *reader, _ int) (*Form, item, *Error) { r.off++; return nil, itemClose, nil }
	case '\'':
		return (*reader).readQuote
	case '`':
		return (*reader).readBackquote
	case ',':
		return (*reader).readComma
	case '"':
		return (*reader).readString
	case '#':
		return (*reader).readDispatch
	}
	return (*reader).readTokenForm
}

func (r *reader) enter(start int) *Error {
	if r.depth >= maxDepth {
		return r.errAt(start, "forms nested too deeply")
	}
	r.depth++
	return nil
}

func (r *reader) readList(start int) (*Form, item, *Error) {
	r.off++
	items, tail, err := r.readSeq(start, true)
	if err != nil {
		return nil, itemForm, err
	}
	return r.alloc(Form{Kind: List, Items: items, Tail: tail, Span: r.span(start, r.off)}), itemForm, nil
}

// readSeq reads the elements of a list or vector after its '(' through its ')'.
func (r *reader) readSeq(open int, dotted bool) ([]*Form, *Form, *Error) {
	if err := r.enter(open); err != nil {
		return nil, nil, err
	}
	defer func() { r.depth-- }()
	var items []*Form
	for {
		r.skipBlank()
		dot := r.off
		f, it, err := r.next()
		switch {
		case err != nil:
			return nil, nil, err
		case it == itemEOF:
			return nil, nil, r.errAt(open, "unbalanced '(': end of file before its ')'")
		case it == itemClose:
			return items, nil, nil
		case it == itemDot && !dotted && r.suppress == 0:
			return nil, nil, r.errAt(dot, "'.' inside a vector")
		case it == itemDot && len(items) == 0 && r.suppress == 0:
			return nil, nil, r.errAt(dot, "'.' not after a list element")
		case it == itemDot:
			tail, err := r.readTail(dot)
			return items, tail, err
		}
		items = append(items, f)
	}
}

// readTail reads the form after a consing dot and the ')' that must follow it.
func (r *reader) readTail(dot int) (*Form, *Error) {
	tail, err := r.nextForm(dot, "'.'")
	if err != nil {
		return nil, err
	}
	_, it, err := r.next()
	if err != nil {
		return nil, err
	}
	if it != itemClose {
		return nil, r.errAt(dot, "more than one form after '.' in a list")
	}
	return tail, nil
}

func (r *reader) readQuote(start int) (*Form, item, *Error) {
	r.off++
	return r.wrap(Quote, start, "'")
}

// wrap reads the form after a prefix and wraps it in a form of kind.
func (r *reader) wrap(kind Kind, start int, mark string) (*Form, item, *Error) {
	if err := r.enter(start); err != nil {
		return nil, itemForm, err
	}
	defer func() { r.depth-- }()
	f, err := r.nextForm(start, mark)
	if err != nil {
		return nil, itemForm, err
	}
	return r.alloc(Form{Kind: kind, Items: []*Form{f}, Span: r.span(start, r.off)}), itemForm, nil
}

func (r *reader) readBackquote(start int) (*Form, item, *Error) {
	r.off++
	r.bq++
	defer func() { r.bq-- }()
	return r.wrap(Backquote, start, "'`'")
}

func (r *reader) readComma(start int) (*Form, item, *Error) {
	if r.bq == 0 && r.suppress == 0 {
		return nil, itemForm, r.errAt(start, "comma not inside a backquote")
	}
	r.off++
	kind, mark := Unquote, "','"
	if r.off < len(r.src) && r.src[r.off] == '@' {
		kind, mark = UnquoteSplice, "',@'"
		r.off++
	} else if r.off < len(r.src) && r.src[r.off] == '.' {
		kind, mark = UnquoteNSplice, "',.'"
		r.off++
	}
	r.bq--
	defer func() { r.bq++ }()
	return r.wrap(kind, start, mark)
}

func (r *reader) readString(start int) (*Form, item, *Error) {
	s, err := r.stringBody(start)
	if err != nil {
		return nil, itemForm, err
	}
	return r.alloc(Form{Kind: String, Name: s, Span: r.span(start, r.off)}), itemForm, nil
}

// stringBody reads a string whose '"' is at r.off and returns its contents.
func (r *reader) stringBody(start int) (string, *Error) {
	r.off++
	from, escaped := r.off, false
	for i := from; i < len(r.src); i++ {
		switch r.src[i] {
		case '\\':
			escaped = true
			i++
		case '"':
			r.off = i + 1
			if !escaped {
				return string(r.src[from:i]), nil
			}
			return unescape(r.src[from:i]), nil
		}
	}
	r.off = len(r.src)
	return "", r.errAt(start, "end of file in a string that starts here")
}

func unescape(b []byte) string {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' && i+1 < len(b) {
			i++
		}
		out = append(out, b[i])
	}
	return string(out)
}

func isWhitespace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f'
}

// isTerminating reports whether c ends a token: whitespace and the terminating macro
// characters of standard syntax.
func isTerminating(c byte) bool {
	switch c {
	case '(', ')', '\'', '`', ',', '"', ';':
		return true
	}
	return isWhitespace(c)
}

// alloc returns a pointer to a copy of f, carved from a slab so that reading a file
// makes few allocations.
func (r *reader) alloc(f Form) *Form {
	if len(r.slab) == 0 {
		r.slabSize = min(max(2*r.slabSize, 16), 1024)
		r.slab = make([]Form, r.slabSize)
	}
	p := &r.slab[0]
	*p = f
	r.slab = r.slab[1:]
	return p
}
