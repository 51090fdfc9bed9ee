// Package server is agentverify's shared warm server (design.md §9): one long-lived process
// per user and repository, reached over a private Unix socket in the user cache directory,
// that runs the CLI's verifications with a warm Checker so that a new hook process per
// agent edit does not pay a cold start. gopls -remote=auto is the model: the first client
// starts it, it exits after an idle time-out, and every client falls back to verifying in
// its own process when it cannot be reached, never to a pass.
//
// The package knows nothing of verification: the server runs a Handler for each request
// (the CLI runs its own command line with the warm Checker and returns what it printed),
// and the client returns an error whenever the answer is not a complete one.
package server
