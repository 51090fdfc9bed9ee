package python_test

import (
	"io/fs"
	"testing/fstest"
)

// overlayFS is base with some files replaced.
type overlayFS struct {
	base  fs.FS
	files map[string]string
}

func (o overlayFS) Open(name string) (fs.File, error) {
	if c, ok := o.files[name]; ok {
		return fstest.MapFS{name: &fstest.MapFile{Data: []byte(c)}}.Open(name)
	}
	return o.base.Open(name)
}
