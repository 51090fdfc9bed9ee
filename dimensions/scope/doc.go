// Package scope is the dimension that checks where a change goes and what it does there,
// from paths and operations alone (it needs no language frontend; it reads content only to
// see whether a workflow runs agentverify):
//
//   - scope/outside-allowed: a changed path, either side of a rename, matches no
//     allowed_paths glob (when the list is non-empty);
//   - scope/forbidden-path: a changed path matches a forbidden_paths glob; forbidden beats
//     allowed (P5);
//   - scope/forbidden-operation: the file's operation is not in allowed_operations;
//   - scope/too-many-files: the change touches more than max_files_changed files;
//   - scope/policy-changed: the change touches what decides the policy in force (the
//     policy files at the root, the --policy file, a symlinked policy's target), with what
//     the new policy would loosen;
//   - scope/gate-config-changed: the change edits the gate's own configuration
//     (.pre-commit-config.yaml, a workflow running agentverify, .claude/settings*.json)
//     and the policy does not set allow_gate_config_changes;
//   - scope/large-file: a file over limits.max_file_size (5 MiB by default), whose content no other dimension read.
//   - scope/unverified-submodule: a submodule added, moved to another commit or edited
//     inside, whose content is another repository's.
//
// The last two run only when the pass has a trusted side (pass.Trust: diff, hooks, MCP,
// the agent), and then even when the policy skips the scope dimension. Every finding is about a whole file (line 1) and introduced by the change; none can be
// suppressed inline.
package scope
