// Package scope is the dimension that checks where a change goes and what it does there,
// from paths and operations alone (it needs no language frontend and reads no content):
//
//   - scope/outside-allowed: a changed path, either side of a rename, matches no
//     allowed_paths glob (when the list is non-empty);
//   - scope/forbidden-path: a changed path matches a forbidden_paths glob; forbidden beats
//     allowed (P5);
//   - scope/forbidden-operation: the file's operation is not in allowed_operations;
//   - scope/too-many-files: the change touches more than max_files_changed files;
//   - scope/policy-changed: the change touches the policy file itself;
//   - scope/large-file: a file over 5 MB, whose content no other dimension read.
//
// Every finding is about a whole file (line 1) and introduced by the change; none can be
// suppressed inline.
package scope
