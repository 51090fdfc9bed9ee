package pyright

import "testing"

func TestLeaves(t *testing.T) {
	for _, tt := range []struct {
		config map[string]any
		rel    string
		want   bool
	}{
		{nil, "examples/a.py", false},
		{map[string]any{"exclude": []any{"examples"}}, "examples/a.py", true},
		{map[string]any{"exclude": []any{"examples/"}}, "examples/sub/a.py", true},
		{map[string]any{"exclude": []any{"./examples"}}, "examples_more/a.py", false},
		{map[string]any{"exclude": []any{"**/fixtures"}}, "tests/fixtures/a.py", true},
		{map[string]any{"exclude": []any{"**/fixtures"}}, "fixtures/a.py", true},
		{map[string]any{"exclude": []any{"docs/*.py"}}, "docs/conf.py", true},
		{map[string]any{"exclude": []any{"docs/*.py"}}, "docs/sub/conf.py", false},
		{map[string]any{"exclude": []any{"test?.py"}}, "test1.py", true},
		{map[string]any{"include": []any{"src", "tests"}}, "src/pkg/a.py", false},
		{map[string]any{"include": []any{"src", "tests"}}, "examples/a.py", true},
		{map[string]any{"include": []any{"src"}, "exclude": []any{"src/vendor"}}, "src/vendor/x.py", true},
		{map[string]any{"include": []any{"."}}, "anything/a.py", false},
		{map[string]any{"include": "src"}, "anything/a.py", false},
	} {
		if got := (Project{Config: tt.config}).Leaves(tt.rel); got != tt.want {
			t.Errorf("%v: Leaves(%q) = %v, want %v", tt.config, tt.rel, got, tt.want)
		}
	}
}
