// Package lambdalist parses Common Lisp lambda lists (CLHS 3.4) read by the reader
// package into their parts — &whole, required, &optional, &rest/&body, &key,
// &allow-other-keys, &aux, &environment — and answers the questions a call check and
// an API comparison ask: how many arguments a call may pass (Min, Max, Accepts), which
// keywords it accepts (HasKeyword), and a normalised String for comparing versions.
package lambdalist
