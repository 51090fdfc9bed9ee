package agenthook

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agentverify/agentverify/change/regular"
)

// resolve makes a tool's path absolute, a relative one against the agent's directory.
func resolve(dir, p, tool string) (string, error) {
	switch {
	case p == "":
		return "", fmt.Errorf("%s: tool_input has no file_path", tool)
	case filepath.IsAbs(p):
		return filepath.Clean(p), nil
	case dir == "":
		return "", fmt.Errorf("%s: relative path %q and no working directory in the payload", tool, p)
	}
	return filepath.Join(dir, p), nil
}

// current reads the file an edit starts from, as it is on disk now — never as the payload
// says it is. It opens only regular files without blocking (a named pipe at the path is
// an error, not a hang); exists is false for a file that is not there.
func current(path string) (content string, exists bool, err error) {
	data, size, err := regular.ReadFile(path, MaxInput)
	switch {
	case errors.Is(err, os.ErrNotExist) || errors.Is(err, fs.ErrNotExist):
		return "", false, nil
	case err != nil:
		return "", false, err
	case data == nil && size > 0:
		return "", false, fmt.Errorf("%s: %d bytes, too large to edit through the hook (limit 64 MiB)", path, size)
	}
	return string(data), true, nil
}

// readExisting reads a file that must exist for the tool to edit it.
func readExisting(path string) (string, error) {
	s, ok, err := current(path)
	if err == nil && !ok {
		return "", fmt.Errorf("%s: file does not exist", path)
	}
	return s, err
}
