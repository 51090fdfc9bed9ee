package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"syscall"
	"time"
)

// ErrNotRunning means no server listens on the socket.
var ErrNotRunning = errors.New("no server running")

// Call sends req to the server listening on socket and returns its answer. Any error
// (no server, a socket another user owns, a connection lost, a server-side failure)
// means there is no answer: the caller verifies in its own process.
func Call(ctx context.Context, socket string, req *Request) (*Response, error) {
	if err := checkSocket(socket); err != nil {
		return nil, err
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", socket)
	if err != nil {
		if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%w: %v", ErrNotRunning, err)
		}
		return nil, err
	}
	defer conn.Close()
	defer context.AfterFunc(ctx, func() { conn.Close() })()
	req.Version = ProtocolVersion
	if err := write(conn, req); err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	resp, err := readResponse(conn)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return resp, err
}

// checkSocket refuses a socket file that is not a socket or that another user owns: its
// server would see the code and answer for it.
func checkSocket(socket string) error {
	fi, err := os.Lstat(socket)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("%w: %v", ErrNotRunning, err)
		}
		return err
	}
	if fi.Mode()&os.ModeSocket == 0 {
		return fmt.Errorf("%s: not a socket; refusing it", socket)
	}
	if uid, ok := owner(fi); ok && uid != os.Getuid() {
		return fmt.Errorf("%s: owned by uid %d, not %d; refusing it", socket, uid, os.Getuid())
	}
	return nil
}

// CallOrStart calls the server at ep, starting it with start when none is running and
// waiting up to wait for it to listen. start returns a channel closed when the process it
// started exits: a server that exits before anyone listens (it could not listen, or lost
// the race to another one that does) ends the wait early.
func CallOrStart(ctx context.Context, ep Endpoint, req *Request, start func() (<-chan struct{}, error), wait time.Duration) (*Response, error) {
	resp, err := Call(ctx, ep.Socket, req)
	if !errors.Is(err, ErrNotRunning) {
		return resp, err
	}
	if err := PrivateDir(ep.Dir); err != nil {
		return nil, err
	}
	exited, err := start()
	if err != nil {
		return nil, fmt.Errorf("start server: %w", err)
	}
	deadline := time.Now().Add(wait)
	for delay := time.Millisecond; ; delay = min(2*delay, 20*time.Millisecond) {
		resp, err := Call(ctx, ep.Socket, req)
		if !errors.Is(err, ErrNotRunning) || time.Now().After(deadline) {
			return resp, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-exited:
			return Call(ctx, ep.Socket, req) // perhaps another server listens now
		case <-time.After(delay):
		}
	}
}

// PrivateDir creates dir for the sockets, readable by its user only, and refuses one that
// another user owns or that others can enter.
func PrivateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s: not a directory; refusing it", dir)
	}
	if uid, ok := owner(fi); ok && uid != os.Getuid() {
		return fmt.Errorf("%s: owned by uid %d, not %d; refusing it", dir, uid, os.Getuid())
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return os.Chmod(dir, 0o700)
	}
	return nil
}

// Sockets returns the sockets in dir, sorted (for server status and stop).
func Sockets(dir string) ([]string, error) {
	socks, err := filepath.Glob(filepath.Join(dir, "*.sock"))
	sort.Strings(socks)
	return socks, err
}
