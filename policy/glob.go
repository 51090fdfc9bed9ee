package policy

import "github.com/bmatcuk/doublestar/v4"

// matchRule matches a rule ID against a pattern of the rules: map.
func matchRule(pattern, rule string) (bool, error) { return doublestar.Match(pattern, rule) }

// validGlob reports whether g is a valid path glob.
func validGlob(g string) bool { return g != "" && doublestar.ValidatePattern(g) }
