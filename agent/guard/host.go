package guard

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// CheckHost decides whether a network request may go to host (a name or
// IP, optionally with a port). Hosts are compared case-insensitively and
// exactly; "*.d" allows the subdomains of d and "*" allows all (INV-014).
// Under the sovereign tier every host is blocked (INV-015).
func (g *Guard) CheckHost(host string) Verdict {
	return g.decide(g.hostVerdict(host))
}

func (g *Guard) hostVerdict(host string) Verdict {
	if g.cfg.Tier == TierSovereign {
		return verdict(Block, InvSovereign, "the sovereign privacy tier forbids network access (host %q)", host)
	}
	h, err := normalizeHost(host)
	if err != nil {
		return verdict(Block, InvHost, "network access refused: %v", err)
	}
	for _, p := range g.cfg.AllowedHosts {
		if p == "*" || p == h || strings.HasPrefix(p, "*.") && strings.HasSuffix(h, p[1:]) {
			return Allowed
		}
	}
	return verdict(Block, InvHost, "network access to host %q is not in the allowlist", h)
}

// CheckURL checks a request URL: http or https, and an allowed host.
func (g *Guard) CheckURL(u *url.URL) Verdict {
	if u == nil {
		return g.decide(verdict(Block, InvHost, "network access refused: no URL"))
	}
	if s := strings.ToLower(u.Scheme); s != "http" && s != "https" {
		return g.decide(verdict(Block, InvHost, "network access refused: scheme %q is not http or https", u.Scheme))
	}
	return g.decide(g.hostVerdict(u.Host))
}

// maxRedirects is net/http's own default limit.
const maxRedirects = 10

// CheckRedirect has the signature of http.Client.CheckRedirect: every
// redirect target is checked like the first request (INV-014), so an
// allowed host cannot bounce the agent to a forbidden one.
func (g *Guard) CheckRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return errors.New("stopped after 10 redirects")
	}
	if v := g.CheckURL(req.URL); v.Stops() {
		return fmt.Errorf("redirect to %s refused: %s", req.URL.Redacted(), v.Message)
	}
	return nil
}
