package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

func hostGOOS() string   { return runtime.GOOS }
func hostGOARCH() string { return runtime.GOARCH }

// jsonReport is the part of agentverify's JSON report the measurement reads.
type jsonReport struct {
	Violations []struct {
		Rule     string `json:"rule"`
		Severity string `json:"severity"`
		Message  string `json:"message"`
		Location struct {
			File string `json:"file"`
			Line int    `json:"line"`
		} `json:"location"`
	} `json:"violations"`
}

// verify runs `agentverify diff --base s.Base` on the working tree at dir and records its
// exit code and error findings; findings made in another build configuration are
// checked with the oracle in that configuration.
func (m *measure) verify(ctx context.Context, dir string, s *sample) error {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, m.agentverify, "diff", "--base", s.Base, "--format", "json", "--no-timings")
	cmd.Dir = dir
	cmd.Env = goEnv("AGENTVERIFY_NO_SERVER=1", "AGENTVERIFY_CACHE_DIR="+filepath.Join(m.work, "results"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil && cmd.ProcessState == nil {
		return fmt.Errorf("running agentverify: %w", err)
	}
	s.Exit, s.Stderr = cmd.ProcessState.ExitCode(), shorten(strings.TrimSpace(stderr.String()))
	var rep jsonReport
	if stdout.Len() > 0 {
		if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
			return fmt.Errorf("agentverify's JSON at %.12s: %w", s.Commit, err)
		}
	}
	for _, v := range rep.Violations {
		if v.Severity != "error" {
			continue
		}
		f := found{Rule: v.Rule, File: v.Location.File, Line: v.Location.Line, Message: v.Message}
		if !strings.HasPrefix(v.Rule, "hallucination/") {
			s.Others = append(s.Others, f)
			continue
		}
		if c := buildConfig.FindString(v.Message); c != "" {
			f.Config = c
			f.Confirmed = confirm(ctx, dir, path.Dir(f.File), c)
		}
		s.Errors = append(s.Errors, f)
	}
	return nil
}

// Verdicts.
const (
	falseAlarm  = "false-alarm"   // hallucination errors, the oracle compiles it
	clean       = "clean"         // no hallucination error, the oracle compiles it
	caught      = "caught"        // a break, reported
	missed      = "missed"        // a break, not reported
	otherConfig = "other-config"  // errors only in another configuration, where they are real
	notVerified = "not-verified"  // agentverify exited 2
	baseBroken  = "base-broken"   // the base did not compile either: not a break of the change
	oracleEnv   = "oracle-failed" // the toolchain could not judge the tree here
)

// verdict judges a sample.
func verdict(s *sample) string {
	switch {
	case s.Head.Status == envFails:
		return oracleEnv
	case s.Exit == 2 || s.Exit > 2 || s.Exit < 0:
		return notVerified
	case s.Head.Status == compileFails && s.BaseOr != nil && s.BaseOr.Status != passes && s.BaseOr.Status != vetFails:
		return baseBroken
	case s.Head.Status == compileFails && len(s.Errors) > 0:
		return caught
	case s.Head.Status == compileFails:
		return missed
	}
	real := 0
	for _, f := range s.Errors {
		if f.Confirmed {
			real++
		}
	}
	switch {
	case len(s.Errors) == 0:
		return clean
	case real == len(s.Errors):
		return otherConfig
	}
	return falseAlarm
}
