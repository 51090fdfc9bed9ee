// Command agentverify-vet runs agentverify's complexity and style dimensions under
// `go vet -vettool`, and under Bazel's nogo or any unitchecker-based driver:
//
//	go build -o agentverify-vet ./cmd/agentverify-vet
//	go vet -vettool=$(pwd)/agentverify-vet ./...
package main

import (
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/agentverify/agentverify/analyzer"
)

func main() { unitchecker.Main(analyzer.Analyzers()...) }
