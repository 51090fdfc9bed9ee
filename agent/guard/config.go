package guard

import (
	"errors"
	"fmt"
	"math"
	"net"
	"strings"
)

// Defaults applied by New to zero fields of Config.
const (
	DefaultMaxIterations           = 100
	DefaultMaxToolCalls            = 200
	DefaultRepeatLimit             = 3
	DefaultMaxConsecutiveMaxTokens = 5
	DefaultWarnFraction            = 0.8
	DefaultMaxSpawnDepth           = 3
)

// CapNetwork is the capability of tools that reach the network; the
// sovereign tier blocks them even when it is granted.
const CapNetwork = "network"

// Tier is the privacy tier of a run.
type Tier int

const (
	// TierStandard allows network tools that are granted and hosts that are allowlisted.
	TierStandard Tier = iota
	// TierSovereign keeps everything on the machine: no network tools, no hosts.
	TierSovereign
)

// Config sets the guard's limits. Zero values of the count limits and of
// WarnFraction mean the defaults above; MaxCostUSD and TokenBudget are
// unlimited when zero. Negative values are rejected by New.
type Config struct {
	MaxIterations           int
	MaxToolCalls            int
	RepeatLimit             int // identical calls (tool + canonical input) before Block
	MaxConsecutiveMaxTokens int
	MaxCostUSD              float64
	TokenBudget             int
	WarnFraction            float64 // of TokenBudget, when the Warn comes
	MaxSpawnDepth           int

	// Capabilities granted to this run.
	Capabilities []string
	// ToolCapabilities maps a tool name to the capability it needs; a tool
	// not listed needs none.
	ToolCapabilities map[string]string
	// AllowedHosts lists network hosts: exact names (case-insensitive),
	// "*.example.com" for any subdomain of example.com, or "*" for any
	// host. Empty means no host is allowed.
	AllowedHosts []string
	Tier         Tier
}

func (c Config) withDefaults() (Config, error) {
	var errs []error
	nonNeg := func(name string, v int) {
		if v < 0 {
			errs = append(errs, fmt.Errorf("%s %d is negative", name, v))
		}
	}
	nonNeg("max iterations", c.MaxIterations)
	nonNeg("max tool calls", c.MaxToolCalls)
	nonNeg("repeat limit", c.RepeatLimit)
	nonNeg("max consecutive max-tokens responses", c.MaxConsecutiveMaxTokens)
	nonNeg("token budget", c.TokenBudget)
	nonNeg("max spawn depth", c.MaxSpawnDepth)
	if c.MaxCostUSD < 0 || math.IsNaN(c.MaxCostUSD) || math.IsInf(c.MaxCostUSD, 0) {
		errs = append(errs, fmt.Errorf("max cost %v USD is not a non-negative number", c.MaxCostUSD))
	}
	if c.WarnFraction < 0 || c.WarnFraction > 1 || math.IsNaN(c.WarnFraction) {
		errs = append(errs, fmt.Errorf("warn fraction %v is outside 0…1", c.WarnFraction))
	}
	if c.Tier != TierStandard && c.Tier != TierSovereign {
		errs = append(errs, fmt.Errorf("privacy tier %d is unknown", int(c.Tier)))
	}
	hosts := make([]string, 0, len(c.AllowedHosts))
	for _, h := range c.AllowedHosts {
		p, err := normalizePattern(h)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		hosts = append(hosts, p)
	}
	c.AllowedHosts = hosts
	if err := errors.Join(errs...); err != nil {
		return c, fmt.Errorf("guard config: %w", err)
	}
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&c.MaxIterations, DefaultMaxIterations)
	def(&c.MaxToolCalls, DefaultMaxToolCalls)
	def(&c.RepeatLimit, DefaultRepeatLimit)
	def(&c.MaxConsecutiveMaxTokens, DefaultMaxConsecutiveMaxTokens)
	def(&c.MaxSpawnDepth, DefaultMaxSpawnDepth)
	if c.WarnFraction == 0 {
		c.WarnFraction = DefaultWarnFraction
	}
	return c, nil
}

// normalizePattern brings an allowlist entry into the form normalizeHost
// gives hosts, and rejects what cannot be a host pattern.
func normalizePattern(p string) (string, error) {
	q := strings.TrimSpace(p)
	if q == "*" {
		return q, nil
	}
	wild := strings.HasPrefix(q, "*.")
	h, err := normalizeHost(strings.TrimPrefix(q, "*."))
	if err != nil || strings.HasPrefix(h, ".") {
		return "", fmt.Errorf("allowed host %q: want a host name, \"*.domain\" or \"*\"", p)
	}
	if wild {
		return "*." + h, nil
	}
	return h, nil
}

// normalizeHost drops a port, brackets and a trailing dot, lower-cases, and
// writes IP addresses canonically, so that equal hosts compare equal.
func normalizeHost(h string) (string, error) {
	h = strings.TrimSpace(h)
	if strings.ContainsAny(h, "/\\@*?# ") {
		return "", fmt.Errorf("host %q is not a host name or IP address", h)
	}
	if strings.HasPrefix(h, "[") || strings.Count(h, ":") == 1 {
		if host, _, err := net.SplitHostPort(h); err == nil {
			h = host
		}
	}
	h = strings.TrimSuffix(strings.ToLower(strings.Trim(h, "[]")), ".")
	if ip := net.ParseIP(h); ip != nil {
		return ip.String(), nil
	}
	if h == "" || strings.Contains(h, ":") {
		return "", fmt.Errorf("host %q is not a host name or IP address", h)
	}
	return h, nil
}
