package lambdalist

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

// Mode says which kind of lambda list is parsed (CLHS 3.4).
type Mode uint8

// Lambda-list kinds.
const (
	// Ordinary is the lambda list of defun, flet, labels, lambda and of a defstruct
	// BOA constructor.
	Ordinary Mode = iota
	// Macro is the lambda list of defmacro, macrolet, deftype and
	// define-compiler-macro: destructuring, &whole, &environment, &body and a dotted
	// rest.
	Macro
	// Generic is the lambda list of defgeneric: no defaults.
	Generic
	// Specialized is the lambda list of defmethod: required parameters may be
	// (var specializer).
	Specialized
)

// Param is one parameter.
type Param struct {
	// Name is the variable's name, upper case; empty for a destructuring pattern.
	Name string
	// Form is the parameter as written.
	Form *reader.Form
	// Default is the init form of an &optional, &key or &aux parameter.
	Default *reader.Form
	// Supplied is the name of the supplied-p variable, if any.
	Supplied string
	// Keyword is the name of the keyword of a &key parameter (upper case, no colon).
	Keyword string
	// Specializer is a defmethod parameter's specializer (a class name or (eql x)).
	Specializer *reader.Form
	// Pattern is a macro lambda list's destructuring pattern in place of a variable.
	Pattern *List
}

// List is a parsed lambda list.
type List struct {
	Whole, Environment *Param
	Required, Optional []Param
	// Rest is the &rest or &body parameter (or a macro lambda list's dotted tail).
	Rest *Param
	// Body is set when Rest was introduced by &body.
	Body bool
	// HasKey is set when &key appeared, even with no parameters after it.
	HasKey         bool
	Key            []Param
	AllowOtherKeys bool
	Aux            []Param
}

// section is the part of a lambda list being read; sections come in this order.
type section uint8

const (
	secRequired section = iota
	secOptional
	secRest
	secKey
	secAux
)

var sectionMarkers = map[string]section{"&OPTIONAL": secOptional, "&REST": secRest,
	"&BODY": secRest, "&KEY": secKey, "&AUX": secAux}

type parser struct {
	mode    Mode
	l       *List
	sec     section
	pending string // "&WHOLE" or "&ENVIRONMENT" awaiting its variable
	n       int    // items read so far
}

// Parse parses the lambda list f in mode. NIL is the empty lambda list.
func Parse(f *reader.Form, mode Mode) (*List, error) {
	l := &List{}
	if f.IsSymbol("NIL") {
		return l, nil
	}
	if f.Kind != reader.List {
		return nil, fmt.Errorf("lambda list %s is not a list", f)
	}
	p := &parser{mode: mode, l: l}
	for _, x := range f.Items {
		if err := p.item(x); err != nil {
			return nil, err
		}
		p.n++
	}
	if f.Tail != nil {
		if mode != Macro || l.Rest != nil || f.Tail.Kind != reader.Symbol {
			return nil, fmt.Errorf("dotted lambda list %s", f)
		}
		l.Rest = &Param{Name: f.Tail.Name, Form: f.Tail}
	}
	if p.pending != "" || p.sec == secRest && l.Rest == nil {
		return nil, fmt.Errorf("lambda list %s ends without the variable of a lambda-list keyword", f)
	}
	return l, nil
}

func isMarker(x *reader.Form) bool {
	return x.Kind == reader.Symbol && strings.HasPrefix(x.Name, "&") &&
		(x.Package == "" || x.Package == "CL" || x.Package == "COMMON-LISP") &&
		(sectionMarkers[x.Name] != 0 || x.Name == "&WHOLE" || x.Name == "&ENVIRONMENT" || x.Name == "&ALLOW-OTHER-KEYS")
}

func (p *parser) item(x *reader.Form) error {
	if p.pending != "" {
		return p.special(x)
	}
	if isMarker(x) {
		return p.marker(x)
	}
	switch p.sec {
	case secRequired:
		return p.required(x)
	case secOptional:
		return p.optional(x)
	case secRest:
		if p.l.Rest != nil {
			return fmt.Errorf("more than one variable after &rest at %s", x)
		}
		prm, err := p.variable(x)
		p.l.Rest = &prm
		return err
	case secKey:
		return p.key(x)
	}
	return p.aux(x)
}

func (p *parser) marker(x *reader.Form) error {
	switch x.Name {
	case "&WHOLE", "&ENVIRONMENT":
		if p.mode != Macro || x.Name == "&WHOLE" && p.n != 0 {
			return fmt.Errorf("%s is not allowed here", x)
		}
		p.pending = x.Name
		return nil
	case "&ALLOW-OTHER-KEYS":
		if p.sec != secKey || p.l.AllowOtherKeys {
			return errors.New("&allow-other-keys not right after the &key parameters")
		}
		p.l.AllowOtherKeys = true
		return nil
	}
	sec := sectionMarkers[x.Name]
	if sec <= p.sec || p.l.AllowOtherKeys && sec == secKey {
		return fmt.Errorf("%s out of order", x)
	}
	if p.sec == secRest && p.l.Rest == nil {
		return fmt.Errorf("&rest without its variable before %s", x)
	}
	p.sec = sec
	p.l.Body = p.l.Body || x.Name == "&BODY"
	p.l.HasKey = p.l.HasKey || sec == secKey
	return nil
}

// special reads the variable after &whole or &environment.
func (p *parser) special(x *reader.Form) error {
	prm, err := p.variable(x)
	if p.pending == "&WHOLE" {
		p.l.Whole = &prm
	} else {
		p.l.Environment = &prm
	}
	p.pending = ""
	return err
}

// variable reads a variable, or in a macro lambda list a destructuring pattern.
func (p *parser) variable(x *reader.Form) (Param, error) {
	if x.Kind == reader.Symbol && !x.IsSymbol("NIL") && !x.IsSymbol("T") && x.Package != reader.Keyword {
		return Param{Name: x.Name, Form: x}, nil
	}
	if p.mode == Macro && x.Kind == reader.List {
		sub, err := Parse(x, Macro)
		return Param{Form: x, Pattern: sub}, err
	}
	return Param{Form: x}, fmt.Errorf("%s is not a variable", x)
}

func (p *parser) required(x *reader.Form) error {
	if p.mode == Specialized && x.Kind == reader.List && p.l.Whole == nil {
		if len(x.Items) != 2 || x.Tail != nil {
			return fmt.Errorf("specialized parameter %s is not (variable specializer)", x)
		}
		prm, err := p.variable(x.Items[0])
		prm.Form, prm.Specializer = x, x.Items[1]
		p.l.Required = append(p.l.Required, prm)
		return err
	}
	prm, err := p.variable(x)
	p.l.Required = append(p.l.Required, prm)
	return err
}

// withDefault reads var or (var [init [supplied-p]]).
func (p *parser) withDefault(x *reader.Form, maxLen int) (Param, error) {
	if x.Kind != reader.List {
		return p.variable(x)
	}
	if len(x.Items) == 0 || len(x.Items) > maxLen || x.Tail != nil {
		return Param{Form: x}, fmt.Errorf("parameter %s is not (variable [init [supplied-p]])", x)
	}
	prm, err := p.variable(x.Items[0])
	prm.Form = x
	if len(x.Items) > 1 {
		prm.Default = x.Items[1]
	}
	if len(x.Items) > 2 {
		prm.Supplied = x.Items[2].Name
	}
	return prm, err
}

func (p *parser) optional(x *reader.Form) error {
	prm, err := p.withDefault(x, 3)
	p.l.Optional = append(p.l.Optional, prm)
	return err
}

func (p *parser) aux(x *reader.Form) error {
	prm, err := p.withDefault(x, 2)
	p.l.Aux = append(p.l.Aux, prm)
	return err
}

// key reads var, (var [init [supplied-p]]) or ((keyword var) [init [supplied-p]]).
func (p *parser) key(x *reader.Form) error {
	if x.Kind == reader.List && len(x.Items) > 0 && x.Items[0].Kind == reader.List {
		kv := x.Items[0]
		if len(kv.Items) != 2 || kv.Tail != nil || kv.Items[0].Kind != reader.Symbol {
			return fmt.Errorf("&key parameter %s is not ((keyword variable) …)", x)
		}
		inner := &reader.Form{Kind: reader.List, Items: append([]*reader.Form{kv.Items[1]}, x.Items[1:]...), Span: x.Span}
		prm, err := p.withDefault(inner, 3)
		prm.Form, prm.Keyword = x, kv.Items[0].Name
		p.l.Key = append(p.l.Key, prm)
		return err
	}
	prm, err := p.withDefault(x, 3)
	prm.Keyword = prm.Name
	p.l.Key = append(p.l.Key, prm)
	return err
}

// Min is the least number of arguments a call must pass.
func (l *List) Min() int { return len(l.Required) }

// Max is the most arguments a call may pass, or -1 when there is no limit (&rest or
// &key).
func (l *List) Max() int {
	if l.Rest != nil || l.HasKey {
		return -1
	}
	return len(l.Required) + len(l.Optional)
}

// Accepts reports whether a call with n arguments fits the lambda list's arity. With
// &key and no &rest, the arguments after the positional ones must come in pairs.
func (l *List) Accepts(n int) bool {
	pos := len(l.Required) + len(l.Optional)
	switch {
	case n < len(l.Required):
		return false
	case l.Rest != nil || n <= pos:
		return true
	case l.HasKey:
		return (n-pos)%2 == 0
	}
	return false
}

// HasKeyword reports whether the lambda list accepts the keyword argument :name (upper
// case): it names a &key parameter, or &allow-other-keys is present.
func (l *List) HasKeyword(name string) bool {
	if l.AllowOtherKeys {
		return true
	}
	for _, k := range l.Key {
		if k.Keyword == name {
			return true
		}
	}
	return false
}

// String prints the lambda list in a normalised form, parameter names in lower case
// and without defaults: "(a b &optional c &rest r &key d &allow-other-keys)".
func (l *List) String() string {
	var parts []string
	add := func(marker string, ps []Param) {
		if marker != "" {
			parts = append(parts, marker)
		}
		for _, p := range ps {
			parts = append(parts, p.label())
		}
	}
	add("", l.Required)
	if len(l.Optional) > 0 {
		add("&optional", l.Optional)
	}
	if l.Rest != nil {
		marker := map[bool]string{false: "&rest", true: "&body"}[l.Body]
		add(marker, []Param{*l.Rest})
	}
	if l.HasKey {
		add("&key", l.Key)
	}
	if l.AllowOtherKeys {
		parts = append(parts, "&allow-other-keys")
	}
	return "(" + strings.Join(parts, " ") + ")"
}

func (p Param) label() string {
	switch {
	case p.Pattern != nil:
		return p.Pattern.String()
	case p.Keyword != "" && p.Keyword != p.Name:
		return "((:" + strings.ToLower(p.Keyword) + " " + strings.ToLower(p.Name) + "))"
	}
	return strings.ToLower(p.Name)
}
