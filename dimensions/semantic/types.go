package semantic

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"sort"
	"strings"
)

// typeChange says how a type declaration changed incompatibly, or "" when it did not,
// following apidiff: an interface that gains a method (unless it has an unexported
// method, so no one outside can implement it), loses or changes one; a struct that stops
// being comparable (its fields are compared through their own declarations); any other
// change of the type's definition or of its type parameters. It works on the frontend's
// signatures ("[P any] struct{...}", "interface {M(); n()}"), so it judges types as
// written: a field of a named type is taken to be comparable.
func typeChange(base, head string) string {
	bParams, bType := splitTypeParams(base)
	hParams, hType := splitTypeParams(head)
	if bParams != hParams {
		return fmt.Sprintf("its type parameters changed from [%s] to [%s]", bParams, hParams)
	}
	be, berr := parser.ParseExpr(bType)
	he, herr := parser.ParseExpr(hType)
	if berr != nil || herr != nil {
		if base != head {
			return fmt.Sprintf("its definition changed from %s to %s", base, head)
		}
		return ""
	}
	switch b := be.(type) {
	case *ast.StructType:
		h, ok := he.(*ast.StructType)
		if !ok {
			return fmt.Sprintf("it is no longer a struct (now %s)", hType)
		}
		if f := nonComparableField(h); f != "" && nonComparableField(b) == "" {
			return fmt.Sprintf("it is no longer comparable (field %s), so == and map keys of it break", f)
		}
		return ""
	case *ast.InterfaceType:
		h, ok := he.(*ast.InterfaceType)
		if !ok {
			return fmt.Sprintf("it is no longer an interface (now %s)", hType)
		}
		return interfaceChange(b, h)
	}
	if bType != hType {
		return fmt.Sprintf("its definition changed from %s to %s", bType, hType)
	}
	return ""
}

// splitTypeParams splits "[P any] struct{...}" into "P any" and "struct{...}".
func splitTypeParams(sig string) (params, typ string) {
	sig = strings.TrimSpace(sig)
	if !strings.HasPrefix(sig, "[") {
		return "", sig
	}
	depth := 0
	for i, r := range sig {
		switch r {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return strings.TrimSpace(sig[1:i]), strings.TrimSpace(sig[i+1:])
			}
		}
	}
	return "", sig
}

// nonComparableField returns the first field whose type is written as a slice, map or
// function (which makes the struct non-comparable), or "".
func nonComparableField(st *ast.StructType) string {
	for _, f := range st.Fields.List {
		switch t := f.Type.(type) {
		case *ast.MapType, *ast.FuncType:
		case *ast.ArrayType:
			if t.Len != nil {
				continue // an array is comparable when its elements are
			}
		default:
			continue
		}
		if len(f.Names) > 0 {
			return f.Names[0].Name
		}
		return exprText(f.Type)
	}
	return ""
}

// interfaceChange compares two interfaces' explicit methods and embedded types.
func interfaceChange(b, h *ast.InterfaceType) string {
	bm, bUnexported := methods(b)
	hm, _ := methods(h)
	var removed, changed, added []string
	for name, sig := range bm {
		hs, ok := hm[name]
		switch {
		case !ok:
			removed = append(removed, name)
		case hs != sig:
			changed = append(changed, name)
		}
	}
	for name := range hm {
		if _, ok := bm[name]; !ok {
			added = append(added, name)
		}
	}
	sort.Strings(removed)
	sort.Strings(changed)
	sort.Strings(added)
	switch {
	case len(removed) > 0:
		return "it lost " + strings.Join(removed, ", ") + ", which callers may use"
	case len(changed) > 0:
		return "the signature of " + strings.Join(changed, ", ") + " changed"
	case len(added) > 0 && !bUnexported:
		return "it gained " + strings.Join(added, ", ") + ", which every implementation outside the change lacks"
	}
	return ""
}

// methods lists an interface's explicit methods (name → signature) and embedded types
// ("embed T" → ""); unexported reports whether it has an unexported method.
func methods(it *ast.InterfaceType) (m map[string]string, unexported bool) {
	m = map[string]string{}
	for _, f := range it.Methods.List {
		if len(f.Names) == 0 {
			m["embedded "+exprText(f.Type)] = ""
			continue
		}
		for _, n := range f.Names {
			m[n.Name] = exprText(f.Type)
			unexported = unexported || !ast.IsExported(n.Name)
		}
	}
	return m, unexported
}

func exprText(e ast.Expr) string {
	var b strings.Builder
	printer.Fprint(&b, token.NewFileSet(), e)
	return b.String()
}
