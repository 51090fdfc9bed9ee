package semantic

import (
	"bytes"
	"go/build"
	"io"
	"path"
)

// buildMatch reports whether a Go file with this name and content is part of the build for
// the current GOOS and GOARCH (file name suffixes and //go:build lines), as go/build
// decides. Files excluded from the build are not part of the API that callers see.
func buildMatch(name string, content []byte) bool {
	ctx := build.Default
	ctx.OpenFile = func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(content)), nil }
	ok, err := ctx.MatchFile("/", path.Base(name))
	return err == nil && ok
}
