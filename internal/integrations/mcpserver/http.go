package mcpserver

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPOptions configure the streamable HTTP front of the server.
type HTTPOptions struct {
	// AllowedOrigins lists origins ("https://app.example.com") accepted besides the
	// loopback ones. A request whose Origin header is present and neither loopback nor
	// listed is refused with 403, as the MCP specification requires against DNS
	// rebinding: a web page the user opens must not drive the gate.
	AllowedOrigins []string
}

// Handler serves server over streamable HTTP, refusing requests from foreign origins.
func Handler(server *mcp.Server, opts HTTPOptions) http.Handler {
	inner := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	allowed := make([]string, 0, len(opts.AllowedOrigins))
	for _, o := range opts.AllowedOrigins {
		allowed = append(allowed, strings.ToLower(strings.TrimSuffix(o, "/")))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !originAllowed(origin, allowed) {
			http.Error(w, fmt.Sprintf("agentverify mcp: origin %q is not allowed (loopback origins only; see --allow-origin)", origin), http.StatusForbidden)
			return
		}
		inner.ServeHTTP(w, r)
	})
}

// originAllowed reports whether origin is a loopback origin or one of allowed (lower-case,
// no trailing slash). "null" (a sandboxed or file: page) is never allowed.
func originAllowed(origin string, allowed []string) bool {
	o := strings.ToLower(origin)
	if slices.Contains(allowed, o) {
		return true
	}
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	return IsLoopbackHost(u.Hostname())
}

// IsLoopbackHost reports whether host (a name or an IP, without port) is the local
// machine: localhost or a loopback address.
func IsLoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}
