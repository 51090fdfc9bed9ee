package npm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"
)

// DefaultRegistry is npm's own registry.
const DefaultRegistry = "https://registry.npmjs.org/"

// ErrNotFound is the registry's answer for a package it does not have.
var ErrNotFound = errors.New("not in the registry")

// Registry asks an npm registry about packages, as the user's package manager is
// configured: NPM_CONFIG_REGISTRY (npm_config_registry), the project's configuration
// (.npmrc, yarn's .yarnrc and .yarnrc.yml, pnpm-workspace.yaml), the user's, then npm's
// default; a scope's settings route it elsewhere. Answers are kept
// for the Registry's life. It sends no credentials: a registry that wants them answers
// as unreachable, and the finding says the package could not be asked about.
type Registry struct {
	// Default is the registry's base URL, with a trailing slash; Scopes by "@scope".
	Default string
	Scopes  map[string]string
	Client  *http.Client

	mu    sync.Mutex
	known map[string]*Info
	errs  map[string]error
}

// Info is what the registry says about a package.
type Info struct {
	Name string
	// Created is when its first version was published (zero when the registry does not
	// say).
	Created time.Time
}

// NewRegistry returns the registry npm would use for the project at root (its .npmrc
// read from the disk; "" for none).
func NewRegistry(root string) *Registry {
	if root == "" {
		return NewRegistryFrom(nil)
	}
	return NewRegistryFrom(os.DirFS(root))
}

// NewRegistryFrom returns the registry the project whose tree is project installs from
// (its configuration files read; nil for none). Which tree that is is the caller's
// decision: the trusted side's in diff mode, so that a change cannot send the lookup to a
// registry of its own.
func NewRegistryFrom(project fs.FS) *Registry {
	r := &Registry{Default: DefaultRegistry, Scopes: map[string]string{}, Client: &http.Client{Timeout: 15 * time.Second},
		known: map[string]*Info{}, errs: map[string]error{}}
	home, err := os.UserHomeDir()
	if err == nil {
		r.read(os.DirFS(home))
	}
	if project != nil { // later files win
		r.read(project)
	}
	for _, env := range []string{"npm_config_registry", "NPM_CONFIG_REGISTRY"} {
		if v := os.Getenv(env); v != "" {
			r.Default = withSlash(v)
		}
	}
	return r
}

// registryFiles are the files whose registry settings the lookup follows, in the order
// they apply (a later one wins): npm's .npmrc (which pnpm and yarn 1 read too), yarn 1's
// .yarnrc, yarn 2+'s .yarnrc.yml (which replaces .npmrc for it), and pnpm's
// pnpm-workspace.yaml (pnpm 10+ takes its registries there too).
var registryFiles = []struct {
	name string
	read func([]byte) map[string]string
}{
	{".npmrc", RegistrySettings}, {".yarnrc", yarnrcRegistries}, {".yarnrc.yml", yarnRegistries}, {"pnpm-workspace.yaml", pnpmRegistries},
}

// read applies the registry settings of the configuration files at the top of fsys.
func (r *Registry) read(fsys fs.FS) {
	for _, f := range registryFiles {
		if data, err := fs.ReadFile(fsys, f.name); err == nil {
			r.apply(f.read(data))
		}
	}
}

// YarnrcSettings reads a yarn 1 .yarnrc (`key value` lines, either side quoted), by key.
func YarnrcSettings(data []byte) map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		k, v, _ := strings.Cut(strings.ReplaceAll(line, "\t", " "), " ")
		k, v = strings.Trim(k, `"'`), strings.Trim(strings.TrimSpace(v), `"'`)
		out[strings.TrimPrefix(k, "--")] = v
	}
	return out
}

// yarnrcRegistries are a .yarnrc's registry settings, as an .npmrc's.
func yarnrcRegistries(data []byte) map[string]string {
	out := map[string]string{}
	for k, v := range YarnrcSettings(data) {
		if k == "registry" || strings.HasPrefix(k, "@") && strings.HasSuffix(k, ":registry") {
			out[k] = v
		}
	}
	return out
}

// yarnRegistries are a .yarnrc.yml's registry settings (npmRegistryServer, and
// npmScopes.<scope>.npmRegistryServer), as an .npmrc's.
func yarnRegistries(data []byte) map[string]string {
	var doc struct {
		Server string `yaml:"npmRegistryServer"`
		Scopes map[string]struct {
			Server string `yaml:"npmRegistryServer"`
		} `yaml:"npmScopes"`
	}
	out := map[string]string{}
	if yaml.Unmarshal(data, &doc) != nil {
		return out
	}
	if doc.Server != "" {
		out["registry"] = doc.Server
	}
	for scope, s := range doc.Scopes {
		if s.Server != "" {
			out["@"+strings.TrimPrefix(scope, "@")+":registry"] = s.Server
		}
	}
	return out
}

// pnpmRegistries are pnpm-workspace.yaml's registry settings: registry, and registries
// keyed by scope ("default", "@acme": URL) or by URL (URL: {scopes: [...]}, "@" for
// every package).
func pnpmRegistries(data []byte) map[string]string {
	var doc struct {
		Registry   string         `yaml:"registry"`
		Registries map[string]any `yaml:"registries"`
	}
	out := map[string]string{}
	if yaml.Unmarshal(data, &doc) != nil {
		return out
	}
	if doc.Registry != "" {
		out["registry"] = doc.Registry
	}
	for k, v := range doc.Registries {
		switch v := v.(type) {
		case string:
			out[scopeKey(k)] = v
		case map[string]any:
			scopes, _ := v["scopes"].([]any)
			for _, sc := range scopes {
				if name, ok := sc.(string); ok {
					out[scopeKey(name)] = k
				}
			}
		}
	}
	return out
}

// scopeKey is the .npmrc key of a scope's registry ("registry" for every package).
func scopeKey(scope string) string {
	if scope == "default" || scope == "@" || scope == "" {
		return "registry"
	}
	return "@" + strings.TrimPrefix(scope, "@") + ":registry"
}

// apply takes the registry settings of an .npmrc file.
func (r *Registry) apply(settings map[string]string) {
	for k, v := range settings {
		if k == "registry" {
			r.Default = withSlash(os.ExpandEnv(v))
		} else {
			r.Scopes[strings.TrimSuffix(k, ":registry")] = withSlash(os.ExpandEnv(v))
		}
	}
}

// RegistrySettings returns the settings of an .npmrc file that decide which registry a
// package is looked up in: "registry" and "@scope:registry", by key.
func RegistrySettings(data []byte) map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.Trim(strings.TrimSpace(v), `"'`)
		if k == "registry" || strings.HasPrefix(k, "@") && strings.HasSuffix(k, ":registry") {
			out[k] = v
		}
	}
	return out
}

func withSlash(u string) string {
	if !strings.HasSuffix(u, "/") {
		u += "/"
	}
	return u
}

// URL is the registry's base URL for package name.
func (r *Registry) URL(name string) string {
	if scope, _, ok := strings.Cut(name, "/"); ok && strings.HasPrefix(scope, "@") {
		if u, ok := r.Scopes[scope]; ok {
			return u
		}
	}
	return r.Default
}

// Lookup asks the registry about name: its Info, ErrNotFound, or why it could not be
// asked. full asks for the whole document (with publication times), which may be
// large; otherwise npm's abbreviated one.
func (r *Registry) Lookup(ctx context.Context, name string, full bool) (*Info, error) {
	key := fmt.Sprintf("%s\x00%v", name, full)
	r.mu.Lock()
	if info, ok := r.known[key]; ok {
		r.mu.Unlock()
		return info, r.errs[key]
	}
	r.mu.Unlock()
	info, err := r.fetch(ctx, name, full)
	if ctx.Err() == nil { // an answer cut short is asked again next time
		r.mu.Lock()
		r.known[key], r.errs[key] = info, err
		r.mu.Unlock()
	}
	return info, err
}

func (r *Registry) fetch(ctx context.Context, name string, full bool) (*Info, error) {
	u := r.URL(name) + strings.Replace(url.PathEscape(name), "%40", "@", 1)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	if full {
		req.Header.Set("Accept", "application/json")
	} else {
		req.Header.Set("Accept", "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8")
	}
	resp, err := r.Client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("asking %s: %w", r.URL(name), err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return nil, ErrNotFound
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("asking %s: %s", r.URL(name), resp.Status)
	}
	var doc struct {
		Name string            `json:"name"`
		Time map[string]string `json:"time"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		return nil, fmt.Errorf("asking %s about %s: %w", r.URL(name), name, err)
	}
	info := &Info{Name: doc.Name}
	if c, ok := doc.Time["created"]; ok {
		info.Created, _ = time.Parse(time.RFC3339, c)
	}
	return info, nil
}
