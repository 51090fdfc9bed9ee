package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"
)

// ProtocolVersion changes whenever Request or Response change meaning. A server and a
// client of different versions never talk: the socket name includes the executable's
// identity, and the server refuses any other version.
const ProtocolVersion = 1

// Operations a request may ask for.
const (
	OpRun    = "run"    // run a command line (Request.Args) and return its outputs
	OpStatus = "status" // describe the server
	OpStop   = "stop"   // answer, then exit
)

// MaxMessage bounds one request or response on the wire (a patch or a hook payload is in
// it whole).
const MaxMessage = 256 << 20

// Request is one call, the argv equivalent of a command run in the caller's process.
type Request struct {
	Version int    `json:"version"`
	Op      string `json:"op"`
	// Args is the command line without the program name ("hook", "claude").
	Args []string `json:"args,omitempty"`
	// Dir is the directory the command runs in, as the caller names it (perhaps relative
	// to Cwd), so that messages name paths as the caller's own run would.
	Dir string `json:"dir,omitempty"`
	// Cwd is the caller's absolute working directory.
	Cwd string `json:"cwd,omitempty"`
	// Env holds the variables the command reads through its environment (NO_COLOR, TERM),
	// as KEY=VALUE.
	Env []string `json:"env,omitempty"`
	// Stdin is the caller's standard input, read whole (a hook's JSON, a patch from "-").
	Stdin []byte `json:"stdin,omitempty"`
	// Terminal says whether the caller's standard output is a terminal (for colour).
	Terminal bool `json:"terminal,omitempty"`
}

// Response is the server's answer.
type Response struct {
	Version int `json:"version"`
	// Error is set when the server could not run the request; the client then verifies in
	// its own process. A failed verification is not an error: it has an exit code.
	Error  string  `json:"error,omitempty"`
	Exit   int     `json:"exit"`
	Stdout []byte  `json:"stdout,omitempty"`
	Stderr []byte  `json:"stderr,omitempty"`
	Status *Status `json:"status,omitempty"`
}

// Status describes a running server (agentverify server status).
type Status struct {
	PID      int       `json:"pid"`
	Root     string    `json:"root"`
	Socket   string    `json:"socket"`
	Started  time.Time `json:"started"`
	Requests int64     `json:"requests"`
	// Memory is the resident set size in bytes where the system reports it, else the
	// memory the Go runtime obtained from it.
	Memory uint64 `json:"memory"`
	// Idle is how long the server stays up without a request.
	Idle time.Duration `json:"idle"`
}

// write sends one message.
func write(w io.Writer, v any) error { return json.NewEncoder(w).Encode(v) }

// readRequest reads one request from r, which comes from outside the process: anything
// but one well-formed request of this protocol version is an error.
func readRequest(r io.Reader) (*Request, error) {
	var req Request
	if err := read(r, &req); err != nil {
		return nil, err
	}
	if req.Version != ProtocolVersion {
		return nil, fmt.Errorf("protocol version %d, want %d", req.Version, ProtocolVersion)
	}
	switch req.Op {
	case OpRun:
		if len(req.Args) == 0 || req.Dir == "" || !filepath.IsAbs(req.Cwd) {
			return nil, errors.New("run: no command line, no directory or no absolute working directory")
		}
	case OpStatus, OpStop:
	default:
		return nil, fmt.Errorf("unknown operation %q", req.Op)
	}
	return &req, nil
}

// readResponse reads the server's answer; a missing or partial one is an error.
func readResponse(r io.Reader) (*Response, error) {
	var resp Response
	if err := read(r, &resp); err != nil {
		return nil, err
	}
	if resp.Version != ProtocolVersion {
		return nil, fmt.Errorf("server speaks protocol version %d, want %d", resp.Version, ProtocolVersion)
	}
	if resp.Error != "" {
		return nil, fmt.Errorf("server: %s", resp.Error)
	}
	return &resp, nil
}

func read(r io.Reader, v any) error {
	dec := json.NewDecoder(io.LimitReader(r, MaxMessage))
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return io.ErrUnexpectedEOF
		}
		return fmt.Errorf("bad message: %w", err)
	}
	return nil
}
