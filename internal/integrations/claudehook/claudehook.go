// Package claudehook implements Claude Code's PreToolUse hook: it reads the hook's JSON
// payload, builds the whole post-edit file in memory for Write, Edit and MultiEdit, has it
// verified, and answers allow or deny. It fails closed: unreadable input, an unknown tool,
// a malformed tool input or an internal error all deny the edit.
package claudehook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentverify/agentverify/change/editset"
	"github.com/agentverify/agentverify/change/regular"
	"github.com/agentverify/agentverify/report"
)

// MaxReason bounds the deny reason shown to the model (Claude Code truncates long ones).
const MaxReason = 10000

// maxInput bounds the payload read from stdin.
const maxInput = 64 << 20

// Input is the PreToolUse payload (the fields used here).
type Input struct {
	HookEventName string          `json:"hook_event_name"`
	ToolName      string          `json:"tool_name"`
	ToolInput     json.RawMessage `json:"tool_input"`
	Cwd           string          `json:"cwd"`
}

type writeInput struct {
	FilePath *string `json:"file_path"`
	Content  *string `json:"content"`
}

type editOp struct {
	OldString  *string `json:"old_string"`
	NewString  *string `json:"new_string"`
	ReplaceAll bool    `json:"replace_all"`
}

type editInput struct {
	FilePath *string `json:"file_path"`
	editOp
}

type multiEditInput struct {
	FilePath *string  `json:"file_path"`
	Edits    []editOp `json:"edits"`
}

// Output is what the hook prints on stdout.
type Output struct {
	HookSpecificOutput HookSpecificOutput `json:"hookSpecificOutput"`
}

// HookSpecificOutput carries the permission decision.
type HookSpecificOutput struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	AdditionalContext        string `json:"additionalContext,omitempty"`
}

// Verify checks proposed edits in the repository containing dir.
type Verify func(ctx context.Context, dir string, edits []editset.Edit) (*report.Report, error)

// Result is the hook's answer: what to print and the exit code (0 allow, 2 deny).
type Result struct {
	Stdout []byte
	Stderr string
	Exit   int
}

// Run reads one payload from r and decides.
func Run(ctx context.Context, r io.Reader, verify Verify) Result {
	data, err := io.ReadAll(io.LimitReader(r, maxInput+1))
	if err != nil {
		return deny("agentverify could not read the hook input: " + err.Error())
	}
	if len(data) > maxInput {
		return deny("agentverify: hook input larger than 64 MiB")
	}
	var in Input
	if err := strictUnmarshal(data, &in); err != nil {
		return deny("agentverify could not parse the PreToolUse input: " + err.Error())
	}
	if in.HookEventName != "" && in.HookEventName != "PreToolUse" {
		return deny(fmt.Sprintf("agentverify hook claude handles PreToolUse, not %s", in.HookEventName))
	}
	path, content, err := PostEdit(in)
	if err != nil {
		return deny("agentverify: " + err.Error())
	}
	rep, err := verify(ctx, in.Cwd, []editset.Edit{{Path: path, Content: content}})
	if err != nil {
		return deny("agentverify could not verify the edit: " + err.Error())
	}
	text := summary(rep)
	switch rep.Status {
	case report.Errored: // fail closed, with what the user must fix
		res := deny("agentverify could not verify this edit, so it is denied: " + report.Escape(rep.Error) + "\n" + text)
		res.Stderr = "agentverify: could not verify: " + report.Escape(rep.Error)
		return res
	case report.Failed:
		res := deny("agentverify rejected this edit; fix these and try again:\n" + text)
		res.Stderr = text
		return res
	case report.Warnings:
		out := Output{HookSpecificOutput{HookEventName: "PreToolUse", AdditionalContext: clip("agentverify warnings for this edit:\n" + text)}}
		b, _ := json.Marshal(out)
		return Result{Stdout: append(b, '\n'), Exit: 0}
	case report.Passed:
		return Result{Exit: 0}
	}
	return deny(fmt.Sprintf("agentverify: unknown verdict %q", rep.Status))
}

// strictUnmarshal decodes one JSON value and rejects trailing data.
func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}

// PostEdit returns the absolute path the tool writes and the whole file as it will be after
// the tool runs.
func PostEdit(in Input) (path string, content []byte, err error) {
	if len(in.ToolInput) == 0 || string(in.ToolInput) == "null" {
		return "", nil, fmt.Errorf("%s: no tool_input", in.ToolName)
	}
	decode := func(v any) error {
		if err := json.Unmarshal(in.ToolInput, v); err != nil {
			return fmt.Errorf("%s: bad tool_input: %v", in.ToolName, err)
		}
		return nil
	}
	switch in.ToolName {
	case "Write":
		var w writeInput
		if err := decode(&w); err != nil {
			return "", nil, err
		}
		if path, err = in.resolve(w.FilePath); err != nil {
			return "", nil, err
		}
		if w.Content == nil {
			return "", nil, errors.New("Write: tool_input has no content")
		}
		return path, []byte(*w.Content), nil
	case "Edit":
		var e editInput
		if err := decode(&e); err != nil {
			return "", nil, err
		}
		if path, err = in.resolve(e.FilePath); err != nil {
			return "", nil, err
		}
		content, err := applyEdits(path, []editOp{e.editOp})
		return path, content, err
	case "MultiEdit":
		var m multiEditInput
		if err := decode(&m); err != nil {
			return "", nil, err
		}
		if path, err = in.resolve(m.FilePath); err != nil {
			return "", nil, err
		}
		if len(m.Edits) == 0 {
			return "", nil, errors.New("MultiEdit: tool_input has no edits")
		}
		content, err := applyEdits(path, m.Edits)
		return path, content, err
	}
	return "", nil, fmt.Errorf("agentverify hook claude verifies Write, Edit and MultiEdit; got tool %q (set the hook's matcher to \"Write|Edit|MultiEdit\")", in.ToolName)
}

// resolve makes a tool's file_path absolute, relative paths against the hook's cwd.
func (in Input) resolve(p *string) (string, error) {
	switch {
	case p == nil || *p == "":
		return "", fmt.Errorf("%s: tool_input has no file_path", in.ToolName)
	case filepath.IsAbs(*p):
		return filepath.Clean(*p), nil
	case in.Cwd == "":
		return "", fmt.Errorf("%s: relative file_path %q and no cwd", in.ToolName, *p)
	}
	return filepath.Join(in.Cwd, *p), nil
}

// applyEdits applies string replacements as Claude Code does: each old_string must occur
// exactly once unless replace_all is set; an empty old_string on a missing file creates it.
// The file is read without blocking and only when it is a regular file: a named pipe at
// file_path denies the edit instead of hanging the hook.
func applyEdits(path string, ops []editOp) ([]byte, error) {
	data, size, err := regular.ReadFile(path, maxInput)
	missing := errors.Is(err, os.ErrNotExist)
	switch {
	case err != nil && !missing:
		return nil, err
	case data == nil && !missing:
		return nil, fmt.Errorf("%s: %d bytes, too large to edit through the hook (limit 64 MiB)", path, size)
	}
	s := string(data)
	for i, op := range ops {
		if op.OldString == nil || op.NewString == nil {
			return nil, fmt.Errorf("edit %d: old_string and new_string are required", i+1)
		}
		if *op.OldString == "" {
			if i == 0 && missing {
				s, missing = *op.NewString, false
				continue
			}
			return nil, fmt.Errorf("edit %d: empty old_string on an existing file", i+1)
		}
		if missing {
			return nil, fmt.Errorf("%s: file does not exist", path)
		}
		if s, err = replace(s, path, i+1, op); err != nil {
			return nil, err
		}
	}
	return []byte(s), nil
}

// replace applies edit n, op, to s, the content of path.
func replace(s, path string, n int, op editOp) (string, error) {
	old, repl := *op.OldString, *op.NewString
	if old == repl {
		return "", fmt.Errorf("edit %d: old_string and new_string are the same", n)
	}
	switch count := strings.Count(s, old); {
	case count == 0:
		return "", fmt.Errorf("edit %d: old_string not found in %s", n, path)
	case count > 1 && !op.ReplaceAll:
		return "", fmt.Errorf("edit %d: old_string occurs %d times in %s; give more context or set replace_all", n, count, path)
	case op.ReplaceAll:
		return strings.ReplaceAll(s, old, repl), nil
	}
	return strings.Replace(s, old, repl, 1), nil
}

func deny(reason string) Result {
	out := Output{HookSpecificOutput{HookEventName: "PreToolUse", PermissionDecision: "deny", PermissionDecisionReason: clip(reason)}}
	b, _ := json.Marshal(out)
	return Result{Stdout: append(b, '\n'), Stderr: reason, Exit: 2}
}

// clip keeps a reason under MaxReason bytes without splitting a UTF-8 sequence.
func clip(s string) string {
	if len(s) <= MaxReason {
		return s
	}
	const marker = "\n… (truncated)"
	cut := MaxReason - len(marker)
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + marker
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// summary lists the violations one per line, as the model needs them to repair the edit.
func summary(rep *report.Report) string {
	var b strings.Builder
	for _, v := range rep.Violations {
		b.WriteString(v.ModelLine() + "\n")
	}
	return b.String()
}
