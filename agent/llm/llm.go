// Package llm is a client for OpenAI-compatible chat-completions servers (LM Studio,
// Ollama, llama.cpp server, vLLM, hosted APIs) with function tools. The model is an
// untrusted oracle: every failure — HTTP status, connection, malformed JSON — is an error
// value carrying the server's message, never a panic.
package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// Timeouts for inference (design.md §10).
const (
	ConnectTimeout  = 30 * time.Second
	ResponseTimeout = 300 * time.Second
)

// maxResponse bounds a response body.
const maxResponse = 32 << 20

// Message is one chat message.
type Message struct {
	Role       string     `json:"role"` // system, user, assistant, tool
	Content    string     `json:"content"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	Name       string     `json:"name,omitempty"`
}

// ToolCall is a function call the model asks for. Arguments is a JSON document in a string,
// as the protocol has it.
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
}

// FunctionCall names the function and its JSON arguments.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Tool is a function offered to the model.
type Tool struct {
	Type     string      `json:"type"` // "function"
	Function FunctionDef `json:"function"`
}

// FunctionDef describes a function: its name, purpose and JSON Schema parameters.
type FunctionDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Request is a chat-completions request.
type Request struct {
	Model       string    `json:"model"`
	Messages    []Message `json:"messages"`
	Tools       []Tool    `json:"tools,omitempty"`
	MaxTokens   int       `json:"max_tokens,omitempty"`
	Temperature *float64  `json:"temperature,omitempty"`
}

// Usage is the token accounting of one completion.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// Choice is one completion.
type Choice struct {
	Index        int     `json:"index"`
	Message      Message `json:"message"`
	FinishReason string  `json:"finish_reason"`
}

// Response is a chat-completions response.
type Response struct {
	ID      string   `json:"id"`
	Model   string   `json:"model"`
	Choices []Choice `json:"choices"`
	Usage   Usage    `json:"usage"`
}

// Client talks to one server.
type Client struct {
	BaseURL string // e.g. http://127.0.0.1:1234/v1
	APIKey  string // sent as a bearer token when set; never logged
	HTTP    *http.Client
}

// NewClient returns a client with the inference timeouts.
func NewClient(baseURL, apiKey string) *Client {
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: ConnectTimeout}).DialContext,
		TLSHandshakeTimeout:   ConnectTimeout,
		ResponseHeaderTimeout: ResponseTimeout,
	}
	return &Client{BaseURL: strings.TrimRight(baseURL, "/"), APIKey: apiKey, HTTP: &http.Client{Transport: tr, Timeout: ResponseTimeout}}
}

// Error is a failed exchange with the server.
type Error struct {
	Status  int    // HTTP status, 0 when no response arrived
	Message string // the server's message, or what went wrong
}

// Error describes the failed call with its HTTP status when there is one.
func (e *Error) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("model server answered %d: %s", e.Status, e.Message)
	}
	return "model server: " + e.Message
}

// Complete sends one request and returns the first choice's response.
func (c *Client) Complete(ctx context.Context, req *Request) (*Response, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, &Error{Message: "encoding request: " + err.Error()}
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, c.BaseURL+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return nil, &Error{Message: err.Error()}
	}
	hreq.Header.Set("Content-Type", "application/json")
	if c.APIKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	hc := c.HTTP
	if hc == nil {
		hc = NewClient(c.BaseURL, "").HTTP
	}
	resp, err := hc.Do(hreq)
	if err != nil {
		return nil, &Error{Message: c.redact(err.Error())}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	if err != nil {
		return nil, &Error{Status: resp.StatusCode, Message: "reading response: " + err.Error()}
	}
	if len(data) > maxResponse {
		return nil, &Error{Status: resp.StatusCode, Message: "response larger than 32 MiB"}
	}
	if resp.StatusCode/100 != 2 {
		return nil, &Error{Status: resp.StatusCode, Message: serverMessage(data)}
	}
	var out Response
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, &Error{Status: resp.StatusCode, Message: "malformed JSON response: " + err.Error()}
	}
	if len(out.Choices) == 0 {
		return nil, &Error{Status: resp.StatusCode, Message: "response has no choices"}
	}
	return &out, nil
}

// serverMessage extracts {"error":{"message":...}} or {"error":"..."}, else the body.
func serverMessage(data []byte) string {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(data, &e) == nil && len(e.Error) > 0 {
		var obj struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(e.Error, &obj) == nil && obj.Message != "" {
			return obj.Message
		}
		var s string
		if json.Unmarshal(e.Error, &s) == nil && s != "" {
			return s
		}
	}
	msg := strings.TrimSpace(string(data))
	if len(msg) > 500 {
		msg = msg[:500] + "…"
	}
	if msg == "" {
		msg = "(empty body)"
	}
	return msg
}

// redact removes the API key from a message, should a transport error ever echo it.
func (c *Client) redact(s string) string {
	if c.APIKey == "" {
		return s
	}
	return strings.ReplaceAll(s, c.APIKey, "[REDACTED]")
}

// ErrNoChoice is returned by First when a response has no choice.
var ErrNoChoice = errors.New("response has no choices")

// First returns the first choice.
func (r *Response) First() (Choice, error) {
	if len(r.Choices) == 0 {
		return Choice{}, ErrNoChoice
	}
	return r.Choices[0], nil
}
