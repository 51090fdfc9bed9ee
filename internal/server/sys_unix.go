//go:build unix

package server

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"syscall"
)

// Supported reports whether this system has the shared server (Unix sockets, sessions).
const Supported = true

// ErrRunning means another server holds the socket's lock.
var ErrRunning = errors.New("a server is already running")

// owner returns the user that owns fi.
func owner(fi os.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

// Listen listens on ep's socket, private to the user (a 0700 directory, a 0600 socket).
// It holds a lock beside the socket for the listener's life, so of two servers started
// at once for the same repository one listens and the other gets ErrRunning.
func Listen(ep Endpoint) (net.Listener, error) {
	if err := PrivateDir(ep.Dir); err != nil {
		return nil, err
	}
	lock, err := os.OpenFile(ep.Socket+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		lock.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrRunning
		}
		return nil, fmt.Errorf("lock %s: %w", lock.Name(), err)
	}
	os.Remove(ep.Socket) // a socket left by a server that died; the lock says none runs
	ln, err := net.Listen("unix", ep.Socket)
	var sock os.FileInfo
	if err == nil {
		err = os.Chmod(ep.Socket, 0o600)
	}
	if err == nil {
		sock, err = os.Stat(ep.Socket)
	}
	if err != nil {
		if ln != nil {
			ln.Close()
		}
		lock.Close()
		return nil, err
	}
	return &lockedListener{Listener: ln, lock: lock, sock: sock}, nil
}

// lockedListener releases the lock after closing (and so removing) the socket.
type lockedListener struct {
	net.Listener
	lock *os.File
	sock os.FileInfo // the socket file as created
}

func (l *lockedListener) socketInfo() os.FileInfo { return l.sock }

// Close removes the socket and the lock file, then releases the lock: a server's files
// go with it. (A server starting in that instant may take the lock of the removed file
// and listen; the one after it would replace its socket, and it exits on seeing that.)
func (l *lockedListener) Close() error {
	err := l.Listener.Close()
	os.Remove(l.lock.Name())
	l.lock.Close()
	return err
}

// Spawn starts exe with args as a server detached from the caller (its own session,
// standard input from /dev/null, output to ep.Log), in directory ep.Root. The channel is
// closed when the process exits, which a server that could not listen does at once.
func Spawn(ep Endpoint, exe string, args []string) (<-chan struct{}, error) {
	log, err := os.OpenFile(ep.Log, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	defer log.Close()
	cmd := exec.Command(exe, args...)
	cmd.Dir = ep.Root
	cmd.Env = serverEnv(os.Environ())
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }() // and reaped, should this process outlive it
	return exited, nil
}
