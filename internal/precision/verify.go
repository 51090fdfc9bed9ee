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

// verify runs b's `agentverify diff --base s.Base` on the working tree at dir and records
// its exit code and error findings; findings made in another build configuration are
// checked with the oracle in that configuration.
func (m *measure) verify(ctx context.Context, dir string, b binary, s *sample) (verification, error) {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Minute)
	defer cancel()
	r := verification{Bin: b.name}
	start := time.Now()
	cmd := exec.CommandContext(ctx, b.path, "diff", "--base", s.Base, "--format", "json", "--no-timings")
	cmd.Dir = dir
	cmd.Env = goEnv("AGENTVERIFY_NO_SERVER=1", "AGENTVERIFY_CACHE_DIR="+filepath.Join(m.work, "results-"+b.name))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil && cmd.ProcessState == nil {
		return r, fmt.Errorf("running %s: %w", b.path, err)
	}
	r.Seconds = time.Since(start).Seconds()
	r.Exit, r.Stderr = cmd.ProcessState.ExitCode(), shorten(strings.TrimSpace(stderr.String()))
	var rep jsonReport
	if stdout.Len() > 0 {
		if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
			return r, fmt.Errorf("%s's JSON at %.12s: %w", b.name, s.Commit, err)
		}
	}
	for _, v := range rep.Violations {
		if v.Severity != "error" {
			continue
		}
		f := found{Rule: v.Rule, File: v.Location.File, Line: v.Location.Line, Message: v.Message}
		if !strings.HasPrefix(v.Rule, "hallucination/") {
			r.Others = append(r.Others, f)
			continue
		}
		if c := buildConfig.FindString(v.Message); c != "" {
			f.Config = c
			f.Confirmed = confirm(ctx, dir, path.Dir(f.File), c)
		}
		r.Errors = append(r.Errors, f)
	}
	return r, nil
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

// verdict judges one binary's run on a sample.
func verdict(s *sample, r *verification) string {
	switch {
	case s.Head.Status == envFails:
		return oracleEnv
	case r.Exit != 0 && r.Exit != 1:
		return notVerified
	case s.Head.Status == compileFails && s.BaseOr != nil && s.BaseOr.Status != passes && s.BaseOr.Status != vetFails:
		return baseBroken
	case s.Head.Status == compileFails && len(r.Errors) > 0:
		return caught
	case s.Head.Status == compileFails:
		return missed
	}
	real := 0
	for _, f := range r.Errors {
		if f.Confirmed {
			real++
		}
	}
	switch {
	case len(r.Errors) == 0:
		return clean
	case real == len(r.Errors):
		return otherConfig
	}
	return falseAlarm
}
