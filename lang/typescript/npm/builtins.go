package npm

import "strings"

// builtins are Node's built-in modules (Node 18 to 24), importable bare or with node:.
var builtins = map[string]bool{
	"assert": true, "assert/strict": true, "async_hooks": true, "buffer": true, "child_process": true,
	"cluster": true, "console": true, "constants": true, "crypto": true, "dgram": true,
	"diagnostics_channel": true, "dns": true, "dns/promises": true, "domain": true, "events": true,
	"fs": true, "fs/promises": true, "http": true, "http2": true, "https": true, "inspector": true,
	"inspector/promises": true, "module": true, "net": true, "os": true, "path": true, "path/posix": true,
	"path/win32": true, "perf_hooks": true, "process": true, "punycode": true, "querystring": true,
	"readline": true, "readline/promises": true, "repl": true, "stream": true, "stream/consumers": true,
	"stream/promises": true, "stream/web": true, "string_decoder": true, "sys": true, "timers": true,
	"timers/promises": true, "tls": true, "trace_events": true, "tty": true, "url": true, "util": true,
	"util/types": true, "v8": true, "vm": true, "wasi": true, "worker_threads": true, "zlib": true,
}

// prefixOnly are the built-ins that exist only with the node: prefix.
var prefixOnly = map[string]bool{"test": true, "test/reporters": true, "sqlite": true, "sea": true, "test/mock_loader": true}

// Builtin reports whether spec names one of Node's built-in modules ("fs", "node:fs",
// "node:test"); an unknown node: module is not one.
func Builtin(spec string) bool {
	if rest, ok := strings.CutPrefix(spec, "node:"); ok {
		return builtins[rest] || prefixOnly[rest]
	}
	return builtins[spec]
}

// PackageName returns the npm package a bare specifier imports from ("lodash/fp" →
// "lodash", "@scope/pkg/sub" → "@scope/pkg"), "" when spec is no bare package
// specifier: relative or absolute paths, URLs and other schemes, node: built-ins,
// package imports (#x), an empty or malformed name.
func PackageName(spec string) string {
	spec = strings.TrimPrefix(spec, "npm:")
	if spec == "" || strings.HasPrefix(spec, ".") || strings.HasPrefix(spec, "/") || strings.HasPrefix(spec, "#") ||
		strings.Contains(strings.SplitN(spec, "/", 2)[0], ":") || strings.HasPrefix(spec, "~") {
		return ""
	}
	parts := strings.Split(spec, "/")
	name := parts[0]
	if strings.HasPrefix(name, "@") {
		if len(parts) < 2 || parts[1] == "" || len(name) < 2 {
			return ""
		}
		name += "/" + parts[1]
	}
	if at := strings.LastIndex(name, "@"); at > 0 {
		name = name[:at] // "pkg@1.2" (a version pin some tools accept)
	}
	if !validName(name) {
		return ""
	}
	return name
}

// validName applies npm's rules for package names (lower case since 2017, but old
// packages keep capitals; URL-safe characters).
func validName(name string) bool {
	if len(name) == 0 || len(name) > 214 {
		return false
	}
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune("-._~@/!*'()", r):
		default:
			return false
		}
	}
	return true
}
