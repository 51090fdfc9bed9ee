package policy

// starter is the policy "agentverify init" writes. It spells out every key with the
// built-in defaults, so that parsing it gives the same options as Default().
const starter = `# agentverify policy. Reference: 'agentverify explain' lists the rules; the README
# describes every key. Unknown keys are errors, so a typo never goes unnoticed.
version: 1
name: default                # shown in reports

# Each dimension below runs when its key is present ({} runs it with the defaults) and is
# skipped when the key is absent or null.

scope:                       # which files the change may touch, and how
  allowed_paths: ["**"]      # globs (doublestar syntax); a path matching none is an error
  forbidden_paths: []        # e.g. ["vendor/**", ".github/**"]; forbidden beats allowed
  allowed_operations: [create, modify, delete, rename]
  max_files_changed: 0       # 0 = no limit
  allow_gate_config_changes: false  # true lets a change edit .pre-commit-config.yaml, the
                             # workflows running agentverify and .claude/settings*.json

hallucination:               # imports, symbols, members and signatures must exist
  young_package_days: 30     # a dependency the change adds whose first release is younger
                             # is hallucination/young-package (1 to 3650)

style:
  naming: detect             # detect (each language's own) | go | lisp-case | snake_case | pep8 | camelCase
  require_docs: exported     # none | exported: exported declarations need a doc comment
  max_line_length: 0         # 0 = off

semantics:                   # the public API and the tests survive the change
  preserve_exports: true     # removing an exported declaration is an error
  preserve_signatures: true  # changing one incompatibly is an error
  preserve_tests: true       # removing a test is an error
  include_internal: false    # also guard exports of internal/ packages

complexity:                  # 0 turns a limit off
  max_function_lines: 80
  max_nesting_depth: 5
  max_cyclomatic: 15
  max_cognitive: 25

suppressions:
  allow_new: false           # true lets a //agentverify:ignore the change adds suppress;
                             # false: only suppressions already at the base count

# Severity per rule, or per glob over rule IDs: error, warning or off. An exact rule beats
# a glob; among globs the last match wins.
rules: {}
#  style/*: warning
#  complexity/cognitive: off

# Per-path options; later entries win.
overrides: []
#  - paths: ["**/*_test.go", "**/test_*.py", "**/*_test.py", "**/conftest.py"]
#    complexity: {max_function_lines: 200}

# What one verification may cost. Nothing over a limit passes: a larger file of a verified
# language (.go) is an error, and so is a dimension that runs out of time.
limits:
  max_file_size: 5242880     # bytes (5 MiB); at most 268435456 (256 MiB)
  dimension_timeout: 5m      # per dimension; from 1s to 1h
  max_download_size: 268435456  # bytes of module zips fetched for the modules a change
                             # adds to go.mod (256 MiB); at most 68719476736 (64 GiB)

# What the language frontends need to know beyond the files. Common Lisp's #+/#- branches
# are read against these *features*; null is SBCL's on x86-64 Linux. Branches for other
# Lisps are not checked.
languages:
  commonlisp:
    features: null           # e.g. [ccl, x86-64, linux, unix, asdf3]
`

// Starter returns the commented starter policy that "agentverify init" writes.
func Starter() []byte { return []byte(starter) }
