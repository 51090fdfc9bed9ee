package agentverify_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentverify/agentverify"
)

// Check verifies files as they are (the Paths source, what `agentverify check` runs): here a
// module whose only function calls a standard-library function that does not exist.
func ExampleCheck() {
	dir, err := os.MkdirTemp("", "agentverify-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			panic(err)
		}
	}
	write("go.mod", "module example.com/greet\n\ngo 1.22\n")
	write("greet.go", `// Package greet says hello.
package greet

import "strings"

// Shout returns s in upper case.
func Shout(s string) string { return strings.ToUpperCase(s) }
`)

	rep, err := agentverify.Check(context.Background(), agentverify.Request{Dir: dir, Source: agentverify.Paths})
	if err != nil {
		fmt.Println("could not verify:", err)
		return
	}
	fmt.Println(rep.Status)
	for _, v := range rep.Violations {
		fmt.Printf("%s:%d:%d: %s [%s]\n    %s\n", v.Location.File, v.Location.Line, v.Location.Column, v.Message, v.Rule, v.Suggestion)
	}
	// Output:
	// failed
	// greet.go:7:46: strings.ToUpperCase is not declared by package strings [hallucination/unknown-symbol]
	//     did you mean strings.ToUpper?
}
