package agenthook

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/agentverify/agentverify/change/editset"
)

// geminiCodec is Gemini CLI's BeforeTool hook for write_file and replace. A deny is exit 2
// with the reason on stderr, which Gemini CLI sends to the model as the tool's error; the
// turn goes on. Warnings go to the user as a systemMessage.
type geminiCodec struct{ claudeCodec }

// gemini decodes as Claude Code's protocol with Gemini CLI's event and tools.
var gemini = geminiCodec{claudeCodec{agent: "gemini", event: "BeforeTool", names: "write_file and replace", matcher: "write_file|replace", tools: map[string]toolKind{
	"write_file": writeTool, "replace": geminiReplaceTool,
}}}

// Encode answers as Gemini CLI reads it.
func (geminiCodec) Encode(v Verdict) Result {
	switch v.Kind {
	case Deny:
		return Result{Stderr: nonEmpty(Clip(v.Reason)), Exit: 2}
	case Warn:
		return Result{Stdout: jsonLine(map[string]string{"systemMessage": Clip(v.Reason)})}
	}
	return Result{Stdout: []byte("{}\n")}
}

// geminiReplaceTool is Gemini CLI's replace (packages/core/src/tools/edit.ts): the file's
// line breaks read as LF; an empty old_string creates a missing file and is refused on an
// existing one; otherwise the exact string (all occurrences, which must be one unless
// allow_multiple), then the same lines with whitespace trimmed (re-indented), then the
// same tokens with any whitespace between them. Gemini CLI's last resorts — a fuzzy match
// and asking a model to correct the edit — are guesses the hook does not make: such an
// edit is denied with the reason, and the model retries with the file's exact text.
func geminiReplaceTool(dir, tool string, in *toolInput) ([]editset.Edit, error) {
	path, err := resolve(dir, in.path(), tool)
	if err != nil {
		return nil, err
	}
	if in.OldString == nil || in.NewString == nil {
		return nil, fmt.Errorf("%s: old_string and new_string are required", tool)
	}
	raw, exists, err := current(path)
	if err != nil {
		return nil, err
	}
	oldS, newS := lf(*in.OldString), lf(*in.NewString)
	switch {
	case oldS == "" && !exists:
		return one(path, *in.NewString), nil
	case !exists:
		return nil, fmt.Errorf("%s: file not found; use an empty old_string to create a new file", path)
	case oldS == "":
		return nil, fmt.Errorf("%s: file already exists, cannot create it with an empty old_string", path)
	}
	eol := lineEnding(raw)
	out, err := geminiReplace(lf(raw), oldS, newS, in.AllowMultiple)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return one(path, withEnding(out, eol)), nil
}

func lf(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

// geminiReplace applies the exact, flexible and regex strategies in Gemini CLI's order.
func geminiReplace(content, oldS, newS string, multiple bool) (string, error) {
	for _, strategy := range []func(content, oldS, newS string, multiple bool) (string, int){
		geminiExact, geminiFlexible, geminiRegex,
	} {
		out, n := strategy(content, oldS, newS, multiple)
		switch {
		case n == 0:
			continue
		case n > 1 && !multiple:
			return "", fmt.Errorf("expected 1 occurrence but found %d for old_string; set allow_multiple to replace them all", n)
		}
		return restoreTrailingNewline(content, out), nil
	}
	return "", fmt.Errorf("%w: 0 occurrences found for old_string; Gemini CLI would guess (a fuzzy match, a model's correction), which agentverify does not verify — use the file's exact text", errNoMatch)
}

func geminiExact(content, oldS, newS string, _ bool) (string, int) {
	n := strings.Count(content, oldS)
	return strings.ReplaceAll(content, oldS, newS), n
}

// geminiFlexible matches whole lines with leading and trailing whitespace ignored and
// re-indents the replacement to the first matched line.
func geminiFlexible(content, oldS, newS string, _ bool) (string, int) {
	src := strings.SplitAfter(content, "\n")
	if src[len(src)-1] == "" {
		src = src[:len(src)-1]
	}
	search := strings.Split(oldS, "\n")
	for i := range search {
		search[i] = strings.TrimSpace(search[i])
	}
	repl := strings.Split(newS, "\n")
	n := 0
	for i := 0; i+len(search) <= len(src); i++ {
		if !trimmedEqual(src[i:i+len(search)], search) {
			continue
		}
		n++
		text := strings.Join(reindent(repl, indentOf(src[i])), "\n")
		if newS != "" && strings.HasSuffix(src[i+len(search)-1], "\n") && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		src = append(src[:i], append([]string{text}, src[i+len(search):]...)...)
	}
	return strings.Join(src, ""), n
}

// geminiRegex matches the old string's tokens with any whitespace between them, at the
// start of a line, and replaces the first match (every match with multiple).
func geminiRegex(content, oldS, newS string, multiple bool) (string, int) {
	spaced := oldS
	for _, d := range []string{"(", ")", ":", "[", "]", "{", "}", ">", "<", "="} {
		spaced = strings.ReplaceAll(spaced, d, " "+d+" ")
	}
	tokens := strings.Fields(spaced)
	if len(tokens) == 0 {
		return content, 0
	}
	for i, t := range tokens {
		tokens[i] = regexp.QuoteMeta(t)
	}
	re, err := regexp.Compile(`(?m)^([ \t]*)` + strings.Join(tokens, `\s*`))
	if err != nil {
		return content, 0
	}
	matches := re.FindAllStringSubmatchIndex(content, -1)
	if len(matches) == 0 {
		return content, 0
	}
	if !multiple {
		matches = matches[:1]
	}
	repl := strings.Split(newS, "\n")
	var b strings.Builder
	last := 0
	for _, m := range matches {
		b.WriteString(content[last:m[0]])
		b.WriteString(strings.Join(reindent(repl, content[m[2]:m[3]]), "\n"))
		last = m[1]
	}
	b.WriteString(content[last:])
	return b.String(), len(re.FindAllStringIndex(content, -1))
}

func indentOf(line string) string { return line[:len(line)-len(strings.TrimLeft(line, " \t"))] }

// reindent replaces the first line's indentation with target on every line, keeping
// relative indentation; blank lines become empty.
func reindent(lines []string, target string) []string {
	ref := indentOf(lines[0])
	out := make([]string, len(lines))
	for i, l := range lines {
		switch {
		case strings.TrimSpace(l) == "":
		case strings.HasPrefix(l, ref):
			out[i] = target + l[len(ref):]
		default:
			out[i] = target + strings.TrimLeft(l, " \t\n\v\f\r")
		}
	}
	return out
}

// restoreTrailingNewline gives modified the final newline original had, or takes it away.
func restoreTrailingNewline(original, modified string) string {
	had := strings.HasSuffix(original, "\n")
	switch has := strings.HasSuffix(modified, "\n"); {
	case had && !has:
		return modified + "\n"
	case !had && has:
		return strings.TrimSuffix(modified, "\n")
	}
	return modified
}
