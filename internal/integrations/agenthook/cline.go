package agenthook

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agentverify/agentverify/change/editset"
)

// clineCodec is Cline's PreToolUse hook (an executable .clinerules/hooks/PreToolUse that
// runs the gate). Cline runs it for every tool and passes every parameter as a string.
// The answer is always JSON: cancel, the reason as errorMessage and, so the model reads
// it on its next request, as contextModification.
type clineCodec struct{}

type clineInput struct {
	HookName       string   `json:"hookName"`
	WorkspaceRoots []string `json:"workspaceRoots"`
	PreToolUse     *struct {
		ToolName   string            `json:"toolName"`
		Parameters map[string]string `json:"parameters"`
	} `json:"preToolUse"`
}

// Decode reads a PreToolUse payload.
func (clineCodec) Decode(data []byte) (Proposal, error) {
	var in clineInput
	if err := strictUnmarshal(data, &in); err != nil {
		return Proposal{}, fmt.Errorf("could not parse the PreToolUse input: %v", err)
	}
	if in.HookName != "PreToolUse" || in.PreToolUse == nil {
		return Proposal{}, fmt.Errorf("hook cline handles PreToolUse, not %q", in.HookName)
	}
	dir := ""
	if len(in.WorkspaceRoots) > 0 {
		dir = in.WorkspaceRoots[0]
	}
	edits, err := clineTool(dir, in.PreToolUse.ToolName, in.PreToolUse.Parameters)
	return Proposal{Dir: dir, Edits: edits}, err
}

// clineTool computes the files one of Cline's tools writes.
func clineTool(dir, tool string, params map[string]string) ([]editset.Edit, error) {
	str := func(k string) *string {
		if v, ok := params[k]; ok {
			return &v
		}
		return nil
	}
	in := &toolInput{Path: str("path"), Content: str("content"), Diff: str("diff"), OldText: str("old_text"), NewText: str("new_text"), Input: str("input")}
	switch tool {
	case "write_to_file":
		return writeTool(dir, tool, in)
	case "replace_in_file":
		return replaceInFileTool(dir, tool, in)
	case "editor":
		return clineEditor(dir, tool, in, str("insert_line"))
	case "apply_patch":
		return patchTool(dir, tool, in)
	}
	return nil, ErrNotEdit
}

// replaceInFileTool applies SEARCH/REPLACE blocks.
func replaceInFileTool(dir, tool string, in *toolInput) ([]editset.Edit, error) {
	path, err := resolve(dir, in.path(), tool)
	if err != nil {
		return nil, err
	}
	if in.Diff == nil {
		return nil, fmt.Errorf("%s: no diff", tool)
	}
	s, exists, err := current(path)
	if err != nil {
		return nil, err
	}
	if !exists {
		return nil, fmt.Errorf("%s: file does not exist", path)
	}
	out, err := searchReplace(s, *in.Diff)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return one(path, out), nil
}

// clineEditor is the editor tool of Cline's SDK: insert_line inserts before that
// one-based line; without it a missing file is created with new_text, and an existing
// one gets old_text (exactly once) replaced. Text takes the file's line breaks.
func clineEditor(dir, tool string, in *toolInput, insertLine *string) ([]editset.Edit, error) {
	path, err := resolve(dir, in.path(), tool)
	if err != nil {
		return nil, err
	}
	newText := ""
	if in.NewText != nil {
		newText = *in.NewText
	}
	s, exists, err := current(path)
	switch {
	case err != nil:
		return nil, err
	case insertLine != nil:
		return clineInsert(path, s, exists, *insertLine, newText)
	case !exists:
		return one(path, newText), nil
	case in.OldText == nil:
		return nil, fmt.Errorf("%s: old_text is required when editing an existing file without insert_line", tool)
	}
	eol := lineEnding(s)
	if strings.Contains(s, "\r\n") {
		eol = "\r\n"
	}
	oldS, newS := withEnding(lf(*in.OldText), eol), withEnding(lf(newText), eol)
	switch n := strings.Count(s, oldS); {
	case oldS == "" || n == 0:
		return nil, fmt.Errorf("no replacement performed: text not found in %s", path)
	case n > 1:
		return nil, fmt.Errorf("no replacement performed: multiple occurrences of text found in %s", path)
	}
	return one(path, strings.Replace(s, oldS, newS, 1)), nil
}

func clineInsert(path, s string, exists bool, line, text string) ([]editset.Edit, error) {
	if !exists {
		return nil, fmt.Errorf("%s: file does not exist", path)
	}
	n, err := strconv.Atoi(strings.TrimSpace(line))
	eol := "\n"
	if strings.Contains(s, "\r\n") {
		eol = "\r\n"
	}
	lines := strings.Split(lf(s), "\n")
	if err != nil || n < 1 || n > len(lines)+1 {
		return nil, fmt.Errorf("invalid insert_line: %s; it must be a one-based line in the range 1-%d", line, len(lines)+1)
	}
	lines = append(lines[:n-1], append(strings.Split(lf(text), "\n"), lines[n-1:]...)...)
	return one(path, strings.Join(lines, eol)), nil
}

// SEARCH/REPLACE block markers (both spellings Cline accepts).
func isSearch(l string) bool  { return l == "------- SEARCH" || l == "<<<<<<< SEARCH" }
func isDivider(l string) bool { return l == "=======" }
func isReplace(l string) bool { return l == "+++++++ REPLACE" || l == ">>>>>>> REPLACE" }

type searchBlock struct{ search, replace string }

// parseBlocks reads the SEARCH/REPLACE blocks of a replace_in_file diff.
func parseBlocks(diff string) ([]searchBlock, error) {
	var blocks []searchBlock
	var cur *searchBlock
	var b strings.Builder
	state := 0 // 0 outside, 1 search, 2 replace
	for _, l := range strings.Split(lf(diff), "\n") {
		switch {
		case state == 0 && isSearch(strings.TrimSpace(l)):
			cur, state = &searchBlock{}, 1
			b.Reset()
		case state == 1 && isDivider(strings.TrimSpace(l)):
			cur.search, state = b.String(), 2
			b.Reset()
		case state == 2 && isReplace(strings.TrimSpace(l)):
			cur.replace, state = b.String(), 0
			blocks = append(blocks, *cur)
		case state != 0:
			b.WriteString(l + "\n")
		}
	}
	if state != 0 {
		return nil, fmt.Errorf("the diff has an unterminated SEARCH/REPLACE block")
	}
	if len(blocks) == 0 {
		return nil, fmt.Errorf("the diff has no SEARCH/REPLACE block")
	}
	return blocks, nil
}

// searchReplace applies SEARCH/REPLACE blocks as Cline's replace_in_file does: each block
// found after the previous one, exactly or else with each line's surrounding whitespace
// ignored; an empty SEARCH replaces the whole file. A block that matches nothing refuses
// the whole edit.
func searchReplace(content, diff string) (string, error) {
	blocks, err := parseBlocks(diff)
	if err != nil {
		return "", err
	}
	var out strings.Builder
	at := 0
	for i, bl := range blocks {
		if bl.search == "" {
			if len(blocks) == 1 {
				return bl.replace, nil
			}
			return "", fmt.Errorf("block %d: an empty SEARCH replaces the whole file and must be the only block", i+1)
		}
		start, end, ok := -1, -1, false
		if j := strings.Index(content[at:], bl.search); j >= 0 {
			start, end, ok = at+j, at+j+len(bl.search), true
		} else {
			start, end, ok = lineTrimmedMatch(content, bl.search, at)
		}
		if !ok {
			return "", fmt.Errorf("block %d: the SEARCH block does not match anything in the file (after the previous block)", i+1)
		}
		out.WriteString(content[at:start])
		out.WriteString(bl.replace)
		at = end
	}
	out.WriteString(content[at:])
	return out.String(), nil
}

// Encode answers as Cline reads it.
func (clineCodec) Encode(v Verdict) Result {
	type output struct {
		Cancel              bool   `json:"cancel"`
		ContextModification string `json:"contextModification,omitempty"`
		ErrorMessage        string `json:"errorMessage,omitempty"`
	}
	switch v.Kind {
	case Deny:
		r := Clip(nonEmpty(v.Reason))
		return Result{Stdout: jsonLine(output{Cancel: true, ErrorMessage: r, ContextModification: r})}
	case Warn:
		return Result{Stdout: jsonLine(output{ContextModification: Clip(v.Reason)})}
	}
	return Result{Stdout: jsonLine(output{})}
}
