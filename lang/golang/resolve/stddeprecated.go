package resolve

//go:generate go test -run TestStdDeprecations -update .

// stdDeprecation is a standard-library symbol its documentation marks deprecated.
type stdDeprecation struct {
	// Since is the minor release from which the deprecation applies: the release whose
	// API manifest first marks it deprecated, earlier when its note says "As of Go 1.N",
	// and never before the replacement its note names exists (staticcheck's SA1019 reports
	// a use only where the replacement is available; the manifests of Go 1.16 marked every
	// deprecation made before, so for those the replacement's release decides).
	Since int
	// Note is the deprecation paragraph, on one line, without "Deprecated: ".
	Note string
	// Repl is the replacement the note names ("io.ReadAll"), ReplPath its package path and
	// ReplKey its manifest key ("ReadAll"); empty when the note names none in the
	// standard library.
	Repl, ReplPath, ReplKey string
	// Same is set when the note says the replacement is the same thing ("simply calls
	// [io.ReadAll]"): with identical types, replacing one by the other is a safe fix.
	Same bool
}

// stdDeprecated looks up "path.Key" (a manifest key: "Title", "Reader.Read") in the table
// generated from the toolchain of go.mod's go line (stddeprecated_table.go). A newer
// toolchain's deprecations are missing from it, never wrongly present: a symbol is only
// reported from the release its deprecation applies, which no module of an older
// toolchain targets.
func stdDeprecated(key string) (stdDeprecation, bool) {
	d, ok := stdDeprecations[key]
	return d, ok
}
