package modfetch

import (
	"strings"

	"github.com/agentverify/agentverify/lazyregexp"
)

// A failure is what the go command's message about a module says went wrong.
type failure int

const (
	// unreachable: the module could not be fetched here — offline, GOPROXY=off, a proxy
	// or checksum database that refused or failed, a checksum that does not match. It
	// says nothing about the module; the user fixes it.
	unreachable failure = iota
	// notFound: a module proxy answered that it has no such module or version (404 or
	// 410; a file-based proxy has no such file).
	notFound
	// rejected: the go command rejects the request itself (a malformed path or version,
	// a go.mod it cannot use); the loader reports it where it lies.
	rejected
)

// classify reads a go command message about one module.
func classify(msg string) failure {
	switch {
	case strings.Contains(msg, "verifying") || strings.Contains(msg, "/lookup/") || strings.Contains(msg, "checksum") ||
		strings.Contains(msg, "SECURITY ERROR"):
		return unreachable // the checksum database's answer, never the proxy's
	case proxyNotFound.MatchString(msg):
		return notFound
	}
	for _, s := range []string{"malformed module path", "invalid version", "declares its path as", "requires go >=", "errors parsing go.mod", "invalid go.mod", "unknown directive"} {
		if strings.Contains(msg, s) {
			return rejected
		}
	}
	return unreachable
}

// proxyNotFound matches a proxy's "not found" for a module's list, version or latest
// version, over HTTP(S) or from a file-based proxy.
var proxyNotFound = lazyregexp.New(`reading \S+/@(v/\S*|latest): (404 Not Found|410 Gone|no such file or directory)`)
