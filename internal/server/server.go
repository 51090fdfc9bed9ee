package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentverify/agentverify/crash"
)

// DefaultIdle is how long a server stays up without a request.
const DefaultIdle = 10 * time.Minute

// Handler runs one command line and returns its exit code and what it printed. An error,
// or a panic, is answered as an error, and the client verifies in its own process.
type Handler func(ctx context.Context, req *Request) (exit int, stdout, stderr []byte, err error)

// Server answers the requests of one repository's clients.
type Server struct {
	Root, Socket string
	// Idle is the idle time-out; 0 means DefaultIdle.
	Idle    time.Duration
	Handler Handler

	started  time.Time
	requests atomic.Int64
	active   atomic.Int64
	last     atomic.Int64 // UnixNano of the last request's end
	stop     func()
}

// readTimeout bounds the wait for a request on a new connection.
const readTimeout = 30 * time.Second

// Serve answers connections on ln until the idle time-out, a stop request, the socket
// file being removed or replaced (someone cleaned the directory), or ctx ends. It waits
// for the requests in flight before it returns; ln is closed.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	if s.Idle <= 0 {
		s.Idle = DefaultIdle
	}
	life, stop := context.WithCancel(ctx)
	defer stop()
	s.stop = stop
	s.started = time.Now()
	s.touch()
	var sock os.FileInfo
	if l, ok := ln.(interface{ socketInfo() os.FileInfo }); ok {
		sock = l.socketInfo() // from Listen, before anyone could remove it
	} else if fi, err := os.Stat(s.Socket); err == nil {
		sock = fi
	} else {
		ln.Close()
		return fmt.Errorf("server socket: %w", err)
	}
	go s.watch(life, sock)
	go func() { <-life.Done(); ln.Close() }()
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		conn, err := ln.Accept()
		if err != nil {
			if life.Err() != nil {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return err
		}
		wg.Go(func() { s.handle(conn) })
	}
}

func (s *Server) touch() { s.last.Store(time.Now().UnixNano()) }

// watch stops the server when it has been idle for s.Idle, or when its socket file is no
// longer the one it listens on.
func (s *Server) watch(ctx context.Context, sock os.FileInfo) {
	tick := time.NewTicker(min(max(s.Idle/10, 10*time.Millisecond), time.Second))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		idle := time.Since(time.Unix(0, s.last.Load()))
		now, err := os.Stat(s.Socket)
		if (s.active.Load() == 0 && idle >= s.Idle) || err != nil || !os.SameFile(sock, now) {
			s.stop()
			return
		}
	}
}

// handle answers one connection: one request, one response. A panic while it answers is
// an error response (the client then verifies in its own process), never the end of the
// server and of the requests of other clients.
func (s *Server) handle(conn net.Conn) {
	defer conn.Close()
	var crashed error
	defer func() {
		if crashed != nil {
			write(conn, &Response{Version: ProtocolVersion, Error: crashed.Error()})
		}
	}()
	defer crash.Recover(&crashed)
	s.active.Add(1)
	defer func() { s.touch(); s.active.Add(-1) }()
	if err := peerIsUser(conn); err != nil {
		write(conn, &Response{Version: ProtocolVersion, Error: err.Error()})
		return
	}
	conn.SetReadDeadline(time.Now().Add(readTimeout))
	req, err := readRequest(conn)
	if err != nil {
		write(conn, &Response{Version: ProtocolVersion, Error: err.Error()})
		return
	}
	conn.SetReadDeadline(time.Time{})
	resp := &Response{Version: ProtocolVersion}
	switch req.Op {
	case OpStatus:
		resp.Status = s.status()
	case OpStop:
		resp.Status = s.status()
		defer s.stop()
	case OpRun:
		s.requests.Add(1)
		s.run(conn, req, resp)
	}
	write(conn, resp)
}

// run answers a run request; the request is cancelled when the client goes away (a hook
// killed by its caller), since nobody will read the answer.
func (s *Server) run(conn net.Conn, req *Request, resp *Response) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		var b [1]byte
		conn.Read(b[:]) // returns when the client closes its side
		cancel()
	}()
	var err error
	defer func() {
		if err != nil {
			*resp = Response{Version: ProtocolVersion, Error: err.Error()}
		}
	}()
	defer crash.Recover(&err)
	resp.Exit, resp.Stdout, resp.Stderr, err = s.Handler(ctx, req)
	if err == nil && ctx.Err() != nil {
		err = errors.New("request cancelled")
	}
}

func (s *Server) status() *Status {
	return &Status{
		PID: os.Getpid(), Root: s.Root, Socket: s.Socket, Started: s.started,
		Requests: s.requests.Load(), Memory: memory(), Idle: s.Idle,
	}
}

// memory returns the resident set size, or the memory the Go runtime holds.
func memory() uint64 {
	if rss, ok := residentSize(); ok {
		return rss
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.Sys
}
