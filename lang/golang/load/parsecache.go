package load

import (
	"bytes"
	"go/ast"
	"go/token"
	"sync"
)

// parseCache keeps the syntax of the files a snapshot re-checked, by path, with the
// content it was parsed from: a re-check parses again only the files whose content
// changed (the one an edit touched), and a package and its test variant share the
// syntax of their common files. go/types and the analyzers only read syntax trees, so
// one tree serves every check that has that content. Only the last content of each path
// is kept. It is safe for concurrent use.
type parseCache struct {
	mu    sync.Mutex
	files map[string]cachedSyntax
}

type cachedSyntax struct {
	src  []byte
	file *ast.File
	errs []Error
}

// parse returns the syntax of src as the file name, from the cache when src is the
// content it last parsed for name.
func (c *parseCache) parse(fset *token.FileSet, name string, src []byte) (*ast.File, []Error) {
	c.mu.Lock()
	p, ok := c.files[name]
	c.mu.Unlock()
	if ok && bytes.Equal(p.src, src) {
		return p.file, p.errs
	}
	f, errs := parseOne(fset, name, src)
	c.mu.Lock()
	if c.files == nil {
		c.files = map[string]cachedSyntax{}
	}
	c.files[name] = cachedSyntax{src: bytes.Clone(src), file: f, errs: errs}
	c.mu.Unlock()
	return f, errs
}
