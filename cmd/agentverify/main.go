// Command agentverify is the static verification gate for code written by AI agents.
// Run 'agentverify help' for its commands; the work is done by package agentverify.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/agentverify/agentverify/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	fi, err := os.Stdout.Stat()
	terminal := err == nil && fi.Mode()&os.ModeCharDevice != 0
	code := cli.Main(ctx, os.Args[1:], &cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Terminal: terminal, Server: true, LeanGC: true})
	stop()
	os.Exit(code)
}
