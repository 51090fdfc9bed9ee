//go:build !unix

package server

import (
	"errors"
	"net"
	"os"
)

// Supported reports whether this system has the shared server (Unix sockets, sessions).
const Supported = false

// ErrRunning means another server holds the socket's lock.
var ErrRunning = errors.New("a server is already running")

var errUnsupported = errors.New("the shared server needs a Unix system")

func owner(os.FileInfo) (int, bool) { return 0, false }

// Listen is not available on this system.
func Listen(Endpoint) (net.Listener, error) { return nil, errUnsupported }

// Spawn is not available on this system.
func Spawn(Endpoint, string, []string) (<-chan struct{}, error) { return nil, errUnsupported }
