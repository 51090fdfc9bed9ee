package main

import "testing"

func TestShareOf(t *testing.T) {
	for _, tc := range []struct {
		line, name string
		share      float64
		ok         bool
	}{
		{"BenchmarkResolve/cold/hub-2          \t       3\t4179852745 ns/op\t       504.2 go-cpu-ms/op\t         9.051 share-%\t      5570 tool-cpu-ms/op", "cold hub", 9.051, true},
		{"BenchmarkResolve/warm/leaf-16 3 1 ns/op 1.0 go-cpu-ms/op 100 tool-cpu-ms/op 1.5 share-%", "warm leaf", 1.5, true},
		{"BenchmarkResolve/warm/leaf-2 3 1 ns/op 1.0 go-cpu-ms/op 0 tool-cpu-ms/op", "", 0, false}, // pyright did nothing measurable
		{"ok  \tgithub.com/agentverify/agentverify/lang/python\t12.3s", "", 0, false},
		{"BenchmarkOther/x-2 3 1 ns/op 5 share-%", "", 0, false},
	} {
		name, share, ok := shareOf(tc.line)
		if name != tc.name || share != tc.share || ok != tc.ok {
			t.Errorf("shareOf(%q) = %q, %v, %v; want %q, %v, %v", tc.line, name, share, ok, tc.name, tc.share, tc.ok)
		}
	}
}
