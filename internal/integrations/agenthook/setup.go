package agenthook

import (
	"bytes"

	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Command is the hook command an agent's configuration runs: agentverify on PATH, so the
// configuration can be committed and shared.
func Command(name string) string { return "agentverify hook " + name }

// Setup writes or merges the agent's hook configuration under root, idempotently: an
// entry that already runs the agent's hook command is left alone. It returns the file
// and what it did ("created", "updated", "unchanged").
func Setup(root string, a Agent) (path, did string, err error) {
	path = filepath.Join(root, filepath.FromSlash(a.Config))
	old, err := os.ReadFile(path)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return path, "", err
	}
	content, err := configFor(a, old, exists)
	if err != nil {
		return path, "", fmt.Errorf("%s: %w", path, err)
	}
	if exists && bytes.Equal(content, old) {
		return path, "unchanged", nil
	}
	mode := fs.FileMode(0o644)
	if a.Name == "cline" {
		mode = 0o755 // Cline runs the hook file itself
	}
	if err := writeAtomic(path, content, mode); err != nil {
		return path, "", err
	}
	if exists {
		return path, "updated", nil
	}
	return path, "created", nil
}

// configFor returns the configuration file with the hook in it.
func configFor(a Agent, old []byte, exists bool) ([]byte, error) {
	switch a.Name {
	case "cline":
		return ownFile(clineScript, old, exists)
	case "opencode":
		return ownFile(opencodePlugin, old, exists)
	}
	spec := hookSpecs[a.Name]
	doc := &object{}
	if exists && len(bytes.TrimSpace(old)) > 0 {
		var err error
		if doc, err = parseObject(old); err != nil {
			return nil, err
		}
	}
	for _, e := range spec.top {
		if _, ok := doc.get(e.k); !ok {
			doc.set(e.k, e.v)
		}
	}
	list, err := doc.array(spec.path...)
	if err != nil {
		return nil, err
	}
	if !mentions(list, Command(a.Name)) {
		list = append(list, spec.entry)
		doc.setPath(list, spec.path...)
	}
	return doc.encode()
}

// ownFile is a file agentverify writes whole; one with other content is not replaced.
func ownFile(content string, old []byte, exists bool) ([]byte, error) {
	if exists && string(old) != content {
		if strings.Contains(string(old), "agentverify hook") {
			return old, nil // set up already, perhaps edited by hand
		}
		return nil, errors.New("exists and does not run agentverify; add 'agentverify hook' to it by hand (see docs/integrations.md)")
	}
	return []byte(content), nil
}

// mentions reports whether a JSON value holds the string cmd anywhere.
func mentions(v any, cmd string) bool {
	switch v := v.(type) {
	case string:
		return strings.TrimSpace(v) == cmd
	case []any:
		for _, e := range v {
			if mentions(e, cmd) {
				return true
			}
		}
	case *object:
		for _, kv := range v.kvs {
			if mentions(kv.v, cmd) {
				return true
			}
		}
	}
	return false
}

// hookSpec is where an agent's JSON configuration lists hooks and the entry to add.
type hookSpec struct {
	path  []string
	entry any
	top   []kv // keys the file needs, set when missing
}

// claudeEntry is a Claude-style matcher group running cmd.
func claudeEntry(matcher, cmd string, extra ...kv) *object {
	hook := &object{kvs: append([]kv{{"type", "command"}, {"command", cmd}}, extra...)}
	return &object{kvs: []kv{{"matcher", matcher}, {"hooks", []any{hook}}}}
}

var hookSpecs = map[string]hookSpec{
	"claude":    {path: []string{"hooks", "PreToolUse"}, entry: claudeEntry(Claude.matcher, Command("claude"))},
	"codex":     {path: []string{"hooks", "PreToolUse"}, entry: claudeEntry("apply_patch", Command("codex"))},
	"gemini":    {path: []string{"hooks", "BeforeTool"}, entry: claudeEntry("write_file|replace", Command("gemini"), kv{"timeout", 60000})},
	"qwen":      {path: []string{"hooks", "PreToolUse"}, entry: claudeEntry(qwenCodec.matcher, Command("qwen"))},
	"factory":   {path: []string{"hooks", "PreToolUse"}, entry: claudeEntry(factoryCodec.matcher, Command("factory"))},
	"openhands": {path: []string{"hooks", "PreToolUse"}, entry: claudeEntry(openhandsCodec.matcher, Command("openhands"))},
	"kiro": {path: []string{"hooks", "preToolUse"}, top: []kv{{"name", "agentverify"}, {"description", "every fs_write verified by agentverify before it is written"}},
		entry: &object{kvs: []kv{{"matcher", "fs_write"}, {"command", Command("kiro")}}}},
	"cursor": {path: []string{"hooks", "preToolUse"}, top: []kv{{"version", 1}},
		entry: &object{kvs: []kv{{"command", Command("cursor")}, {"failClosed", true}}}},
	"copilot": {path: []string{"hooks", "preToolUse"}, top: []kv{{"version", 1}},
		entry: &object{kvs: []kv{{"type", "command"}, {"bash", Command("copilot")}, {"timeoutSec", 30}}}},
	"windsurf": {path: []string{"hooks", "pre_write_code"},
		entry: &object{kvs: []kv{{"command", Command("windsurf")}, {"show_output", true}}}},
}

// clineScript is .clinerules/hooks/PreToolUse: Cline runs the file for every tool.
const clineScript = `#!/usr/bin/env sh
# Every file Cline writes is verified by agentverify first (agentverify init --agent cline).
exec agentverify hook cline
`

// opencodePlugin is .opencode/plugins/agentverify.ts: before OpenCode runs a tool, the
// plugin hands it to 'agentverify hook opencode' and throws — OpenCode reports that to
// the model as the tool's error — unless the answer is an explicit allow. A hook that
// cannot run, crashes or answers anything else blocks the tool: it fails closed.
const opencodePlugin = `// Every file OpenCode writes is verified by agentverify first (agentverify init --agent opencode).
import type { Plugin } from "@opencode-ai/plugin"

export const AgentVerify: Plugin = async ({ $, directory }) => {
  return {
    "tool.execute.before": async (input, output) => {
      if (!["write", "edit", "apply_patch", "patch"].includes(input.tool)) return
      const payload = JSON.stringify({ tool: input.tool, args: output.args, cwd: directory })
      const res = await $` + "`agentverify hook opencode < ${new Response(payload)}`" + `.nothrow().quiet()
      let answer: { decision?: string; reason?: string } = {}
      try {
        answer = JSON.parse(res.stdout.toString())
      } catch {}
      if (res.exitCode !== 0 || answer.decision !== "allow") {
        throw new Error(answer.reason || res.stderr.toString() || "agentverify could not verify this edit")
      }
    },
  }
}
`

// writeAtomic writes a file through a temporary file and a rename.
func writeAtomic(path string, content []byte, mode fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(content); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
