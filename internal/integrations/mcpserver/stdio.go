package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentverify/agentverify/crash"
)

// MaxLine bounds one message on standard input (a verify_edit carries a whole file).
const MaxLine = 64 << 20

// Stdio is the MCP transport of `agentverify mcp`: newline-delimited JSON-RPC on r and w,
// like the SDK's IOTransport, with two differences a gate needs. A line that is not a
// JSON-RPC message is answered with a JSON-RPC error (-32700 parse error, -32600 invalid
// request) and the server reads on, where the SDK's transport ends the session and loses
// the answers still being computed. And at the end of the input the connection reports
// EOF only once every request it read has been answered, so a client that writes its
// requests and closes its side (a script, a pipe) gets every answer. Batches (arrays),
// which MCP dropped in 2025-06-18, are refused with -32600.
func Stdio(r io.Reader, w io.Writer) mcp.Transport { return &stdio{r: r, w: w} }

type stdio struct {
	r io.Reader
	w io.Writer
}

// Connect starts reading r.
func (t *stdio) Connect(context.Context) (mcp.Connection, error) {
	c := &stdioConn{w: t.w, lines: make(chan line), closed: make(chan struct{}), answered: make(chan struct{}, 1), pending: map[string]int{}}
	go c.read(t.r)
	return c, nil
}

// line is one line of input, or the error that ended it (io.EOF at the end).
type line struct {
	data    []byte
	tooLong bool
	err     error
}

type stdioConn struct {
	w     io.Writer
	wmu   sync.Mutex
	lines chan line

	mu       sync.Mutex
	pending  map[string]int // requests read and not yet answered, by ID
	answered chan struct{}  // a pending request was answered

	closeOnce sync.Once
	closed    chan struct{}
}

// read sends r's lines to c.lines until the end of r or Close.
func (c *stdioConn) read(r io.Reader) {
	var err error
	defer func() {
		select {
		case c.lines <- line{err: err}:
		case <-c.closed:
		}
	}()
	defer crash.Recover(&err)
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		l := readLine(br)
		if len(l.data) > 0 || l.tooLong {
			select {
			case c.lines <- line{data: l.data, tooLong: l.tooLong}:
			case <-c.closed:
				return
			}
		}
		if l.err != nil {
			err = l.err
			return
		}
	}
}

// readLine reads one line (without its end); a line longer than MaxLine is read to its
// end and dropped.
func readLine(br *bufio.Reader) line {
	var l line
	for {
		chunk, err := br.ReadSlice('\n')
		if !l.tooLong {
			if len(l.data)+len(chunk) > MaxLine {
				l.data, l.tooLong = nil, true
			} else {
				l.data = append(l.data, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		l.data = bytes.TrimSpace(l.data)
		l.err = err
		return l
	}
}

// Read returns the next message. A line that is not one is answered here and skipped; at
// the end of the input it waits until every request read has been answered.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		var l line
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case l = <-c.lines:
		}
		if l.err != nil {
			return nil, c.drain(ctx, l.err)
		}
		if l.tooLong {
			c.refuse(ctx, jsonrpc.CodeParseError, nil, fmt.Sprintf("Parse error: message longer than %d bytes", MaxLine))
			continue
		}
		msg, err := jsonrpc.DecodeMessage(l.data)
		if err != nil {
			var code int64 = jsonrpc.CodeInvalidRequest
			id := idOf(l.data)
			if !json.Valid(l.data) {
				code = jsonrpc.CodeParseError
			}
			c.refuse(ctx, code, id, describe(code, l.data, err))
			continue
		}
		if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
			c.mu.Lock()
			c.pending[key(req.ID)]++
			c.mu.Unlock()
		}
		return msg, nil
	}
}

// drain waits, at the end of the input, until no request read is unanswered, then
// returns end (io.EOF, or the read error).
func (c *stdioConn) drain(ctx context.Context, end error) error {
	for {
		c.mu.Lock()
		n := len(c.pending)
		c.mu.Unlock()
		if n == 0 {
			return end
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-c.closed:
			return end
		case <-c.answered:
		}
	}
}

// Write writes one message on its line; a response settles its request.
func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a JSON-RPC message: %w", err)
	}
	if err := c.writeLine(data); err != nil {
		return err
	}
	if resp, ok := msg.(*jsonrpc.Response); ok && resp.ID.IsValid() {
		c.mu.Lock()
		k := key(resp.ID)
		if c.pending[k]--; c.pending[k] <= 0 {
			delete(c.pending, k)
		}
		c.mu.Unlock()
		select {
		case c.answered <- struct{}{}:
		default:
		}
	}
	return nil
}

func (c *stdioConn) writeLine(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.w.Write(append(data, '\n'))
	return err
}

// refuse answers a line that is not a JSON-RPC message (id null when it has none).
func (c *stdioConn) refuse(_ context.Context, code int64, id any, msg string) {
	data, _ := json.Marshal(struct {
		Version string         `json:"jsonrpc"`
		ID      any            `json:"id"`
		Error   *jsonrpc.Error `json:"error"`
	}{"2.0", id, &jsonrpc.Error{Code: code, Message: msg}})
	c.writeLine(data)
}

// Close stops reading; it may be called more than once.
func (c *stdioConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

// SessionID is empty: stdio has one session.
func (c *stdioConn) SessionID() string { return "" }

// idOf returns the "id" of a JSON object that is not a valid request, if it has a
// usable one (a string or a number), so that the error answers it.
func idOf(data []byte) any {
	var m struct{ ID any }
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	switch m.ID.(type) {
	case string, float64:
		return m.ID
	}
	return nil
}

func describe(code int64, data []byte, err error) string {
	switch {
	case code == jsonrpc.CodeParseError:
		return "Parse error: not JSON"
	case len(data) > 0 && data[0] == '[':
		return "Invalid Request: JSON-RPC batches are not supported"
	}
	return "Invalid Request: " + err.Error()
}

// key is a request ID as a map key: a string ID and a numeric one never collide.
func key(id jsonrpc.ID) string { return fmt.Sprintf("%T:%v", id.Raw(), id.Raw()) }
