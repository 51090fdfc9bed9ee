package lang

import "context"

// InputHasher is implemented by a frontend whose findings in a directory depend on known
// inputs besides the directory's own files (the packages it imports, the module's
// requirements, the toolchain), so that a result cache may key them (design.md §9). A
// directory holding files of a frontend that does not implement it is never cached.
type InputHasher interface {
	// Inputs returns, for each of dirs (repository-relative, '/'-separated, under the
	// absolute root) whose inputs the frontend can name, a digest of every input outside
	// the directory's own files that the frontend's analysis of its files reads. A
	// directory missing from the result is one the frontend cannot vouch for (an input it
	// cannot name, such as a directory outside the repository): it is recomputed every
	// time. An error means no directory can be vouched for.
	Inputs(ctx context.Context, root string, dirs []string) (map[string][]byte, error)
}
