package resolve_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/internal/testkit/tsctest"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript"
	"github.com/agentverify/agentverify/lang/typescript/tsc"
	"github.com/agentverify/agentverify/policy"
)

// benchRepo unpacks zod 4.1.12 from the npm registry: 58,799 lines of TypeScript
// sources and tests, strict, no dependencies; the one file edited is a leaf
// (src/v4/core/versions.ts).
func benchRepo(b *testing.B) string {
	b.Helper()
	npm, err := exec.LookPath("npm")
	if err != nil {
		b.Skip("npm is not installed")
	}
	dir := b.TempDir()
	cmd := exec.Command(npm, "pack", "--silent", "zod@4.1.12")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		b.Skipf("npm pack zod@4.1.12: %v", err)
	}
	if out, err := exec.Command("tar", "-xzf", filepath.Join(dir, strings.TrimSpace(string(out))), "-C", dir).CombinedOutput(); err != nil {
		b.Fatalf("tar: %v: %s", err, out)
	}
	root := filepath.Join(dir, "package")
	cfg := `{ "compilerOptions": { "target": "es2022", "module": "esnext", "moduleResolution": "bundler", "strict": true, "noEmit": true, "skipLibCheck": true, "types": [], "lib": ["es2022", "dom"] }, "include": ["src"] }`
	if err := os.WriteFile(filepath.Join(root, "tsconfig.json"), []byte(cfg), 0o644); err != nil {
		b.Fatal(err)
	}
	return root
}

// edit is the change set of a one-line edit of the leaf file, an export added (the
// files it reaches are checked: none here, the name is new), the disk holding it.
func edit(b *testing.B, root string, n int) *change.Set {
	return editFile(b, root, "src/v4/core/versions.ts", "", fmt.Sprintf("export const edit%d: number = %d;\n", n, n))
}

// bodyEdit is the change set of a one-line edit inside a function of core/api.ts (1,621
// lines, importing the schemas, checks and utilities of core) that writes out its
// return type: the check narrows to what the module imports (narrow.go).
func bodyEdit(b *testing.B, root string, n int) *change.Set {
	const at = "export function _gt(value: util.Numeric, params?: string | $ZodCheckGreaterThanParams): checks.$ZodCheckGreaterThan {\n"
	return editFile(b, root, "src/v4/core/api.ts", at, fmt.Sprintf("  const edit%d: number = %d;\n", n, n))
}

// editFile inserts line after the first occurrence of at in file, the disk holding it.
func editFile(b *testing.B, root, file, at, line string) *change.Set {
	base, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		b.Fatal(err)
	}
	i := strings.Index(string(base), at)
	if i < 0 {
		b.Fatalf("%s has no %q", file, at)
	}
	i += len(at)
	head := []byte(string(base[:i]) + line + string(base[i:]))
	if err := os.WriteFile(filepath.Join(root, file), head, 0o644); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.WriteFile(filepath.Join(root, file), base, 0o644) })
	return &change.Set{Root: root, HeadFS: os.DirFS(root), BaseFS: os.DirFS(root), BaseRev: "base", OnDisk: true,
		Files: []*change.File{change.NewFile(file, file, base, head)}}
}

func resolveOnce(b *testing.B, fe *typescript.Frontend, set *change.Set) {
	pass := &check.Pass{Context: context.Background(), Changes: set, Policy: policy.Default(), Mode: check.Diff,
		Languages: lang.Registry{fe}, Files: check.NewFiles(lang.Registry{fe})}
	ps, err := fe.Resolve(pass.Request())
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range ps {
		if set.File(p.Location.File) != nil {
			b.Fatalf("a finding on the edit: %+v", p)
		}
	}
}

// childCPU is the CPU time of the process's reaped children.
func childCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkOneFileEdit: a one-file edit of zod, cold (batch, as diff runs it: an added
// export, the compiler over the changed file and the files the change reaches; a body
// edit, cold-body, over what the file imports) and warm (the language server, each
// edit new).
// go test ./lang/typescript/resolve -run X -bench OneFileEdit -benchtime 5x
func BenchmarkOneFileEdit(b *testing.B) {
	tool := tsctest.Require(b)
	root := benchRepo(b)
	b.Run("tsc-alone", func(b *testing.B) { // tsc -p tsconfig.json --noEmit: the yardstick
		cpu := childCPU()
		for i := 0; i < b.N; i++ {
			if _, err := tool.Check(context.Background(), tsc.Options{Config: filepath.Join(root, "tsconfig.json"), Dir: root}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64((childCPU()-cpu).Milliseconds())/float64(b.N), "tool-cpu-ms/op")
	})
	b.Run("cold", func(b *testing.B) {
		cpu := childCPU()
		for i := 0; i < b.N; i++ {
			resolveOnce(b, typescript.New(), edit(b, root, i))
		}
		b.ReportMetric(float64((childCPU()-cpu).Milliseconds())/float64(b.N), "tool-cpu-ms/op")
	})
	b.Run("cold-body", func(b *testing.B) {
		cpu := childCPU()
		for i := 0; i < b.N; i++ {
			resolveOnce(b, typescript.New(), bodyEdit(b, root, i))
		}
		b.ReportMetric(float64((childCPU()-cpu).Milliseconds())/float64(b.N), "tool-cpu-ms/op")
	})
	b.Run("warm", func(b *testing.B) {
		servers := tsc.NewServers()
		defer servers.Close()
		fe := typescript.NewWarm(servers)
		resolveOnce(b, fe, edit(b, root, 1<<20)) // the server starts and loads the project
		b.ResetTimer()
		cpu := serverCPU()
		for i := 0; i < b.N; i++ {
			resolveOnce(b, fe, edit(b, root, i))
		}
		b.ReportMetric(float64((serverCPU()-cpu).Milliseconds())/float64(b.N), "tool-cpu-ms/op")
	})
}

// serverCPU is the CPU time of this process's running children (the language server),
// from /proc: clock ticks of 10 ms.
func serverCPU() time.Duration {
	entries, _ := os.ReadDir("/proc")
	var ticks int64
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(data)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
		if len(f) < 13 || f[1] != fmt.Sprint(os.Getpid()) {
			continue
		}
		var u, k int64
		fmt.Sscan(f[11], &u)
		fmt.Sscan(f[12], &k)
		ticks += u + k
	}
	return time.Duration(ticks) * 10 * time.Millisecond
}
