package agenthook

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentverify/agentverify/change/editset"
)

// opencodeCodec is the protocol between agentverify's OpenCode plugin
// (.opencode/plugins/agentverify.ts, written by init --agent opencode) and the gate: on
// tool.execute.before the plugin sends {"tool", "args", "cwd"}, and throws — which
// OpenCode reports to the model as the tool's error — unless the answer is
// {"decision":"allow"} with exit 0.
type opencodeCodec struct{}

type opencodeInput struct {
	Tool string          `json:"tool"`
	Args json.RawMessage `json:"args"`
	Cwd  string          `json:"cwd"`
}

// Decode reads the plugin's payload.
func (opencodeCodec) Decode(data []byte) (Proposal, error) {
	var in opencodeInput
	if err := strictUnmarshal(data, &in); err != nil {
		return Proposal{}, fmt.Errorf("could not parse the plugin's input: %v", err)
	}
	var kind toolKind
	switch in.Tool {
	case "write":
		kind = writeTool
	case "edit":
		kind = opencodeEdit
	case "apply_patch", "patch":
		kind = patchTool
	case "":
		return Proposal{}, errNoTool
	default:
		return Proposal{}, ErrNotEdit
	}
	edits, err := decodeTool(in.Cwd, in.Tool, in.Args, kind)
	return Proposal{Dir: in.Cwd, Edits: edits}, err
}

// opencodeEdit is OpenCode's edit tool: an empty oldString writes newString as the whole
// file; otherwise oldString (exactly once unless replaceAll), or else the same lines with
// surrounding whitespace ignored. OpenCode's further guesses (anchors, escapes,
// indentation) are not made: such an edit is denied and the model retries exactly.
func opencodeEdit(dir, tool string, in *toolInput) ([]editset.Edit, error) {
	path, err := resolve(dir, in.path(), tool)
	if err != nil {
		return nil, err
	}
	if in.OldStringCamel == nil || in.NewStringCamel == nil {
		return nil, fmt.Errorf("%s: oldString and newString are required", tool)
	}
	oldS, newS := *in.OldStringCamel, *in.NewStringCamel
	if oldS == newS {
		return nil, fmt.Errorf("%s: oldString and newString must be different", tool)
	}
	if oldS == "" {
		return one(path, newS), nil
	}
	s, err := readExisting(path)
	if err != nil {
		return nil, err
	}
	switch n := strings.Count(s, oldS); {
	case n == 1 || n > 1 && in.ReplaceAllCamel:
		if in.ReplaceAllCamel {
			return one(path, strings.ReplaceAll(s, oldS, newS)), nil
		}
		return one(path, strings.Replace(s, oldS, newS, 1)), nil
	case n > 1:
		return nil, fmt.Errorf("%s: found multiple matches for oldString; provide more context or set replaceAll", path)
	}
	start, end, ok := lineTrimmedMatch(s, oldS, 0)
	if !ok {
		return nil, fmt.Errorf("%s: %w (oldString not found; use the file's exact text)", path, errNoMatch)
	}
	return one(path, s[:start]+newS+s[end:]), nil
}

type opencodeOutput struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason,omitempty"`
}

// Encode answers the plugin: exit 2 and a reason on a deny.
func (opencodeCodec) Encode(v Verdict) Result {
	switch v.Kind {
	case Deny:
		r := Clip(nonEmpty(v.Reason))
		return Result{Stdout: jsonLine(opencodeOutput{Decision: "deny", Reason: r}), Stderr: r, Exit: 2}
	case Warn:
		return Result{Stdout: jsonLine(opencodeOutput{Decision: "allow", Reason: Clip(v.Reason)})}
	}
	return Result{Stdout: jsonLine(opencodeOutput{Decision: "allow"})}
}
