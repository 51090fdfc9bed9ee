package agenthook

import (
	"slices"
	"time"
)

// Agent is one coding agent the gate plugs into: its hook protocol, how long its hook may
// run, and where its hook configuration lives.
type Agent struct {
	// Name is the argument of 'agentverify hook NAME' and 'init --agent NAME'.
	Name string
	// Title is the agent's name for people.
	Title string
	// Codec is its hook protocol.
	Codec Codec
	// Timeout bounds one verification: under the agent's own hook time-out, since an agent
	// whose hook times out lets the tool run (or, for some, fails the hook open).
	Timeout time.Duration
	// Config is the repository-relative file 'init --agent' writes or merges into.
	Config string
}

// Agents lists every supported agent, by name. The lint-command agents (aider,
// SWE-agent) and editors (through 'agentverify lsp') have no hook and are not here.
var Agents = []Agent{
	{Name: "claude", Title: "Claude Code", Codec: Claude, Timeout: 50 * time.Second, Config: ".claude/settings.json"},
	{Name: "codex", Title: "OpenAI Codex CLI", Codec: codex, Timeout: 50 * time.Second, Config: ".codex/hooks.json"},
	{Name: "gemini", Title: "Gemini CLI", Codec: gemini, Timeout: 50 * time.Second, Config: ".gemini/settings.json"},
	{Name: "cursor", Title: "Cursor", Codec: cursorCodec{}, Timeout: 25 * time.Second, Config: ".cursor/hooks.json"},
	{Name: "copilot", Title: "GitHub Copilot (CLI, coding agent)", Codec: copilotCodec{}, Timeout: 25 * time.Second, Config: ".github/hooks/agentverify.json"},
	{Name: "cline", Title: "Cline", Codec: clineCodec{}, Timeout: 25 * time.Second, Config: ".clinerules/hooks/PreToolUse"},
	{Name: "windsurf", Title: "Windsurf", Codec: windsurfCodec{}, Timeout: 25 * time.Second, Config: ".windsurf/hooks.json"},
	{Name: "kiro", Title: "Kiro", Codec: kiroCodec, Timeout: 25 * time.Second, Config: ".kiro/agents/agentverify.json"},
	{Name: "qwen", Title: "Qwen Code", Codec: qwenCodec, Timeout: 50 * time.Second, Config: ".qwen/settings.json"},
	{Name: "factory", Title: "Factory Droid", Codec: factoryCodec, Timeout: 50 * time.Second, Config: ".factory/hooks.json"},
	{Name: "openhands", Title: "OpenHands", Codec: openhandsCodec, Timeout: 50 * time.Second, Config: ".openhands/hooks.json"},
	{Name: "opencode", Title: "OpenCode", Codec: opencodeCodec{}, Timeout: 50 * time.Second, Config: ".opencode/plugins/agentverify.ts"},
}

// Lookup returns the agent called name.
func Lookup(name string) (Agent, bool) {
	i := slices.IndexFunc(Agents, func(a Agent) bool { return a.Name == name })
	if i < 0 {
		return Agent{}, false
	}
	return Agents[i], true
}

// Names lists the agents' names in table order.
func Names() []string {
	out := make([]string, len(Agents))
	for i, a := range Agents {
		out[i] = a.Name
	}
	return out
}
