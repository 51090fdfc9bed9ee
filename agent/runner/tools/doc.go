// Package tools holds the tools the agent runner offers the model — read_file,
// list_files, write_file, edit_file, run_command, verify and finish — with their
// JSON schemas and their implementation over one directory.
//
// Every path is checked with editset.Clean before use, so nothing outside the
// directory (through "..", an absolute path or a symbolic link) is read or
// written. write_file and edit_file are gated: the new content is verified in
// memory by the verification engine first, and a failed verdict writes nothing.
// A passing (or warnings-only) write lands atomically, by temp file and rename.
package tools
