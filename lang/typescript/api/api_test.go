package api

import "testing"

func TestCompatible(t *testing.T) {
	for _, tt := range []struct {
		base, head string
		want       bool
	}{
		{"(number): number", "(number): number", true},
		{"(number): number", "(number, string?): number", true},
		{"(number): number", "(number, ...string[]): number", true},
		{"(number?): void", "(number?, { a: number }?): void", true},
		{"(number): number", "(number?): number", true},
		{"(number): number", "(number, number): number", false},
		{"(number, number): number", "(number): number", false},
		{"(number): number", "(string): number", false},
		{"(number): number", "(number): string", false},
		{"<T>(T): T", "<T, U>(T): T", false},
		{"(Map<string, number>, number): void", "(Map<string, number>, number, boolean?): void", true},
		{"(a): void", "(any): void", true},
	} {
		if got := compatible(tt.base, tt.head); got != tt.want {
			t.Errorf("compatible(%q, %q) = %v, want %v", tt.base, tt.head, got, tt.want)
		}
	}
}
