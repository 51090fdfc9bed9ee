package agentverify_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	modv "golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

// TestGoInstallFromModuleProxy proves the install line of a release: it serves this tree as
// version v0.99.0 of the module from a local file-based module proxy (GOPROXY=file://…)
// and runs `go install …/cmd/agentverify@v0.99.0` from it, the way a user installs a tagged
// release, then checks that the installed binary reports that version.
func TestGoInstallFromModuleProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds agentverify from a module zip; skipped with -short")
	}
	const mod, version = "github.com/agentverify/agentverify", "v0.99.0"
	proxy := t.TempDir()
	dir := filepath.Join(proxy, mod, "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeModuleZip(filepath.Join(dir, version+".zip"), modv.Version{Path: mod, Version: version}); err != nil {
		t.Fatalf("module zip: %v", err)
	}
	gomod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"list": version + "\n", version + ".mod": string(gomod), version + ".info": `{"Version":"` + version + `","Time":"2026-11-23T00:00:00Z"}`}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gobin := t.TempDir()
	cmd := exec.Command("go", "install", mod+"/cmd/agentverify@"+version)
	cmd.Dir = t.TempDir() // outside any module, as a user runs it
	// Dependencies come from the module cache (the test suite has them) and no network is
	// used: this module comes from the file proxy, which no checksum database knows, and the
	// dependencies' checksums were verified when the cache was filled.
	cmd.Env = append(os.Environ(), "GOBIN="+gobin, "GOPROXY=file://"+filepath.ToSlash(proxy)+",off",
		"GOSUMDB=off", "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go install %s@%s: %v\n%s", mod, version, err, out)
	}
	out, err := exec.Command(filepath.Join(gobin, "agentverify"), "version").CombinedOutput()
	if err != nil || !regexp.MustCompile(`^agentverify 0\.99\.0\n`).Match(out) {
		t.Errorf("installed agentverify version: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "go1.") {
		t.Errorf("version does not name the Go version: %s", out)
	}
}

// writeModuleZip writes the module zip of this tree: from git's HEAD when the tree is a
// clean checkout, else from the directory (a developer's uncommitted tree).
func writeModuleZip(path string, v modv.Version) error {
	write := func(from func(f *os.File) error) error {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		if err := from(f); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	err := write(func(f *os.File) error { return zip.CreateFromVCS(f, v, ".", "HEAD", "") })
	if err != nil {
		err = write(func(f *os.File) error { return zip.CreateFromDir(f, v, ".") })
	}
	return err
}

// TestDockerImage builds the Dockerfile and runs the image's `version` when a Docker engine
// is available; CI machines without one skip it.
func TestDockerImage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a container image; skipped with -short")
	}
	if err := exec.Command("docker", "info").Run(); err != nil {
		t.Skip("no Docker engine (docker info fails); install Docker to build the image")
	}
	tag := "agentverify-test:" + strings.ToLower(t.Name())
	if out, err := exec.Command("docker", "build", "-t", tag, ".").CombinedOutput(); err != nil {
		t.Fatalf("docker build: %v\n%s", err, out)
	}
	defer exec.Command("docker", "rmi", "-f", tag).Run()
	out, err := exec.Command("docker", "run", "--rm", tag, "version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "agentverify ") {
		t.Errorf("docker run version: %v\n%s", err, out)
	}
	user, err := exec.Command("docker", "image", "inspect", "--format", "{{.Config.User}}", tag).Output()
	if err != nil || strings.TrimSpace(string(user)) == "" || strings.TrimSpace(string(user)) == "root" || strings.TrimSpace(string(user)) == "0" {
		t.Errorf("the image runs as root (User %q, %v)", user, err)
	}
}

// TestGoReleaserConfig validates .goreleaser.yaml with GoReleaser itself.
func TestGoReleaserConfig(t *testing.T) {
	if _, err := exec.LookPath("goreleaser"); err != nil {
		t.Skip("goreleaser not installed (go install github.com/goreleaser/goreleaser/v2@v2.12.0; .ci/run installs it)")
	}
	out, err := exec.Command("goreleaser", "check").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "1 configuration file(s) validated") {
		t.Errorf("goreleaser check: %v\n%s", err, out)
	}
}
