package reader

// DefaultFeatures returns *features* of SBCL 2.2 on x86-64 Linux (Debian's sbcl package),
// with the features ASDF and UIOP add once loaded, as every system that has an .asd file
// is read with them.
func DefaultFeatures() []string {
	return []string{
		"X86-64", "GENCGC", "64-BIT", "ANSI-CL", "COMMON-LISP", "ELF", "IEEE-FLOATING-POINT",
		"LINUX", "LITTLE-ENDIAN", "PACKAGE-LOCAL-NICKNAMES", "SB-CORE-COMPRESSION", "SB-LDB",
		"SB-PACKAGE-LOCKS", "SB-THREAD", "SB-UNICODE", "SBCL", "UNIX",
		"ASDF", "ASDF2", "ASDF3", "ASDF3.1", "ASDF3.2", "ASDF3.3", "OS-UNIX",
		"NON-BASE-CHARS-EXIST-P", "ASDF-UNICODE",
	}
}

func featureReader(want bool) dispatchFn {
	return func(r *reader, start, _ int, _ bool) (*Form, item, *Error) {
		return r.readConditional(start, want)
	}
}

// readConditional reads #+ (want) or #- (!want): a feature expression, then a form that
// is returned when the expression's value is want and skipped otherwise, as SBCL does
// also inside a skipped form ("#+nil #+nil a b" skips a and b). The feature expression is
// read with *read-suppress* off, as SBCL binds it, so (or …) in a form an outer #+/#-
// excludes is still an operator; only the outermost excluded form is recorded.
func (r *reader) readConditional(start int, want bool) (*Form, item, *Error) {
	mark := "#+"
	if !want {
		mark = "#-"
	}
	outer := r.suppress
	r.suppress = 0
	expr, err := r.nextForm(start, mark)
	r.suppress = outer
	if err != nil {
		return nil, itemForm, err
	}
	v, err := r.feature(expr)
	if err != nil {
		return nil, itemForm, err
	}
	if v == want {
		f, err := r.nextForm(start, mark+" feature expression")
		return f, itemForm, err
	}
	r.suppress++
	f, err := r.nextForm(start, mark+" feature expression")
	r.suppress--
	if err != nil {
		return nil, itemForm, err
	}
	if outer == 0 {
		r.file.Skipped = append(r.file.Skipped, f.Span)
	}
	return nil, itemNone, nil
}

// feature evaluates a feature expression: a symbol (a keyword when it has no package)
// is true when it is in the feature list (as "NAME", or "PKG::NAME" for a symbol of
// another package); (:and …), (:or …) and (:not x) combine.
func (r *reader) feature(x *Form) (bool, *Error) {
	switch x.Kind {
	case Symbol:
		if x.Package != "" && x.Package != Keyword {
			return r.features[x.Package+"::"+x.Name], nil
		}
		return r.features[x.Name], nil
	case List:
		return r.featureOp(x)
	}
	return false, r.errAt(x.Span.Start.Offset, "not a feature expression: "+x.String())
}

func (r *reader) featureOp(x *Form) (bool, *Error) {
	op := x.Head()
	if op == nil || op.Kind != Symbol || op.Package != "" && op.Package != Keyword || x.Tail != nil {
		return false, r.errAt(x.Span.Start.Offset, "not a feature expression: "+x.String())
	}
	args := x.Items[1:]
	switch op.Name {
	case "NOT":
		if len(args) != 1 {
			return false, r.errAt(x.Span.Start.Offset, "(:not x) takes one feature expression")
		}
		v, err := r.feature(args[0])
		return !v, err
	case "AND", "OR":
		return r.featureAll(args, op.Name == "AND")
	}
	return false, r.errAt(op.Span.Start.Offset, "unknown operator in a feature expression: "+op.String())
}

// featureAll evaluates the arguments of :and (and) or :or (!and), short-circuiting.
func (r *reader) featureAll(args []*Form, and bool) (bool, *Error) {
	for _, a := range args {
		v, err := r.feature(a)
		if err != nil || v != and {
			return !and, err
		}
	}
	return and, nil
}
