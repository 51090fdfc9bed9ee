package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/internal/integrations/agenthook"
	"github.com/agentverify/agentverify/lazyregexp"
	"github.com/agentverify/agentverify/report"
)

const completionLong = `Prints a shell completion script for bash, zsh or fish. The script completes commands,
each command's flags, the values of --format, --output, --fail-on and --color, rule IDs
for explain, and file names.

  bash:  source <(agentverify completion bash)        (or save it in /etc/bash_completion.d/)
  zsh:   agentverify completion zsh > "${fpath[1]}/_agentverify"
  fish:  agentverify completion fish > ~/.config/fish/completions/agentverify.fish`

// flagSpec is one flag of a command, read from the command's own --help.
type flagSpec struct {
	name, help string
	value      bool // takes a value
}

var flagLine = lazyregexp.New(`^  -(\S+)(?: (\S+))?$`)

// commandFlags returns the flags of command c, read from its --help output so that the
// completion can never drift from the flags the command really has.
func commandFlags(ctx context.Context, c *command) []flagSpec {
	var out bytes.Buffer
	c.run(ctx, &Env{Stdout: &out, Stderr: io.Discard, Dir: ".", Getenv: func(string) string { return "" }}, []string{"--help"})
	var flags []flagSpec
	lines := strings.Split(out.String(), "\n")
	for i, l := range lines {
		m := flagLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		help := ""
		if i+1 < len(lines) {
			help = strings.TrimSpace(lines[i+1])
		}
		flags = append(flags, flagSpec{name: m[1], value: m[2] != "", help: help})
	}
	return flags
}

// dash returns how a flag is written on the command line: -C, --format.
func dash(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// subcommands are the words a command takes first.
func subcommands(cmd string) []string {
	switch cmd {
	case "hook":
		return append([]string{"install"}, agenthook.Names()...)
	case "agent":
		return []string{"run", "replay"}
	case "completion":
		return []string{"bash", "zsh", "fish"}
	}
	return nil
}

// valueWords are the completions of a flag's value, where they are a fixed set.
func valueWords(flag string) []string {
	switch flag {
	case "format", "output":
		return report.Formats()
	case "fail-on":
		return []string{"error", "warning"}
	case "color":
		return []string{"auto", "always", "never"}
	}
	return nil
}

func runCompletion(ctx context.Context, env *Env, args []string) int {
	fs := newFlags(env, "completion")
	if code, done := parse(fs, env, args); done {
		return code
	}
	if fs.NArg() != 1 {
		return usageError(env, "completion", fmt.Errorf("want one shell: bash, zsh or fish"))
	}
	var write func(io.Writer, []*command, map[string][]flagSpec, []string)
	switch fs.Arg(0) {
	case "bash":
		write = writeBash
	case "zsh":
		write = writeZsh
	case "fish":
		write = writeFish
	default:
		return usageError(env, "completion", fmt.Errorf("unknown shell %q (want bash, zsh or fish)", fs.Arg(0)))
	}
	cmds := commands()
	flags := map[string][]flagSpec{}
	for _, c := range cmds {
		flags[c.name] = commandFlags(ctx, c)
	}
	var rules []string
	for id := range agentverify.Rules(agentverify.Dimensions()) {
		rules = append(rules, id)
	}
	sort.Strings(rules)
	write(env.Stdout, cmds, flags, rules)
	return ExitOK
}

func writeBash(w io.Writer, cmds []*command, flags map[string][]flagSpec, rules []string) {
	fmt.Fprintln(w, "# bash completion for agentverify (agentverify completion bash)")
	fmt.Fprintln(w, "_agentverify() {")
	fmt.Fprintln(w, `  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" i cmd=""`)
	fmt.Fprintln(w, `  for ((i = 1; i < COMP_CWORD; i++)); do case "${COMP_WORDS[i]}" in -C) ((i++));; -*) ;; *) cmd="${COMP_WORDS[i]}"; break;; esac; done`)
	fmt.Fprintln(w, `  case "$prev" in`)
	for _, f := range []string{"format", "output", "fail-on", "color"} {
		fmt.Fprintf(w, "    -%s|--%s) COMPREPLY=($(compgen -W %q -- \"$cur\")); return;;\n", f, f, strings.Join(valueWords(f), " "))
	}
	fmt.Fprintln(w, `    -C) COMPREPLY=($(compgen -d -- "$cur")); return;;`)
	fmt.Fprintln(w, "  esac")
	fmt.Fprintln(w, `  case "$cmd" in`)
	var names []string
	for _, c := range cmds {
		names = append(names, c.name)
		words := subcommands(c.name)
		for _, f := range flags[c.name] {
			words = append(words, dash(f.name))
		}
		if c.name == "explain" {
			words = append(words, rules...)
		}
		fmt.Fprintf(w, "    %s) COMPREPLY=($(compgen -W %q -- \"$cur\"));;\n", c.name, strings.Join(words, " "))
	}
	fmt.Fprintf(w, "    \"\") COMPREPLY=($(compgen -W %q -- \"$cur\")); return;;\n", strings.Join(names, " ")+" help -C")
	fmt.Fprintln(w, "  esac")
	fmt.Fprintln(w, `  [[ "$cur" == -* ]] || COMPREPLY+=($(compgen -f -- "$cur"))`)
	fmt.Fprintln(w, "}")
	fmt.Fprintln(w, "complete -o filenames -F _agentverify agentverify")
}

func writeZsh(w io.Writer, cmds []*command, flags map[string][]flagSpec, rules []string) {
	fmt.Fprintln(w, "#compdef agentverify")
	fmt.Fprintln(w, "# zsh completion for agentverify (agentverify completion zsh)")
	fmt.Fprintln(w, "_agentverify() {")
	fmt.Fprintln(w, "  local -a commands")
	fmt.Fprintln(w, "  commands=(")
	for _, c := range cmds {
		fmt.Fprintf(w, "    %s\n", zshQuote(c.name+":"+c.short))
	}
	fmt.Fprintln(w, "  )")
	fmt.Fprintln(w, "  if (( CURRENT == 2 )); then _describe command commands; return; fi")
	fmt.Fprintln(w, "  case $words[2] in")
	for _, c := range cmds {
		fmt.Fprintf(w, "    %s) _arguments", c.name)
		for _, f := range flags[c.name] {
			spec := dash(f.name) + "[" + zshEscape(f.help) + "]"
			if f.value {
				spec += ":" + f.name + ":" + zshAction(f.name)
			}
			fmt.Fprintf(w, " %s", zshQuote(spec))
		}
		switch {
		case c.name == "explain":
			fmt.Fprintf(w, " %s", zshQuote("1:rule:("+strings.Join(rules, " ")+")"))
		case subcommands(c.name) != nil:
			fmt.Fprintf(w, " %s", zshQuote("1:subcommand:("+strings.Join(subcommands(c.name), " ")+")"))
		default:
			fmt.Fprint(w, " '*:file:_files'")
		}
		fmt.Fprintln(w, " ;;")
	}
	fmt.Fprintln(w, "  esac")
	fmt.Fprintln(w, "}")
	fmt.Fprintln(w, `_agentverify "$@"`)
}

// zshAction completes a flag's value: its fixed words, a directory, a file, or nothing.
func zshAction(flag string) string {
	if vs := valueWords(flag); vs != nil {
		return "(" + strings.Join(vs, " ") + ")"
	}
	switch flag {
	case "C":
		return "_directories"
	case "policy", "patch":
		return "_files"
	}
	return " "
}

func zshEscape(s string) string {
	return strings.NewReplacer("[", `\[`, "]", `\]`, ":", `\:`).Replace(s)
}

func zshQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func writeFish(w io.Writer, cmds []*command, flags map[string][]flagSpec, rules []string) {
	fmt.Fprintln(w, "# fish completion for agentverify (agentverify completion fish)")
	fmt.Fprintln(w, "complete -c agentverify -f")
	for _, c := range cmds {
		fmt.Fprintf(w, "complete -c agentverify -n __fish_use_subcommand -a %s -d %s\n", c.name, zshQuote(c.short))
	}
	for _, c := range cmds {
		cond := "'__fish_seen_subcommand_from " + c.name + "'"
		for _, f := range flags[c.name] {
			opt := "-l " + f.name
			if len(f.name) == 1 {
				opt = "-s " + f.name
			}
			fmt.Fprintf(w, "complete -c agentverify -n %s %s -d %s", cond, opt, zshQuote(f.help))
			if vs := valueWords(f.name); vs != nil {
				fmt.Fprintf(w, " -x -a %s", zshQuote(strings.Join(vs, " ")))
			} else if f.value {
				fmt.Fprint(w, " -r -F")
			}
			fmt.Fprintln(w)
		}
		switch {
		case c.name == "explain":
			fmt.Fprintf(w, "complete -c agentverify -n %s -a %s\n", cond, zshQuote(strings.Join(rules, " ")))
		case subcommands(c.name) != nil:
			fmt.Fprintf(w, "complete -c agentverify -n %s -a %s\n", cond, zshQuote(strings.Join(subcommands(c.name), " ")))
		default:
			fmt.Fprintf(w, "complete -c agentverify -n %s -F\n", cond)
		}
	}
}
