//go:build !unix

package editset

import "errors"

func mkfifo(string) error { return errors.New("no named pipes on this system") }
