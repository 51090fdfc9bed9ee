package policy

import "errors"

// Parse is a TEMPORARY STUB so that packages depending on policy compile while the policy
// loader is written. The engineer implementing policy/ owns this file: delete it when your
// real Parse lands.
func Parse(name string, data []byte) (*Policy, error) {
	return nil, errors.New(name + ": policy parsing not implemented yet")
}
