package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// shortDir returns a temporary directory with a short path: a socket path must fit in
// about a hundred bytes, which t.TempDir's long names can exceed.
func shortDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "avs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// serve starts a server for root with handler h on a socket in a fresh directory, and
// returns its endpoint and a channel that receives Serve's error when it returns (and is
// closed after).
func serve(t *testing.T, idle time.Duration, h Handler) (Endpoint, <-chan error) {
	t.Helper()
	if !Supported {
		t.Skip("the shared server needs a Unix system")
	}
	cache := shortDir(t)
	ep, err := Locate(cache, "/repo", os.Args[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	ep.Root = "/repo"
	ln, err := Listen(ep)
	if err != nil {
		t.Fatal(err)
	}
	srv := &Server{Root: ep.Root, Socket: ep.Socket, Idle: idle, Handler: h}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), ln); close(done) }()
	t.Cleanup(func() {
		Call(context.Background(), ep.Socket, &Request{Op: OpStop})
		<-done
	})
	return ep, done
}

func echo(ctx context.Context, req *Request) (int, []byte, []byte, error) {
	return len(req.Args), []byte(strings.Join(req.Args, " ")), req.Stdin, nil
}

func TestRunStatusStop(t *testing.T) {
	ep, done := serve(t, time.Minute, echo)
	resp, err := Call(context.Background(), ep.Socket, &Request{Op: OpRun, Args: []string{"hook", "claude"}, Dir: "/repo", Cwd: "/", Stdin: []byte("{}")})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Exit != 2 || string(resp.Stdout) != "hook claude" || string(resp.Stderr) != "{}" {
		t.Errorf("run: got exit %d, stdout %q, stderr %q", resp.Exit, resp.Stdout, resp.Stderr)
	}
	resp, err = Call(context.Background(), ep.Socket, &Request{Op: OpStatus})
	if err != nil {
		t.Fatal(err)
	}
	st := resp.Status
	if st == nil || st.PID != os.Getpid() || st.Root != "/repo" || st.Requests != 1 || st.Memory == 0 || st.Socket != ep.Socket {
		t.Errorf("status: %+v", st)
	}
	if fi, err := os.Stat(ep.Socket); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("socket mode: %v, %v; want 0600", fi.Mode(), err)
	}
	if fi, err := os.Stat(ep.Dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("socket directory mode: %v, %v; want 0700", fi.Mode(), err)
	}
	if _, err := Call(context.Background(), ep.Socket, &Request{Op: OpStop}); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve after stop: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("server still running 5s after stop")
	}
	if _, err := Call(context.Background(), ep.Socket, &Request{Op: OpStatus}); !errors.Is(err, ErrNotRunning) {
		t.Errorf("call after stop: %v, want ErrNotRunning", err)
	}
}

func TestIdleTimeoutAndRemovedSocket(t *testing.T) {
	for _, tc := range []struct {
		name  string
		idle  time.Duration
		after func(ep Endpoint)
	}{
		{"idle", 100 * time.Millisecond, func(Endpoint) {}},
		{"socket removed", time.Hour, func(ep Endpoint) { os.Remove(ep.Socket) }},
		{"directory removed", time.Hour, func(ep Endpoint) { os.RemoveAll(ep.Dir) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ep, done := serve(t, tc.idle, echo)
			tc.after(ep)
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Serve: %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("server still running after 10s")
			}
		})
	}
}

func TestErrorsAreNoAnswer(t *testing.T) {
	for _, tc := range []struct {
		name string
		h    Handler
		want string
	}{
		{"handler error", func(context.Context, *Request) (int, []byte, []byte, error) {
			return 0, nil, nil, errors.New("no checker")
		}, "no checker"},
		{"panic", func(context.Context, *Request) (int, []byte, []byte, error) { panic("boom") }, "panicked: boom at server.TestErrorsAreNoAnswer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ep, _ := serve(t, time.Minute, tc.h)
			resp, err := Call(context.Background(), ep.Socket, &Request{Op: OpRun, Args: []string{"diff"}, Dir: "/repo", Cwd: "/repo"})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %+v, %v; want an error with %q", resp, err, tc.want)
			}
		})
	}
}

func TestBadRequests(t *testing.T) {
	ep, _ := serve(t, time.Minute, echo)
	for _, msg := range []string{
		"", "not json\n", `{"version":99,"op":"status"}` + "\n", `{"version":1,"op":"rm"}` + "\n",
		`{"version":1,"op":"run","dir":"/repo","cwd":"/"}` + "\n", `{"version":1,"op":"run","args":["diff"],"cwd":"/"}` + "\n",
		`{"version":1,"op":"run","args":["diff"],"dir":".","cwd":"rel"}` + "\n",
	} {
		conn, err := net.Dial("unix", ep.Socket)
		if err != nil {
			t.Fatal(err)
		}
		conn.Write([]byte(msg))
		conn.(*net.UnixConn).CloseWrite()
		_, err = readResponse(conn)
		conn.Close()
		if err == nil {
			t.Errorf("request %q: answered, want an error", msg)
		}
	}
	if _, err := Call(context.Background(), ep.Socket, &Request{Op: OpStatus}); err != nil {
		t.Errorf("server after bad requests: %v", err)
	}
}

func TestConcurrentCalls(t *testing.T) {
	ep, _ := serve(t, time.Minute, echo)
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for i := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			arg := fmt.Sprint(i)
			resp, err := Call(context.Background(), ep.Socket, &Request{Op: OpRun, Args: []string{arg}, Dir: "/", Cwd: "/"})
			if err == nil && string(resp.Stdout) != arg {
				err = fmt.Errorf("call %d answered %q", i, resp.Stdout)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

func TestOneServerPerSocket(t *testing.T) {
	ep, _ := serve(t, time.Minute, echo)
	if ln, err := Listen(ep); !errors.Is(err, ErrRunning) {
		if ln != nil {
			ln.Close()
		}
		t.Errorf("second Listen: %v, want ErrRunning", err)
	}
}

func TestRefusedSockets(t *testing.T) {
	if !Supported {
		t.Skip("the shared server needs a Unix system")
	}
	dir := shortDir(t)
	file := filepath.Join(dir, "file.sock")
	os.WriteFile(file, nil, 0o600)
	if _, err := Call(context.Background(), file, &Request{Op: OpStatus}); err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Errorf("regular file: %v, want a refusal", err)
	}
	if os.Getuid() != 0 {
		t.Log("not root: the socket and directory of another user are not tested")
		return
	}
	ep, _ := serve(t, time.Minute, echo)
	if err := os.Chown(ep.Socket, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if _, err := Call(context.Background(), ep.Socket, &Request{Op: OpStatus}); err == nil || !strings.Contains(err.Error(), "owned by uid 65534") {
		t.Errorf("another user's socket: %v, want a refusal", err)
	}
	os.Chown(ep.Socket, 0, 0)
	other := filepath.Join(dir, "other")
	os.Mkdir(other, 0o700)
	os.Chown(other, 65534, 65534)
	if err := PrivateDir(other); err == nil || !strings.Contains(err.Error(), "owned by uid 65534") {
		t.Errorf("another user's directory: %v, want a refusal", err)
	}
}

func TestPrivateDirTightens(t *testing.T) {
	dir := filepath.Join(shortDir(t), "a", "b")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755)
	if err := PrivateDir(dir); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("mode %v, want 0700", fi.Mode().Perm())
	}
}

func TestLocate(t *testing.T) {
	exe := os.Args[0]
	base := []string{"PATH=/usr/bin:/bin", "HOME=/home/u", "GOFLAGS=-mod=mod"}
	socket := func(cache, root string, env ...string) string {
		ep, err := Locate(cache, root, exe, append(append([]string(nil), base...), env...))
		if err != nil {
			t.Fatal(err)
		}
		return ep.Socket
	}
	ref := socket("/c", "/repo")
	for _, tc := range []struct {
		name string
		got  string
		same bool
	}{
		{"a hook's session variables", socket("/c", "/repo", "CLAUDE_SESSION=1", "PWD=/x", "GIT_INDEX_FILE=/i", "AGENTVERIFY_SERVER_IDLE=1s"), true},
		{"another repository", socket("/c", "/other"), false},
		{"another GOOS", socket("/c", "/repo", "GOOS=windows"), false},
		{"another Lisp registry", socket("/c", "/repo", "CL_SOURCE_REGISTRY=/l"), false},
		{"another cache", socket("/d", "/repo"), false},
	} {
		if (tc.got == ref) != tc.same {
			t.Errorf("%s: socket %s vs %s, want same=%t", tc.name, tc.got, ref, tc.same)
		}
	}
	if !strings.HasPrefix(ref, "/c/agentverify/server/") || !strings.HasSuffix(ref, ".sock") {
		t.Errorf("socket %s, want one in /c/agentverify/server", ref)
	}
	long := "/" + strings.Repeat("x", 120)
	if s := socket(long, "/repo"); strings.HasPrefix(s, long) || len(s) > maxSocketPath {
		t.Errorf("long cache directory: socket %s", s)
	}
	if _, err := Locate("relative", "/repo", exe, nil); err == nil {
		t.Error("relative cache directory: no error")
	}
}

func FuzzReadRequest(f *testing.F) {
	f.Add([]byte(`{"version":1,"op":"run","args":["diff"],"dir":".","cwd":"/r","stdin":"e30="}`))
	f.Add([]byte(`{"version":1,"op":"status"}`))
	f.Add([]byte(`{"version":1,"op":"run","args":[],"dir":""}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		req, err := readRequest(strings.NewReader(string(b)))
		if err != nil {
			return
		}
		if req.Version != ProtocolVersion || req.Op == OpRun && (len(req.Args) == 0 || req.Dir == "" || !filepath.IsAbs(req.Cwd)) {
			t.Errorf("accepted %+v", req)
		}
	})
}

// TestServerEnvDropsGitVars: a server started by a git hook does not keep the hook's git
// variables (GIT_INDEX_FILE names that one commit's temporary index).
func TestServerEnvDropsGitVars(t *testing.T) {
	got := serverEnv([]string{"PATH=/bin", "GIT_INDEX_FILE=/r/.git/index.lock", "GIT_DIR=/r/.git", "GOFLAGS=-mod=mod", "XGIT_=1"})
	if strings.Join(got, " ") != "PATH=/bin GOFLAGS=-mod=mod XGIT_=1" {
		t.Errorf("serverEnv = %q", got)
	}
}
