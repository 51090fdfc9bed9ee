package server

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Endpoint is where the server of one repository listens, and what identifies it.
type Endpoint struct {
	// Dir is the private directory of the sockets (0700, the user's).
	Dir string
	// Socket is the Unix socket's path; Log receives the server's own errors.
	Socket, Log string
	// Root is the repository the server is for.
	Root string
}

// maxSocketPath keeps a socket path under the smallest sun_path of the Unix systems
// (104 bytes on the BSDs and macOS, 108 on Linux).
const maxSocketPath = 100

// Locate returns the endpoint of the server for the repository at root, as run by the
// executable exe in the environment environ (KEY=VALUE). Everything that changes what a
// verification answers outside the repository's files is in the name: the executable
// (a rebuilt or upgraded agentverify gets a server of its own), the go command on PATH,
// and the environment the toolchains read (keyEnv). cacheDir is os.UserCacheDir(); when
// the socket path would be too long for the system, the sockets go to a private
// directory of the user in os.TempDir() instead.
func Locate(cacheDir, root, exe string, environ []string) (Endpoint, error) {
	if !filepath.IsAbs(root) || !filepath.IsAbs(cacheDir) {
		return Endpoint{}, fmt.Errorf("locate server: %q or %q is not absolute", root, cacheDir)
	}
	h := sha256.New()
	fmt.Fprintf(h, "agentverify server %d\x00%s\x00%s\x00", ProtocolVersion, root, fileIdentity(exe))
	if goCmd, err := lookPath("go", environ); err == nil {
		fmt.Fprintf(h, "%s\x00", fileIdentity(goCmd))
	}
	for _, kv := range keyEnv(environ) {
		fmt.Fprintf(h, "%s\x00", kv)
	}
	key := hex.EncodeToString(h.Sum(nil))[:keyLen]
	dir := SocketDir(cacheDir)
	return Endpoint{
		Dir:    dir,
		Socket: filepath.Join(dir, key+".sock"),
		Log:    LogOf(filepath.Join(dir, key+".sock")),
		Root:   root,
	}, nil
}

// keyLen is the length of a socket's name, without ".sock".
const keyLen = 20

// SocketDir returns the directory of the user's server sockets: agentverify/server in
// cacheDir (os.UserCacheDir()), or a private directory of the user in os.TempDir() when a
// socket path there would be too long for the system.
func SocketDir(cacheDir string) string {
	dir := filepath.Join(cacheDir, "agentverify", "server")
	if len(dir)+keyLen+len("/.sock") > maxSocketPath {
		dir = filepath.Join(os.TempDir(), fmt.Sprintf("agentverify-%d", os.Getuid()))
	}
	return dir
}

// LogOf returns the file that receives the output of the server listening on socket.
func LogOf(socket string) string { return strings.TrimSuffix(socket, ".sock") + ".log" }

// fileIdentity names a file's version: its path, size and modification time.
func fileIdentity(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return path + " ?"
	}
	return fmt.Sprintf("%s %d %d", path, fi.Size(), fi.ModTime().UnixNano())
}

// lookPath finds an executable on the PATH of environ.
func lookPath(name string, environ []string) (string, error) {
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			for _, dir := range filepath.SplitList(v) {
				p := filepath.Join(dir, name)
				if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
					return p, nil
				}
			}
		}
	}
	return exec.LookPath(name)
}

// keyPrefixes are the variables that change what the toolchains answer (go list, the
// Lisp source registry, pyright, git's configuration is not read): a server runs in the
// environment of the client that started it, so clients in another one need their own.
// Variables that change per call (a hook's session, PWD, GIT_INDEX_FILE) are not in it.
var keyPrefixes = []string{"GO", "CGO_", "CC=", "CXX=", "PATH=", "HOME=", "XDG_", "CL_", "SBCL_", "PYTHON", "VIRTUAL_ENV=", "CONDA_PREFIX=", "NODE_"}

// keyEnv returns the sorted variables of environ that name a server.
func keyEnv(environ []string) []string {
	var out []string
	for _, kv := range environ {
		for _, p := range keyPrefixes {
			if strings.HasPrefix(kv, p) {
				out = append(out, kv)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

// serverEnv is the environment a server starts with: the client's, without its git
// variables. A hook's GIT_INDEX_FILE or GIT_DIR belongs to that one commit; every request
// brings its own, and nothing the server runs (git, the go command) may see a stale one.
func serverEnv(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		if !strings.HasPrefix(kv, "GIT_") {
			out = append(out, kv)
		}
	}
	return out
}
