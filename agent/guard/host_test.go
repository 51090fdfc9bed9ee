package guard

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestINV014HostAllowlist(t *testing.T) {
	g := mustNew(t, Config{AllowedHosts: []string{"API.Example.com", "*.models.test", "10.0.0.1", "[::1]"}})
	for host, want := range map[string]Kind{
		"api.example.com":      Allow,
		"API.EXAMPLE.COM.":     Allow,
		"api.example.com:443":  Allow,
		"example.com":          Block,
		"x.api.example.com":    Block,
		"api.example.com.evil": Block,
		"a.models.test":        Allow,
		"a.b.models.test":      Allow,
		"models.test":          Block,
		"evilmodels.test":      Block,
		"10.0.0.1:8080":        Allow,
		"10.0.0.2":             Block,
		"[::1]:1234":           Allow,
		"::1":                  Allow,
		"":                     Block,
	} {
		if v := g.CheckHost(host); v.Kind != want || want == Block && v.Invariant != InvHost {
			t.Errorf("CheckHost(%q) = %v, want %v", host, v, want)
		}
	}
	for raw, want := range map[string]Kind{
		"https://api.example.com/v1": Allow,
		"file:///etc/passwd":         Block,
		"ftp://api.example.com/":     Block,
		"http://10.0.0.2/":           Block,
	} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if v := g.CheckURL(u); v.Kind != want {
			t.Errorf("CheckURL(%s) = %v, want %v", raw, v, want)
		}
	}
	if v := mustNew(t, Config{}).CheckHost("example.com"); v.Kind != Block {
		t.Errorf("empty allowlist allowed a host: %v", v)
	}
	if v := mustNew(t, Config{AllowedHosts: []string{"*"}}).CheckHost("anything.example"); v.Kind != Allow {
		t.Errorf(`"*" did not allow a host: %v`, v)
	}
}

// TestINV014HostAllowlistRapid: any spelling (case, port, trailing dot) of
// an allowed host is allowed; a host with any other label is not.
func TestINV014HostAllowlistRapid(t *testing.T) {
	label := rapid.StringMatching(`[a-z][a-z0-9-]{0,8}`)
	rapid.Check(t, func(t *rapid.T) {
		labels := rapid.SliceOfN(label, 1, 4).Draw(t, "labels")
		host := strings.Join(labels, ".")
		g := mustNew(t, Config{AllowedHosts: []string{host}})
		spelled := []rune(host)
		for i, r := range spelled {
			if rapid.Bool().Draw(t, fmt.Sprint("upper", i)) {
				spelled[i] = []rune(strings.ToUpper(string(r)))[0]
			}
		}
		s := string(spelled)
		if rapid.Bool().Draw(t, "dot") {
			s += "."
		}
		if rapid.Bool().Draw(t, "port") {
			s += fmt.Sprint(":", rapid.IntRange(1, 65535).Draw(t, "portnum"))
		}
		if v := g.CheckHost(s); v.Kind != Allow {
			t.Fatalf("allowed %q, CheckHost(%q) = %v", host, s, v)
		}
		other := label.Draw(t, "other")
		for _, cand := range []string{other + "." + host, host + "." + other, other} {
			if cand != host {
				if v := g.CheckHost(cand); v.Kind != Block {
					t.Fatalf("allowed %q, CheckHost(%q) = %v", host, cand, v)
				}
			}
		}
	})
}

// TestINV014RedirectRechecked runs a real HTTP client against a local
// server: a redirect from the allowed host to one that is not allowed is
// refused, a redirect within the allowed host is followed.
func TestINV014RedirectRechecked(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			u, _ := url.Parse("http://" + r.Host)
			http.Redirect(w, r, "http://localhost:"+u.Port()+"/ok", http.StatusFound)
		case "/home":
			http.Redirect(w, r, "/ok", http.StatusFound)
		default:
			fmt.Fprint(w, "ok")
		}
	}))
	defer srv.Close()
	g := mustNew(t, Config{AllowedHosts: []string{"127.0.0.1"}})
	client := &http.Client{CheckRedirect: g.CheckRedirect}

	resp, err := client.Get(srv.URL + "/home")
	if err != nil {
		t.Fatalf("redirect within the allowed host: %v", err)
	}
	resp.Body.Close()

	resp, err = client.Get(srv.URL + "/away")
	if err == nil {
		resp.Body.Close()
		t.Fatal("redirect to localhost was followed")
	}
	if !strings.Contains(err.Error(), `redirect to http://localhost:`) || !strings.Contains(err.Error(), `host "localhost" is not in the allowlist`) {
		t.Fatalf("error = %v", err)
	}
}
