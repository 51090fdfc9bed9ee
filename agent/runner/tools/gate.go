package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/change/editset"
	"github.com/agentverify/agentverify/report"
)

// gatedWrite verifies content for p in memory and writes it only when the verdict is
// not failed.
func (b *Box) gatedWrite(ctx context.Context, p string, content []byte) Result {
	rel, rootRel, err := b.clean(p)
	if err != nil {
		return fail(err.Error())
	}
	if slices.Contains(b.protected, rootRel) {
		return fail(fmt.Sprintf("%s is the verification policy; an agent must not change its own gate", rel))
	}
	if fi, err := os.Stat(filepath.Join(b.dir, filepath.FromSlash(rel))); err == nil && fi.IsDir() {
		return fail(fmt.Sprintf("%s is a directory", rel))
	}
	rep, err := b.verifier.Check(ctx, agentverify.Request{
		Dir:        b.dir,
		Source:     agentverify.Edits,
		Edits:      []editset.Edit{{Path: rootRel, Content: content}},
		PolicyFile: b.policyFile,
		FirstError: true, // a failed write is retried by the model: the first error is enough
	})
	if err != nil {
		// The gate fails closed: no verdict, no write.
		return Result{Observation: fmt.Sprintf("error: %s was not written: verification could not run: %v", rel, err), Failed: true}
	}
	switch {
	case rep.Status == report.Errored: // fail closed: no verdict, no write
		return Result{
			Observation: fmt.Sprintf("error: %s was NOT written: the change could not be verified: %s\n%s", rel, rep.Error, b.Violations(rep)),
			Verdict:     rep.Status, Report: rep, Failed: true,
		}
	case !rep.Status.OK():
		return Result{
			Observation: fmt.Sprintf("verification failed: %s was NOT written. Fix these and try again:\n%s", rel, b.Violations(rep)),
			Verdict:     rep.Status, Report: rep, Failed: true,
		}
	}
	if err := writeAtomic(filepath.Join(b.dir, filepath.FromSlash(rel)), content); err != nil {
		return Result{Observation: fmt.Sprintf("error: %s: %v", rel, err), Verdict: rep.Status, Report: rep, Failed: true}
	}
	if !slices.Contains(b.written, rel) {
		b.written = append(b.written, rel)
	}
	obs := fmt.Sprintf("wrote %s (%d bytes); verification %s", rel, len(content), rep.Status)
	if len(rep.Violations) > 0 {
		obs += ":\n" + b.Violations(rep)
	}
	return Result{Observation: obs, Verdict: rep.Status, Report: rep, Wrote: rel}
}

// Violations lists a report's violations one per line as
// "RULE file:line: message (suggestion)", paths relative to the box's directory.
func (b *Box) Violations(rep *report.Report) string {
	var sb strings.Builder
	for _, v := range rep.Violations {
		fmt.Fprintf(&sb, "%s %s:%d: %s", v.Rule, b.display(v.Location.File), v.Location.Line, v.Message)
		if v.Suggestion != "" {
			fmt.Fprintf(&sb, " (%s)", v.Suggestion)
		}
		if v.Severity != "" && v.Severity != "error" {
			fmt.Fprintf(&sb, " [%s]", v.Severity)
		}
		sb.WriteByte('\n')
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

// writeAtomic writes data to a temporary file beside path and renames it into place,
// so a reader sees the old content or the new one, never a part. An existing file's
// permissions are kept.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".agentverify-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing: %w", err)
	}
	return nil
}

// verify runs the engine on everything changed since the run started: the working tree
// against the start snapshot, or, outside a repository, the files written as they are.
func (b *Box) verify(ctx context.Context, args string) Result {
	var a struct{}
	if err := decode(args, &a); err != nil {
		return fail(err.Error())
	}
	req := agentverify.Request{Dir: b.dir, Source: agentverify.WorkingTree, Base: b.base, PolicyFile: b.policyFile}
	if b.base == "" {
		if len(b.written) == 0 {
			return Result{Observation: "nothing changed yet; verification passed", Verdict: report.Passed}
		}
		req.Source = agentverify.Paths
		for _, p := range b.written {
			req.Paths = append(req.Paths, filepath.Join(b.dir, filepath.FromSlash(p)))
		}
	}
	rep, err := b.verifier.Check(ctx, req)
	if err != nil {
		return Result{Observation: "error: verification could not run: " + err.Error(), Verdict: report.Failed, Failed: true}
	}
	obs := fmt.Sprintf("verification %s (%d files changed)", rep.Status, len(rep.Files))
	if len(rep.Violations) > 0 {
		obs += ":\n" + b.Violations(rep)
	}
	if rep.Status == report.Errored {
		obs += "\nthe change could not be verified: " + rep.Error
	}
	return Result{Observation: obs, Verdict: rep.Status, Report: rep, Failed: !rep.Status.OK()}
}
