package style

import (
	"fmt"
	"go/token"
	"strings"
	"unicode"

	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lazyregexp"
)

// convention checks one identifier; it returns a message and the conforming name, or
// "" when the name is fine.
type convention func(id lang.Ident) (msg, should string)

var conventions = map[string]convention{
	"go":         goConvention,
	"lisp-case":  lispCase,
	"snake_case": snakeCase,
	"pep8":       pep8,
	"camelCase":  camelCase,
	"typescript": typescriptConvention,
}

// things names identifier kinds in messages.
var things = map[lang.IdentKind]string{
	lang.IdentFunc:    "func",
	lang.IdentMethod:  "method",
	lang.IdentType:    "type",
	lang.IdentVar:     "var",
	lang.IdentConst:   "const",
	lang.IdentField:   "struct field",
	lang.IdentParam:   "parameter",
	lang.IdentPackage: "package",
	lang.IdentLabel:   "label",
}

func naming(path, conv string, lf *lang.File) []check.Finding {
	fn := conventions[conv]
	if fn == nil {
		return nil
	}
	tests := map[lang.Pos]bool{} // test function names may hold underscores: TestFoo_bar
	for _, d := range lf.Decls {
		if d.Test {
			tests[d.NamePos] = true
		}
	}
	var out []check.Finding
	for _, id := range lf.Idents {
		if tests[id.Pos] {
			continue
		}
		msg, should := fn(id)
		if msg == "" {
			continue
		}
		out = append(out, check.Finding{
			Rule:       "style/naming",
			Location:   check.Location{File: path, Line: id.Pos.Line, Column: id.Pos.Column},
			Message:    msg,
			Suggestion: "rename to " + should,
			Symbol:     id.Name,
		})
	}
	return out
}

// knownNameExceptions are names golint accepts although they break the rules.
var knownNameExceptions = map[string]bool{"LastInsertId": true, "kWh": true}

var allCaps = lazyregexp.New(`^[A-Z0-9_]+$`)

// goConvention is golint's and revive's var-naming check.
func goConvention(id lang.Ident) (string, string) {
	name, thing := id.Name, things[id.Kind]
	if id.Kind == lang.IdentPackage {
		return packageConvention(name)
	}
	if knownNameExceptions[name] || token.IsKeyword(strings.TrimSuffix(name, "_")) {
		return "", "" // type_, break_: the idiom for a name that would be a keyword
	}
	if msg, should := foreignConvention(name, thing); msg != "" {
		return msg, should
	}
	should := goName(name)
	switch {
	case should == name:
		return "", ""
	case len(name) > 2 && strings.Contains(name[1:], "_"):
		return fmt.Sprintf("don't use underscores in Go names; %s %s should be %s", thing, name, should), should
	}
	return fmt.Sprintf("%s %s should be %s", thing, name, should), should
}

// packageConvention: package names are lower case without underscores (a _test suffix
// excepted).
func packageConvention(name string) (string, string) {
	base, suffix := name, ""
	if strings.HasSuffix(name, "_test") && len(name) > len("_test") {
		base, suffix = strings.TrimSuffix(name, "_test"), "_test"
	}
	should := strings.ToLower(strings.ReplaceAll(base, "_", "")) + suffix
	switch {
	case strings.Contains(base, "_"):
		return "don't use an underscore in package name", should
	case base != strings.ToLower(base):
		return fmt.Sprintf("don't use MixedCaps in package name; %s should be %s", name, should), should
	}
	return "", ""
}

// foreignConvention catches the conventions of other languages that golint names:
// ALL_CAPS constants and a leading k.
func foreignConvention(name, thing string) (string, string) {
	if len(name) >= 5 && allCaps.MatchString(name) && strings.Contains(name, "_") {
		should := goName(joinWords(strings.ToLower(name), true, ""))
		return fmt.Sprintf("don't use ALL_CAPS in Go names; %s %s should be %s", thing, name, should), should
	}
	if len(name) > 2 && name[0] == 'k' && name[1] >= 'A' && name[1] <= 'Z' {
		should := goName(string(name[1]+'a'-'A') + name[2:])
		return fmt.Sprintf("don't use leading k in Go names; %s %s should be %s", thing, name, should), should
	}
	return "", ""
}

// commonInitialisms is revive's list (golint's plus IDS): words written in one case.
var commonInitialisms = map[string]bool{
	"ACL": true, "API": true, "ASCII": true, "CPU": true, "CSS": true, "DNS": true,
	"EOF": true, "GUID": true, "HTML": true, "HTTP": true, "HTTPS": true, "ID": true,
	"IDS": true, "IP": true, "JSON": true, "LHS": true, "QPS": true, "RAM": true,
	"RHS": true, "RPC": true, "SLA": true, "SMTP": true, "SQL": true, "SSH": true,
	"TCP": true, "TLS": true, "TTL": true, "UDP": true, "UI": true, "UID": true,
	"UUID": true, "URI": true, "URL": true, "UTF8": true, "VM": true, "XML": true,
	"XMPP": true, "XSRF": true, "XSS": true,
}

// goName is the name golint would suggest: underscores removed (but one between two
// digits), words split at lower-to-upper changes, and common initialisms in one case
// (lower case only at the start of the name).
func goName(name string) string {
	if name == "_" || strings.IndexFunc(name, func(r rune) bool { return !unicode.IsLower(r) }) < 0 {
		return name
	}
	runes := []rune(name)
	w := 0 // start of the current word
	for i := 0; i < len(runes); i++ {
		var eow bool
		runes, eow = endOfWord(runes, i)
		if eow {
			fixWord(runes, w, i+1)
			w = i + 1
		}
	}
	return string(runes)
}

// endOfWord reports whether a word ends at rune i, removing the run of underscores that
// follows it (but one between two digits).
func endOfWord(runes []rune, i int) ([]rune, bool) {
	switch {
	case i+1 == len(runes):
		return runes, true
	case runes[i+1] == '_':
		n := 1 // the run of underscores after i
		for i+n+1 < len(runes) && runes[i+n+1] == '_' {
			n++
		}
		if i+n+1 < len(runes) && unicode.IsDigit(runes[i]) && unicode.IsDigit(runes[i+n+1]) {
			n--
		}
		copy(runes[i+1:], runes[i+n+1:])
		return runes[:len(runes)-n], true
	}
	return runes, unicode.IsLower(runes[i]) && !unicode.IsLower(runes[i+1])
}

// fixWord writes the word runes[w:end] the way golint wants it: an initialism in one
// case (lower only at the start of the name), other words capitalised after the first.
func fixWord(runes []rune, w, end int) {
	word := string(runes[w:end])
	if u := strings.ToUpper(word); commonInitialisms[u] {
		if w == 0 && unicode.IsLower(runes[w]) {
			u = strings.ToLower(u)
		}
		if u == "IDS" {
			u = "IDs"
		}
		copy(runes[w:], []rune(u))
	} else if w > 0 && strings.ToLower(word) == word {
		runes[w] = unicode.ToUpper(runes[w])
	}
}

// splitWords splits a name at '_', '-' and case changes: "HTTPServer_v2" is
// ["HTTP", "Server", "v2"].
func splitWords(name string) []string {
	var words []string
	rs := []rune(name)
	start := 0
	flush := func(end int) {
		if end > start {
			words = append(words, string(rs[start:end]))
		}
	}
	for i, r := range rs {
		switch {
		case r == '_' || r == '-':
			flush(i)
			start = i + 1
		case i > start && unicode.IsUpper(r) &&
			(!unicode.IsUpper(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])):
			flush(i)
			start = i
		}
	}
	flush(len(rs))
	return words
}

// joinWords joins the words of name in camel case, upper-casing the first word when
// upperFirst, with sep between words.
func joinWords(name string, upperFirst bool, sep string) string {
	var b strings.Builder
	for i, w := range splitWords(name) {
		rs := []rune(strings.ToLower(w))
		if i > 0 || upperFirst {
			rs[0] = unicode.ToUpper(rs[0])
		}
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(string(rs))
	}
	return b.String()
}

// lowerWords joins the lower-cased words of name with sep.
func lowerWords(name, sep string) string {
	words := splitWords(name)
	for i, w := range words {
		words[i] = strings.ToLower(w)
	}
	return strings.Join(words, sep)
}

// affixes splits off the Lisp markers around a name: *earmuffs*, +constants+, %internal.
func affixes(name string) (pre, core, post string) {
	core = strings.TrimLeft(name, "*+%&")
	pre = name[:len(name)-len(core)]
	trimmed := strings.TrimRight(core, "*+%?!")
	return pre, trimmed, core[len(trimmed):]
}

func lispCase(id lang.Ident) (string, string) {
	pre, core, post := affixes(id.Name)
	if !strings.ContainsAny(core, "_") && strings.ToLower(core) == core || core == "" {
		return "", ""
	}
	should := pre + lowerWords(core, "-") + post
	return fmt.Sprintf("%s %s is not lisp-case; it should be %s", things[id.Kind], id.Name, should), should
}

var (
	lowerSnake = lazyregexp.New(`^_*[\p{Ll}\p{N}]+(_+[\p{Ll}\p{N}]+)*_*$`)
	upperSnake = lazyregexp.New(`^_*[\p{Lu}\p{N}]+(_+[\p{Lu}\p{N}]+)*_*$`)
	pascal     = lazyregexp.New(`^\p{Lu}[\p{L}\p{N}]*$`)
)

func snakeCase(id lang.Ident) (string, string) {
	name := id.Name
	if lowerSnake.MatchString(name) || id.Kind == lang.IdentConst && upperSnake.MatchString(name) ||
		id.Kind == lang.IdentType && pascal.MatchString(name) {
		return "", ""
	}
	core := strings.TrimLeft(name, "_")
	should := name[:len(name)-len(core)] + lowerWords(core, "_")
	if should == name {
		return "", "" // nothing to suggest, e.g. "__"
	}
	return fmt.Sprintf("%s %s is not snake_case; it should be %s", things[id.Kind], name, should), should
}

// pep8Things names identifier kinds as Python programmers do.
var pep8Things = map[lang.IdentKind]string{
	lang.IdentFunc: "function", lang.IdentMethod: "method", lang.IdentType: "class",
	lang.IdentVar: "variable", lang.IdentConst: "constant", lang.IdentField: "class attribute",
	lang.IdentParam: "argument", lang.IdentPackage: "module", lang.IdentLabel: "label",
}

// variance is the suffix PEP 484 gives covariant and contravariant type variables.
var variance = lazyregexp.New(`_(co|contra)$`)

// pep8 is PEP 8's naming as pep8-naming checks it: classes (and type aliases, type
// variables) CapWords (N801), functions, methods, arguments and variables snake_case
// (N802, N803, N806), constants UPPER_CASE.
func pep8(id lang.Ident) (string, string) {
	if id.Kind != lang.IdentType {
		msg, should := snakeCase(id)
		if msg != "" {
			msg = fmt.Sprintf("%s %s is not snake_case; it should be %s", pep8Things[id.Kind], id.Name, should)
		}
		return msg, should
	}
	core := strings.TrimLeft(id.Name, "_")
	if pascal.MatchString(variance.ReplaceAllString(core, "")) || core == "" {
		return "", ""
	}
	should := id.Name[:len(id.Name)-len(core)] + joinWords(core, true, "")
	if should == id.Name {
		return "", ""
	}
	return fmt.Sprintf("class %s is not CapWords; it should be %s", id.Name, should), should
}

func camelCase(id lang.Ident) (string, string) {
	core := strings.TrimLeft(id.Name, "_$")
	if !strings.ContainsAny(core, "_-") {
		return "", ""
	}
	upper := core != "" && unicode.IsUpper([]rune(core)[0])
	should := id.Name[:len(id.Name)-len(core)] + joinWords(core, upper, "")
	return fmt.Sprintf("%s %s is not camelCase; it should be %s", things[id.Kind], id.Name, should), should
}

// detect returns the convention "detect" means for the file at path: the frontend's own,
// or for a frontend that detects (lang.NamingDetector) the one most of the project's
// identifiers follow (P12), computed once per frontend and kept in memo.
func detect(pass *check.Pass, path string, memo map[string]string) (string, error) {
	fe := pass.Languages.For(path)
	if fe == nil {
		return "", nil
	}
	d, ok := fe.(lang.NamingDetector)
	if !ok {
		return fe.Naming(), nil
	}
	if conv, ok := memo[fe.Name()]; ok {
		return conv, nil
	}
	ids, err := d.ProjectIdents(pass.Request())
	if err != nil {
		return "", fmt.Errorf("detecting the naming convention: %w", err)
	}
	conv := majority(d.Conventions(), ids)
	memo[fe.Name()] = conv
	return conv, nil
}

// moot returns the convention to check the file at path with when detecting the
// project's (which reads the project: a fifth of a cold TypeScript diff) could not change
// what the diff filter keeps: in diff mode, every identifier on a changed line gets the
// same verdict under each of the frontend's conventions (one-word names, usually). ok is
// false otherwise, and for a frontend that does not detect.
func moot(pass *check.Pass, path string, lf *lang.File) (string, bool) {
	d, ok := pass.Languages.For(path).(lang.NamingDetector)
	if !ok || pass.Mode != check.Diff || pass.Changes.NoBase {
		return "", false
	}
	convs := d.Conventions()
	for _, c := range convs {
		if conventions[c] == nil {
			return "", false
		}
	}
	for _, id := range lf.Idents {
		if !pass.Keep(check.Finding{Location: check.Location{File: path, Line: id.Pos.Line, Column: id.Pos.Column}}) {
			continue // not on a changed line: the diff filter drops its finding under any convention
		}
		msg, should := conventions[convs[0]](id)
		for _, c := range convs[1:] {
			if m, s := conventions[c](id); m != msg || s != should {
				return "", false
			}
		}
	}
	return convs[0], len(convs) > 0
}

// majority returns the convention of convs that most identifiers follow, counting only
// the identifiers that tell the conventions apart (a one-word name fits them all); ties
// go to the earlier convention.
func majority(convs []string, ids []lang.Ident) string {
	if len(convs) == 0 {
		return ""
	}
	votes := make([]int, len(convs))
	fits := make([]bool, len(convs))
	for _, id := range ids {
		n := 0
		for i, c := range convs {
			fn := conventions[c]
			fits[i] = fn != nil
			if fn != nil {
				msg, _ := fn(id)
				fits[i] = msg == ""
			}
			if fits[i] {
				n++
			}
		}
		if n == 0 || n == len(convs) {
			continue
		}
		for i := range convs {
			if fits[i] {
				votes[i]++
			}
		}
	}
	best := 0
	for i := range convs {
		if votes[i] > votes[best] {
			best = i
		}
	}
	return convs[best]
}

// tsThings names identifier kinds as TypeScript programmers do.
var tsThings = map[lang.IdentKind]string{
	lang.IdentFunc: "function", lang.IdentMethod: "method", lang.IdentType: "type",
	lang.IdentVar: "variable", lang.IdentConst: "constant", lang.IdentField: "property",
	lang.IdentParam: "parameter", lang.IdentPackage: "module", lang.IdentLabel: "label",
}

// underscoreInWord finds a '_' inside a name that is not between two digits (v1_2).
var underscoreInWord = lazyregexp.New(`[^\p{N}_]_|_[^\p{N}_]`)

// typescriptConvention is the usual TypeScript and JavaScript naming (typescript-eslint's
// naming-convention defaults, with React's components): types, classes, interfaces and
// enums PascalCase; functions camelCase or PascalCase (components); variables,
// constants, properties and enum members camelCase, PascalCase or UPPER_CASE;
// parameters and methods camelCase (parameters may be PascalCase: a class passed in).
// Leading and trailing '_' and '$' are allowed.
func typescriptConvention(id lang.Ident) (string, string) {
	core := strings.Trim(id.Name, "_$")
	if core == "" || strings.ContainsRune(core, '$') {
		return "", ""
	}
	pre := id.Name[:strings.Index(id.Name, core)]
	post := id.Name[len(pre)+len(core):]
	startsUpper := unicode.IsUpper([]rune(core)[0])
	snake := underscoreInWord.MatchString(core)
	thing := tsThings[id.Kind]
	switch id.Kind {
	case lang.IdentType:
		if startsUpper && !snake {
			return "", ""
		}
		should := pre + joinWords(core, true, "") + post
		return fmt.Sprintf("%s %s is not PascalCase; it should be %s", thing, id.Name, should), should
	case lang.IdentVar, lang.IdentConst, lang.IdentField:
		if !snake || upperSnake.MatchString(core) {
			return "", ""
		}
	case lang.IdentFunc, lang.IdentParam:
		if !snake {
			return "", ""
		}
	default:
		if !snake && !startsUpper {
			return "", ""
		}
	}
	should := pre + joinWords(core, startsUpper && id.Kind != lang.IdentMethod, "") + post
	if should == id.Name {
		return "", ""
	}
	return fmt.Sprintf("%s %s is not camelCase; it should be %s", thing, id.Name, should), should
}
