//go:build tools

package agentverify

import (
	_ "github.com/bluekeyes/go-gitdiff/gitdiff"
	_ "github.com/bmatcuk/doublestar/v4"
	_ "github.com/go-git/go-git/v5"
	_ "github.com/modelcontextprotocol/go-sdk/mcp"
	_ "github.com/owenrumney/go-sarif/v2/sarif"
	_ "github.com/santhosh-tekuri/jsonschema/v6"
	_ "go.yaml.in/yaml/v3"
	_ "golang.org/x/mod/modfile"
	_ "golang.org/x/sync/errgroup"
	_ "golang.org/x/tools/go/packages"
	_ "golang.org/x/tools/txtar"
	_ "pgregory.net/rapid"
)
