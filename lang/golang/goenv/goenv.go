// Package goenv reads the go command's settings as the go command finds them in an
// environment: the last setting of a variable, and the go env file (`go env -w`), without
// running `go env` (a process start on paths where the settings are already there).
package goenv

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Last returns the value of the last setting of key in env ("" when unset), as the go
// command reads a variable set twice.
func Last(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}

// File returns the path of the go env file for env: GOENV, else the user config
// directory's go/env; "" when GOENV is off or no config directory can be found.
func File(env []string) string {
	switch name := Last(env, "GOENV"); name {
	case "off":
		return ""
	case "":
		dir := configDir(env)
		if dir == "" {
			return ""
		}
		return filepath.Join(dir, "go", "env")
	default:
		return name
	}
}

// Read returns the settings of the go env file for env: KEY=VALUE lines, as go env -w
// writes them; nil when there is no such file.
func Read(env []string) map[string]string {
	name := File(env)
	if name == "" {
		return nil
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok && k != "" && !strings.HasPrefix(k, "#") {
			out[k] = v
		}
	}
	return out
}

// configDir is os.UserConfigDir for env rather than the process's environment.
func configDir(env []string) string {
	switch home := Last(env, "HOME"); {
	case runtime.GOOS == "windows":
		return Last(env, "AppData")
	case runtime.GOOS == "darwin" || runtime.GOOS == "ios":
		if home != "" {
			return filepath.Join(home, "Library", "Application Support")
		}
	case Last(env, "XDG_CONFIG_HOME") != "":
		return Last(env, "XDG_CONFIG_HOME")
	case home != "":
		return filepath.Join(home, ".config")
	}
	return ""
}
