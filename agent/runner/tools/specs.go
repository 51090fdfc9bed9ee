package tools

import (
	"encoding/json"
	"slices"

	"github.com/agentverify/agentverify/agent/core"
	"github.com/agentverify/agentverify/agent/llm"
)

// Tool names, exactly as the model sees them.
const (
	ReadFile   = "read_file"
	ListFiles  = "list_files"
	WriteFile  = "write_file"
	EditFile   = "edit_file"
	RunCommand = "run_command"
	Verify     = "verify"
	Finish     = "finish"
)

// Capabilities the loop guard checks (INV-012), one per kind of effect.
const (
	CapRead  = "fs.read"
	CapWrite = "fs.write"
	CapExec  = "exec"
)

// Spec is one tool: what the decision logic knows about it and what the model is
// told.
type Spec struct {
	core.ToolSpec
	Description string
	Parameters  json.RawMessage // JSON Schema of the arguments
}

var specs = []Spec{
	{core.ToolSpec{Name: ReadFile, Access: core.AccessRead, Capability: CapRead},
		"Read a file. The path is relative to the working directory.",
		json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"file path relative to the working directory"}},"required":["path"],"additionalProperties":false}`)},
	{core.ToolSpec{Name: ListFiles, Access: core.AccessRead, Capability: CapRead},
		"List the files under a directory, recursively (\".\" is the working directory).",
		json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"directory path relative to the working directory"}},"required":["path"],"additionalProperties":false}`)},
	{core.ToolSpec{Name: WriteFile, Access: core.AccessWrite, Capability: CapWrite},
		"Create or replace a file with the given content. The change is verified first; if verification fails nothing is written and the violations are listed.",
		json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"file path relative to the working directory"},"content":{"type":"string","description":"the complete new content of the file"}},"required":["path","content"],"additionalProperties":false}`)},
	{core.ToolSpec{Name: EditFile, Access: core.AccessWrite, Capability: CapWrite},
		"Replace the one occurrence of old_string in a file by new_string. old_string must occur exactly once. The change is verified first; if verification fails nothing is written.",
		json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"file path relative to the working directory"},"old_string":{"type":"string","description":"text to replace; must occur exactly once in the file"},"new_string":{"type":"string","description":"replacement text"}},"required":["path","old_string","new_string"],"additionalProperties":false}`)},
	{core.ToolSpec{Name: RunCommand, RequiresExecute: true, Capability: CapExec},
		"Run a shell command (sh -c) in the working directory and return its combined output and exit status. It is killed at the timeout.",
		json.RawMessage(`{"type":"object","properties":{"command":{"type":"string","description":"the command line, run with sh -c"},"timeout_seconds":{"type":"integer","minimum":1,"maximum":600,"description":"kill the command after this many seconds (default 60)"}},"required":["command"],"additionalProperties":false}`)},
	{core.ToolSpec{Name: Verify, Access: core.AccessRead, Capability: CapRead},
		"Verify everything changed since the run started and list the violations.",
		json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)},
	{core.ToolSpec{Name: Finish, Access: core.AccessNone},
		"Finish the task with a final answer for the user.",
		json.RawMessage(`{"type":"object","properties":{"answer":{"type":"string","description":"the final answer"}},"required":["answer"],"additionalProperties":false}`)},
}

// Specs returns every tool, in the order of the table.
func Specs() []Spec { return slices.Clone(specs) }

// Core returns the tools as the decision logic knows them.
func Core() core.Tools {
	out := make(core.Tools, len(specs))
	for i, s := range specs {
		out[i] = s.ToolSpec
	}
	return out
}

// Capabilities maps each tool to the capability the guard checks.
func Capabilities() map[string]string {
	m := map[string]string{}
	for _, s := range specs {
		if s.Capability != "" {
			m[s.Name] = s.Capability
		}
	}
	return m
}

// Definitions returns the chat-completions tool definitions of the named tools,
// in table order.
func Definitions(names []string) []llm.Tool {
	var out []llm.Tool
	for _, s := range specs {
		if slices.Contains(names, s.Name) {
			out = append(out, llm.Tool{Type: "function", Function: llm.FunctionDef{
				Name: s.Name, Description: s.Description, Parameters: s.Parameters}})
		}
	}
	return out
}
