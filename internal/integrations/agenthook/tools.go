package agenthook

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/agentverify/agentverify/change/editset"
	"github.com/agentverify/agentverify/internal/integrations/agenthook/codexpatch"
)

// toolInput holds the fields agents' file tools take, under every name they use. A tool
// reads the fields its kind needs; a field of the wrong JSON type is a decode error.
type toolInput struct {
	FilePath      *string  `json:"file_path"`
	Path          *string  `json:"path"`
	FilePathCamel *string  `json:"filePath"`
	Content       *string  `json:"content"`
	FileText      *string  `json:"file_text"`
	OldString     *string  `json:"old_string"`
	NewString     *string  `json:"new_string"`
	OldStr        *string  `json:"old_str"`
	NewStr        *string  `json:"new_str"`
	ReplaceAll    bool     `json:"replace_all"`
	AllowMultiple bool     `json:"allow_multiple"`
	Edits         []editOp `json:"edits"`
	Command       *string  `json:"command"`
	InsertLine    *int     `json:"insert_line"`
	Input         *string  `json:"input"`
	Patch         *string  `json:"patch"`
	// OpenCode's and Cline's spellings.
	OldStringCamel  *string `json:"oldString"`
	NewStringCamel  *string `json:"newString"`
	ReplaceAllCamel bool    `json:"replaceAll"`
	PatchText       *string `json:"patchText"`
	OldText         *string `json:"old_text"`
	NewText         *string `json:"new_text"`
	Diff            *string `json:"diff"`
}

// editOp is one replacement of a multi-edit tool.
type editOp struct {
	OldString  *string `json:"old_string"`
	NewString  *string `json:"new_string"`
	ReplaceAll bool    `json:"replace_all"`
}

// path returns the file the tool names, whichever field names it.
func (in *toolInput) path() string {
	for _, p := range []*string{in.FilePath, in.Path, in.FilePathCamel} {
		if p != nil && *p != "" {
			return *p
		}
	}
	return ""
}

func first(ps ...*string) *string {
	for _, p := range ps {
		if p != nil {
			return p
		}
	}
	return nil
}

// toolKind is how a file tool computes the file it writes.
type toolKind func(dir, tool string, in *toolInput) ([]editset.Edit, error)

// decodeTool decodes raw as a tool input and applies kind.
func decodeTool(dir, tool string, raw json.RawMessage, kind toolKind) ([]editset.Edit, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, fmt.Errorf("%s: no tool input", tool)
	}
	var in toolInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, fmt.Errorf("%s: bad tool_input: %v", tool, err)
	}
	return kind(dir, tool, &in)
}

// writeTool writes the whole file: Write, write_file, Create, create.
func writeTool(dir, tool string, in *toolInput) ([]editset.Edit, error) {
	path, err := resolve(dir, in.path(), tool)
	if err != nil {
		return nil, err
	}
	content := first(in.Content, in.FileText)
	if content == nil {
		return nil, fmt.Errorf("%s: tool_input has no content", tool)
	}
	return one(path, *content), nil
}

// editTool replaces one string: Edit, edit, replace.
func editTool(dir, tool string, in *toolInput) ([]editset.Edit, error) {
	path, err := resolve(dir, in.path(), tool)
	if err != nil {
		return nil, err
	}
	oldS, newS := first(in.OldString, in.OldStr), first(in.NewString, in.NewStr)
	if oldS == nil || newS == nil {
		return nil, fmt.Errorf("edit 1: old_string and new_string are required")
	}
	return applyFile(path, []stringEdit{{Old: *oldS, New: *newS, All: in.ReplaceAll || in.AllowMultiple}})
}

// multiEditTool applies several replacements in order: MultiEdit.
func multiEditTool(dir, tool string, in *toolInput) ([]editset.Edit, error) {
	path, err := resolve(dir, in.path(), tool)
	if err != nil {
		return nil, err
	}
	if len(in.Edits) == 0 {
		return nil, fmt.Errorf("%s: tool_input has no edits", tool)
	}
	edits := make([]stringEdit, len(in.Edits))
	for i, op := range in.Edits {
		if op.OldString == nil || op.NewString == nil {
			return nil, fmt.Errorf("edit %d: old_string and new_string are required", i+1)
		}
		edits[i] = stringEdit{Old: *op.OldString, New: *op.NewString, All: op.ReplaceAll}
	}
	return applyFile(path, edits)
}

// applyFile reads path and applies edits as Claude Code does.
func applyFile(path string, edits []stringEdit) ([]editset.Edit, error) {
	s, exists, err := current(path)
	if err != nil {
		return nil, err
	}
	out, err := applyExact(path, s, exists, edits)
	if err != nil {
		return nil, err
	}
	return one(path, out), nil
}

// editorTool is the command-style editor of Anthropic's text editor tool, which Kiro's
// fs_write and OpenHands' str_replace_editor follow: create (file_text), str_replace
// (old_str exactly once), insert (new_str after line insert_line, 0 for the top) and
// append (new_str at the end). view and undo_edit write nothing.
func editorTool(dir, tool string, in *toolInput) ([]editset.Edit, error) {
	if in.Command == nil {
		return nil, fmt.Errorf("%s: tool_input has no command", tool)
	}
	switch *in.Command {
	case "view", "undo_edit":
		return nil, ErrNotEdit
	case "create":
		return writeTool(dir, tool, in)
	case "str_replace":
		newS := in.NewStr
		if newS == nil {
			newS = new(string)
		}
		return editTool(dir, tool, &toolInput{FilePath: in.FilePath, Path: in.Path, OldStr: in.OldStr, NewStr: newS})
	case "insert", "append":
		return insertTool(dir, tool, in)
	}
	return nil, fmt.Errorf("%s: unknown command %q", tool, *in.Command)
}

// insertTool inserts new_str after line insert_line (insert) or at the end (append).
func insertTool(dir, tool string, in *toolInput) ([]editset.Edit, error) {
	path, err := resolve(dir, in.path(), tool)
	if err != nil {
		return nil, err
	}
	if in.NewStr == nil {
		return nil, fmt.Errorf("%s: %s needs new_str", tool, *in.Command)
	}
	s, err := readExisting(path)
	if err != nil {
		return nil, err
	}
	if *in.Command == "append" {
		if s != "" && !strings.HasSuffix(s, "\n") {
			s += "\n"
		}
		return one(path, s+*in.NewStr), nil
	}
	if in.InsertLine == nil {
		return nil, fmt.Errorf("%s: insert needs insert_line", tool)
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	n := *in.InsertLine
	if n < 0 || n > len(lines) {
		return nil, fmt.Errorf("%s: insert_line %d is outside the file's %d lines", tool, n, len(lines))
	}
	text := *in.NewStr
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return one(path, strings.Join(lines[:n], "")+text+strings.Join(lines[n:], "")), nil
}

// patchTool applies a Codex-format patch from whichever field carries it.
func patchTool(dir, tool string, in *toolInput) ([]editset.Edit, error) {
	text := first(in.Command, in.Input, in.Patch, in.PatchText)
	if text == nil {
		return nil, fmt.Errorf("%s: tool_input has no patch", tool)
	}
	return applyPatch(dir, *text)
}

// applyPatch applies a Codex-format patch to the files under dir, as the agent would.
func applyPatch(dir, text string) ([]editset.Edit, error) {
	p, err := codexpatch.Parse(text)
	if err != nil {
		return nil, err
	}
	if dir == "" {
		return nil, errors.New("apply_patch: no working directory in the payload to resolve the patch's paths")
	}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		return filepath.Join(dir, p)
	}
	changes, err := codexpatch.Apply(p, func(p string) ([]byte, error) {
		s, ok, err := current(abs(p))
		if err == nil && !ok {
			return nil, fmt.Errorf("%s: %w", p, fs.ErrNotExist)
		}
		return []byte(s), err
	})
	if err != nil {
		return nil, err
	}
	edits := make([]editset.Edit, len(changes))
	for i, c := range changes {
		edits[i] = editset.Edit{Path: abs(c.Path), Content: c.Content, Delete: c.Delete}
	}
	return edits, nil
}

func one(path, content string) []editset.Edit {
	return []editset.Edit{{Path: path, Content: []byte(content)}}
}
