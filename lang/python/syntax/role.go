package syntax

import (
	"path"
	"strings"
)

// Role classifies a file for pytest: test modules hold tests, conftest.py holds
// fixtures; neither is part of a package's API.
type Role int

const (
	// Source is a module of the code.
	Source Role = iota
	// TestModule is test_*.py or *_test.py: it holds tests.
	TestModule
	// TestSupport is conftest.py: it holds fixtures.
	TestSupport
)

// RoleOf applies pytest's default python_files patterns (test_*.py, *_test.py).
func RoleOf(p string) Role {
	base := path.Base(p)
	stem := strings.TrimSuffix(strings.TrimSuffix(base, ".pyi"), ".py")
	switch {
	case base == "conftest.py":
		return TestSupport
	case strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, "_test"):
		return TestModule
	}
	return Source
}

// IsPython reports whether p names a Python module or stub.
func IsPython(p string) bool { return strings.HasSuffix(p, ".py") || strings.HasSuffix(p, ".pyi") }
