package llm

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func server(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s
}

func TestCompleteToolCall(t *testing.T) {
	var got Request
	var auth string
	s := server(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
			http.Error(w, "wrong endpoint", http.StatusNotFound)
			return
		}
		auth = r.Header.Get("Authorization")
		json.NewDecoder(r.Body).Decode(&got)
		io.WriteString(w, `{"id":"c1","choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,
			"tool_calls":[{"id":"call_1","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"a.go\"}"}}]}}],
			"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`)
	})
	c := NewClient(s.URL+"/v1/", "sk-secret")
	resp, err := c.Complete(context.Background(), &Request{Model: "m", Messages: []Message{{Role: "user", Content: "hi"}},
		Tools: []Tool{{Type: "function", Function: FunctionDef{Name: "read_file", Parameters: json.RawMessage(`{"type":"object"}`)}}}})
	if err != nil {
		t.Fatal(err)
	}
	ch, _ := resp.First()
	if ch.FinishReason != "tool_calls" || len(ch.Message.ToolCalls) != 1 || ch.Message.ToolCalls[0].Function.Arguments != `{"path":"a.go"}` || resp.Usage.TotalTokens != 15 {
		t.Errorf("response %+v", resp)
	}
	if auth != "Bearer sk-secret" || got.Model != "m" || len(got.Tools) != 1 || got.Tools[0].Function.Name != "read_file" {
		t.Errorf("request: auth %q body %+v", auth, got)
	}
}

func TestCompleteErrors(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		want   string
	}{
		{"openai error", 400, `{"error":{"message":"model not loaded","type":"invalid_request_error"}}`, "400: model not loaded"},
		{"string error", 500, `{"error":"out of memory"}`, "500: out of memory"},
		{"plain text", 503, "busy", "503: busy"},
		{"malformed", 200, `{"choices":[`, "malformed JSON"},
		{"no choices", 200, `{"choices":[]}`, "no choices"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := server(t, func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.status)
				io.WriteString(w, tt.body)
			})
			_, err := NewClient(s.URL, "").Complete(context.Background(), &Request{Model: "m"})
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want an *Error containing %q", err, tt.want)
			}
		})
	}
}

func TestConnectionRefusedIsAnError(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, err = NewClient("http://"+addr, "sk-secret").Complete(context.Background(), &Request{Model: "m"})
	var e *Error
	if !errors.As(err, &e) || e.Status != 0 || strings.Contains(err.Error(), "sk-secret") {
		t.Errorf("err = %v", err)
	}
}
