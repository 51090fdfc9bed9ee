package index

import (
	"github.com/agentverify/agentverify/lang/commonlisp/lambdalist"
	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

// structOptions are the options of a defstruct that decide the names it defines.
type structOptions struct {
	concName     string
	constructors []*reader.Form // (:constructor …) options; nil means the default one
	noDefault    bool           // (:constructor nil)
	predicate    *reader.Form   // the :predicate name; nil means the default
	noPredicate  bool
	copier       *reader.Form
	noCopier     bool
}

// defstruct handles (defstruct name-and-options [doc] slot*): the structure, its
// constructors, predicate, copier and slot accessors (with their setf functions unless
// the slot is :read-only).
func (ix *indexer) defstruct(f *reader.Form, top bool) {
	if len(f.Items) < 2 {
		return
	}
	nameForm, opts := f.Items[1], []*reader.Form(nil)
	if nameForm.Kind == reader.List && len(nameForm.Items) > 0 {
		nameForm, opts = nameForm.Items[0], nameForm.Items[1:]
	}
	st, ok := ix.name(nameForm, false)
	if !ok {
		return
	}
	st.Kind, st.Via, st.Form, st.TopLevel = Structure, "defstruct", f, top
	slots := f.Items[2:]
	if len(slots) > 0 && slots[0].Kind == reader.String {
		setDoc(&st, slots[0])
		slots = slots[1:]
	}
	ix.add(st)
	so := parseStructOptions(st.Name, opts)
	ix.structFunctions(st, so, slots)
}

func parseStructOptions(name string, opts []*reader.Form) structOptions {
	so := structOptions{concName: name + "-"}
	for _, o := range opts {
		key, args := o, []*reader.Form(nil)
		if o.Kind == reader.List && len(o.Items) > 0 {
			key, args = o.Items[0], o.Items[1:]
		}
		so.option(key, args, o)
	}
	return so
}

// option applies one defstruct option: key is its keyword, args its arguments.
func (so *structOptions) option(key *reader.Form, args []*reader.Form, o *reader.Form) {
	none := len(args) > 0 && args[0].IsSymbol("NIL")
	switch {
	case key.IsKeyword("CONC-NAME"):
		so.concName = ""
		if len(args) > 0 && !none {
			so.concName = designator(args[0])
		}
	case key.IsKeyword("CONSTRUCTOR") && none:
		so.noDefault = true
	case key.IsKeyword("CONSTRUCTOR") && len(args) > 0:
		so.constructors = append(so.constructors, o)
	case key.IsKeyword("PREDICATE"):
		so.predicate, so.noPredicate = first(args), none
	case key.IsKeyword("COPIER"):
		so.copier, so.noCopier = first(args), none
	}
}

func first(args []*reader.Form) *reader.Form {
	if len(args) == 0 {
		return nil
	}
	return args[0]
}

// structFunctions records the functions a defstruct defines.
func (ix *indexer) structFunctions(st Definition, so structOptions, slots []*reader.Form) {
	fn := func(name string, at reader.Span, how string, params *lambdalist.List) {
		d := st
		d.Name, d.NameSpan, d.Kind, d.Via, d.Lambda, d.Documented = name, at, Function, "defstruct "+how, params, false
		ix.add(d)
	}
	slotNames := slotNames(slots)
	if !so.noDefault && len(so.constructors) == 0 {
		fn("MAKE-"+st.Name, st.NameSpan, ":constructor", keyLambda(slotNames))
	}
	for _, c := range so.constructors {
		ix.boaConstructor(st, c, slotNames)
	}
	if !so.noPredicate {
		fn(nameOr(so.predicate, st.Name+"-P"), spanOr(so.predicate, st.NameSpan), ":predicate", oneArg("OBJECT"))
	}
	if !so.noCopier {
		fn(nameOr(so.copier, "COPY-"+st.Name), spanOr(so.copier, st.NameSpan), ":copier", oneArg("OBJECT"))
	}
	for _, s := range slotNames {
		fn(so.concName+s.Name, s.Span, "accessor", oneArg("INSTANCE"))
		if !s.readOnly {
			d := st
			d.Name, d.NameSpan, d.Kind, d.Via, d.Setf, d.Documented = so.concName+s.Name, s.Span, Function, "defstruct accessor", true, false
			d.Lambda = &lambdalist.List{Required: []lambdalist.Param{{Name: "NEW-VALUE"}, {Name: "INSTANCE"}}}
			ix.add(d)
		}
	}
}

// boaConstructor records (:constructor name [boa-lambda-list]).
func (ix *indexer) boaConstructor(st Definition, c *reader.Form, slots []slot) {
	d := st
	d.Kind, d.Via, d.Documented = Function, "defstruct :constructor", false
	nameForm := c.Items[1]
	if nameForm.Kind != reader.Symbol {
		ix.problem(c, "defstruct "+st.Name+": constructor name "+nameForm.String()+" is not a symbol")
		return
	}
	d.Name, d.NameSpan = nameForm.Name, nameForm.Span
	if len(c.Items) > 2 {
		ix.lambda(&d, c.Items[2], lambdalist.Ordinary)
	} else {
		d.Lambda = keyLambda(slots)
	}
	ix.add(d)
}

type slot struct {
	Name     string
	Span     reader.Span
	readOnly bool
}

// slotNames reads defstruct slot descriptions: name or (name [init] {option value}*).
func slotNames(slots []*reader.Form) []slot {
	var out []slot
	for _, s := range slots {
		switch {
		case s.Kind == reader.Symbol:
			out = append(out, slot{Name: s.Name, Span: s.Span})
		case s.Kind == reader.List && len(s.Items) > 0 && s.Items[0].Kind == reader.Symbol:
			out = append(out, slot{Name: s.Items[0].Name, Span: s.Items[0].Span, readOnly: readOnly(s.Items[1:])})
		}
	}
	return out
}

func readOnly(opts []*reader.Form) bool {
	for i := 1; i+1 < len(opts); i += 2 {
		if opts[i].IsKeyword("READ-ONLY") && !opts[i+1].IsSymbol("NIL") {
			return true
		}
	}
	return false
}

func keyLambda(slots []slot) *lambdalist.List {
	l := &lambdalist.List{HasKey: true}
	for _, s := range slots {
		l.Key = append(l.Key, lambdalist.Param{Name: s.Name, Keyword: s.Name})
	}
	return l
}

func oneArg(name string) *lambdalist.List {
	return &lambdalist.List{Required: []lambdalist.Param{{Name: name}}}
}

func nameOr(f *reader.Form, def string) string {
	if f == nil {
		return def
	}
	return designator(f)
}

func spanOr(f *reader.Form, def reader.Span) reader.Span {
	if f == nil {
		return def
	}
	return f.Span
}

// designator returns the name a string designator stands for: a symbol's name, a
// string as written, a character.
func designator(f *reader.Form) string {
	switch f.Kind {
	case reader.Symbol, reader.String:
		return f.Name
	case reader.Char:
		if len(f.Name) == 1 {
			return f.Name
		}
	}
	return ""
}

// classLike handles defclass and define-condition: (op name (super*) (slot*) option*).
// Slot :reader, :writer and :accessor options define generic functions.
func classLike(kind Kind) handler {
	return func(ix *indexer, f *reader.Form, top bool) {
		if len(f.Items) < 3 {
			return
		}
		d, ok := ix.name(f.Items[1], false)
		if !ok {
			return
		}
		d.Kind, d.Via, d.Form, d.TopLevel = kind, via(f), f, top
		setDoc(&d, optionDoc(f.Items[min(4, len(f.Items)):]))
		ix.add(d)
		if len(f.Items) < 4 || f.Items[3].Kind != reader.List {
			return
		}
		for _, s := range f.Items[3].Items {
			if s.Kind == reader.List && len(s.Items) > 1 {
				ix.slotFunctions(d, s.Items[1:])
			}
		}
	}
}

// slotFunctions records the readers, writers and accessors among a slot's options.
func (ix *indexer) slotFunctions(class Definition, opts []*reader.Form) {
	for i := 0; i+1 < len(opts); i += 2 {
		key, val := opts[i], opts[i+1]
		var which string
		switch {
		case key.IsKeyword("READER"):
			which = ":reader"
		case key.IsKeyword("WRITER"):
			which = ":writer"
		case key.IsKeyword("ACCESSOR"):
			which = ":accessor"
		default:
			continue
		}
		d, ok := ix.name(val, which == ":writer")
		if !ok {
			continue
		}
		d.Kind, d.Via, d.Form, d.TopLevel = Generic, class.Via+" "+which, class.Form, class.TopLevel
		d.Lambda = oneArg("OBJECT")
		if which == ":writer" {
			d.Lambda = &lambdalist.List{Required: []lambdalist.Param{{Name: "NEW-VALUE"}, {Name: "OBJECT"}}}
		}
		ix.add(d)
		if which == ":accessor" {
			d.Setf = true
			d.Lambda = &lambdalist.List{Required: []lambdalist.Param{{Name: "NEW-VALUE"}, {Name: "OBJECT"}}}
			ix.add(d)
		}
	}
}
