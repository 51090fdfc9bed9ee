package e2e

import (
	"testing"

	"github.com/agentverify/agentverify/internal/testkit/testrepo"
)

// git runs git in dir.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return (&testrepo.Repo{Dir: dir}).GitTB(t, args...)
}

// writeFiles writes files under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	(&testrepo.Repo{Dir: dir}).WriteTB(t, files)
}
