package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// Command timeouts: the default when the model gives none, and the most it may ask for.
const (
	DefaultCommandTimeout = 60 * time.Second
	MaxCommandTimeout     = 600 * time.Second
)

// runCommand runs the command with sh -c in the box's directory, in its own process
// group so that the timeout kills whatever it started.
func (b *Box) runCommand(ctx context.Context, args string) Result {
	var a struct {
		Command        string   `json:"command"`
		TimeoutSeconds *float64 `json:"timeout_seconds"`
	}
	if err := decode(args, &a, "command"); err != nil {
		return fail(err.Error())
	}
	if strings.TrimSpace(a.Command) == "" {
		return fail("command is empty")
	}
	timeout := DefaultCommandTimeout
	if a.TimeoutSeconds != nil {
		if *a.TimeoutSeconds <= 0 {
			return fail("timeout_seconds must be positive")
		}
		timeout = min(time.Duration(*a.TimeoutSeconds*float64(time.Second)), MaxCommandTimeout)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", a.Command)
	cmd.Dir = b.dir
	cmd.Env = b.Env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	status := "exit status 0"
	failed := false
	var ee *exec.ExitError
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		status, failed = fmt.Sprintf("killed after %s (timeout)", timeout), true
	case errors.As(err, &ee):
		status, failed = fmt.Sprintf("exit status %d", ee.ExitCode()), true
	case err != nil:
		status, failed = "error: "+err.Error(), true
	}
	return Result{Observation: fmt.Sprintf("%s\n[%s]", strings.TrimRight(out.String(), "\n"), status), Failed: failed}
}
