package resolve

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/load"
)

// siblingHint returns a did-you-mean for a call that does not fit its callee's
// signature (wrong argument types or count, wrong result count): the functions of the
// callee's package (or methods of its receiver's type) that accept the call's arguments,
// whose results fit where the call stands, and whose names share words with the callee's:
// strings.Index(s, unicode.IsSpace) → strings.IndexFunc; host, port :=
// net.JoinHostPort(addr) → net.SplitHostPort. "" when no sibling fits. The fix renames
// the callee when one sibling fits best and exactly.
func (c *converter) siblingHint(pkg *load.Package, pos token.Position) (string, *lang.Fix) {
	call, results := c.callAt(pkg, pos)
	if call == nil {
		return "", nil
	}
	callee := typeutil.Callee(pkg.Info, call)
	fn, ok := callee.(*types.Func)
	if !ok || fn.Pkg() == nil {
		return "", nil
	}
	var args []types.Type
	for _, a := range call.Args {
		t := pkg.Info.TypeOf(a)
		if t == nil || t == types.Typ[types.Invalid] {
			return "", nil // an argument of unknown type accepts nothing to compare
		}
		args = append(args, t)
	}
	fits, sure := siblings(fn, args, results, call.Ellipsis.IsValid(), pkg.Types)
	if len(fits) == 0 {
		return "", nil
	}
	qual := qualifier(call.Fun, fn)
	names := make([]string, 0, 2)
	for i, s := range fits {
		if i == 2 {
			break
		}
		names = append(names, qual+s.Name())
	}
	sig := types.TypeString(fits[0].Type(), types.RelativeTo(fits[0].Pkg()))
	hint := fmt.Sprintf("%s (%s%s)", didYouMean("", names), fits[0].Name(), strings.TrimPrefix(sig, "func"))
	if !sure {
		return hint, nil
	}
	id := calleeIdent(call.Fun)
	file := c.rel(pos.Filename)
	if id == nil || file == "" {
		return hint, nil
	}
	at := c.res.Fset.Position(id.Pos())
	return hint, &lang.Fix{Description: fmt.Sprintf("call %s instead of %s", fits[0].Name(), fn.Name()),
		Edits: []lang.Edit{{Range: lang.Location{File: file, Line: at.Line, Column: at.Column, EndLine: at.Line, EndColumn: at.Column + len(id.Name)}, NewText: fits[0].Name()}}}
}

// calleeIdent returns the name a call's function expression ends in.
func calleeIdent(fun ast.Expr) *ast.Ident {
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	}
	return nil
}

// qualifier returns how the call names the callee's package or receiver ("strings.",
// "buf."), for the suggestion.
func qualifier(fun ast.Expr, fn *types.Func) string {
	if sel, ok := ast.Unparen(fun).(*ast.SelectorExpr); ok {
		if s := types.ExprString(sel.X); len(s) <= 30 {
			return s + "."
		}
		return "…."
	}
	return ""
}

// callAt returns the call a type error at pos is about, and how many results the place
// of the call takes (-1: any, in a statement of its own).
func (c *converter) callAt(pkg *load.Package, pos token.Position) (*ast.CallExpr, int) {
	var file *ast.File
	for _, f := range pkg.Syntax {
		if c.res.Fset.Position(f.FileStart).Filename == pos.Filename {
			file = f
		}
	}
	if file == nil {
		return nil, 0
	}
	tf := c.res.Fset.File(file.FileStart)
	if pos.Line > tf.LineCount() {
		return nil, 0
	}
	p := tf.LineStart(pos.Line) + token.Pos(pos.Column-1)
	path, _ := astutil.PathEnclosingInterval(file, p, p)
	for i, n := range path {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			continue
		}
		return call, resultsTaken(path[i+1:], call)
	}
	return nil, 0
}

// resultsTaken returns how many results the parent of a call takes from it: the number
// of variables of an assignment or declaration whose one value it is, none in a
// statement of its own (-1), one elsewhere.
func resultsTaken(parents []ast.Node, call *ast.CallExpr) int {
	if len(parents) == 0 {
		return 1
	}
	switch p := parents[0].(type) {
	case *ast.ExprStmt, *ast.GoStmt, *ast.DeferStmt:
		return -1
	case *ast.AssignStmt:
		if len(p.Rhs) == 1 {
			return len(p.Lhs)
		}
	case *ast.ValueSpec:
		if len(p.Values) == 1 {
			return len(p.Names)
		}
	case *ast.ReturnStmt:
		if len(p.Results) == 1 {
			return -1 // as many as the function returns: not known here
		}
	}
	return 1
}

// siblings returns the functions of fn's package (or the methods of its receiver's type)
// other than fn that accept args and give results where the call stands (the number
// taken, or that and a trailing error), whose names share words with fn's, best first;
// sure is set when the first fits exactly and ranks above every other.
func siblings(fn *types.Func, args []types.Type, results int, spread bool, from *types.Package) (fns []*types.Func, sure bool) {
	type scored struct {
		fn            *types.Func
		shared, extra int
		exact         bool
	}
	words := splitWords(fn.Name())
	need := max(1, len(words)-1)
	var out []scored
	for _, s := range siblingFuncs(fn, from) {
		sig := s.Signature()
		if s == fn || !accepts(sig, args, spread) {
			continue
		}
		exact, ok := resultsFit(sig.Results(), results)
		if !ok {
			continue
		}
		sw := splitWords(s.Name())
		shared := sharedWords(words, sw)
		if shared < need {
			continue
		}
		out = append(out, scored{s, shared, len(sw) - shared, exact})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch {
		case a.exact != b.exact:
			return a.exact
		case a.shared != b.shared:
			return a.shared > b.shared
		case a.extra != b.extra:
			return a.extra < b.extra
		}
		return a.fn.Name() < b.fn.Name()
	})
	for _, s := range out {
		fns = append(fns, s.fn)
	}
	sure = len(out) > 0 && out[0].exact && (len(out) == 1 || out[1].shared < out[0].shared || out[1].extra > out[0].extra)
	return fns, sure
}

// siblingFuncs returns the exported functions of fn's package, or for a method the
// exported methods of its receiver's type, that from can call.
func siblingFuncs(fn *types.Func, from *types.Package) []*types.Func {
	var out []*types.Func
	if recv := fn.Signature().Recv(); recv != nil {
		ms := types.NewMethodSet(types.NewPointer(derefType(recv.Type())))
		for i := range ms.Len() {
			if m, ok := ms.At(i).Obj().(*types.Func); ok && (m.Exported() || m.Pkg() == from) {
				out = append(out, m)
			}
		}
		return out
	}
	scope := fn.Pkg().Scope()
	for _, name := range scope.Names() {
		if f, ok := scope.Lookup(name).(*types.Func); ok && (f.Exported() || f.Pkg() == from) && f.Signature().TypeParams() == nil {
			out = append(out, f)
		}
	}
	return out
}

func derefType(t types.Type) types.Type {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// accepts reports whether a call with arguments of types args (the last spread with
// ... when spread) fits sig.
func accepts(sig *types.Signature, args []types.Type, spread bool) bool {
	params := sig.Params()
	n := params.Len()
	switch {
	case sig.Variadic() && !spread:
		if len(args) < n-1 {
			return false
		}
	case len(args) != n:
		return false
	}
	for i, a := range args {
		var p types.Type
		switch {
		case sig.Variadic() && !spread && i >= n-1:
			p = params.At(n - 1).Type().(*types.Slice).Elem()
		default:
			p = params.At(i).Type()
		}
		if !types.AssignableTo(a, p) {
			return false
		}
	}
	return true
}

// resultsFit reports whether results fit a place taking want of them (-1: any): exactly
// (exact), or with one more, trailing error the caller forgot.
func resultsFit(results *types.Tuple, want int) (exact, ok bool) {
	n := results.Len()
	switch {
	case want < 0 || n == want:
		return true, true
	case n == want+1 && types.Identical(results.At(n-1).Type(), types.Universe.Lookup("error").Type()):
		return false, true
	}
	return false, false
}

// splitWords splits a Go name into its words: "JoinHostPort" → Join Host Port,
// "ErrNotFound" → Err Not Found, "HTTPServer" → HTTP Server, "SEEK_SET" → SEEK SET.
func splitWords(name string) []string {
	var words []string
	rs := []rune(name)
	start := 0
	for i := 1; i <= len(rs); i++ {
		boundary := i == len(rs) || rs[i] == '_' ||
			unicode.IsUpper(rs[i]) && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1])) ||
			unicode.IsDigit(rs[i]) != unicode.IsDigit(rs[i-1])
		if !boundary {
			continue
		}
		if w := strings.Trim(string(rs[start:i]), "_"); w != "" {
			words = append(words, w)
		}
		start = i
	}
	return words
}

// sharedWords counts the words of a that b has too (case-insensitively).
func sharedWords(a, b []string) int {
	n := 0
	for _, w := range a {
		for _, v := range b {
			if strings.EqualFold(w, v) {
				n++
				break
			}
		}
	}
	return n
}

// sentinelHint returns, for an unknown name of package imported that reads like a
// sentinel error (ErrNotFound), the package's sentinel errors that share the most words
// with it: os.ErrNotFound → os.ErrNotExist. best is set when one of them shares more
// words than any other, for a fix.
func sentinelHint(qual, name string, imported *types.Package) (hint, best string) {
	words := splitWords(name)
	if len(words) < 2 || words[0] != "Err" {
		return "", ""
	}
	errType := types.Universe.Lookup("error").Type()
	type scored struct {
		name   string
		shared int
	}
	var all []scored
	scope := imported.Scope()
	for _, n := range scope.Names() {
		v, ok := scope.Lookup(n).(*types.Var)
		if !ok || !v.Exported() || !strings.HasPrefix(n, "Err") || !types.AssignableTo(v.Type(), errType) {
			continue
		}
		all = append(all, scored{n, sharedWords(words, splitWords(n))})
	}
	if len(all) == 0 {
		return "", ""
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].shared > all[j].shared })
	names := make([]string, len(all))
	for i, s := range all {
		names[i] = s.name
	}
	sort.Strings(names)
	list := fmt.Sprintf("package %s's sentinel errors: %s", imported.Name(), strings.Join(names, ", "))
	if all[0].shared < 2 {
		return list, ""
	}
	if len(all) == 1 || all[1].shared < all[0].shared {
		best = all[0].name
	}
	return didYouMean(qual+".", []string{all[0].name}) + " (" + list + ")", best
}
