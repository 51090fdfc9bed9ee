//go:build cgo

package treesitter

/*
#include <stdint.h>
#include <stdlib.h>
#include <stdbool.h>

// From tree-sitter's api.h; the symbols come with github.com/tree-sitter/go-tree-sitter.
typedef struct { uint32_t context[4]; const void *id; const void *tree; } TSNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;
TSNode ts_tree_cursor_current_node(const TSTreeCursor *self);
uint16_t ts_tree_cursor_current_field_id(const TSTreeCursor *self);
bool ts_tree_cursor_goto_first_child(TSTreeCursor *self);
bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *self);
bool ts_tree_cursor_goto_parent(TSTreeCursor *self);
uint16_t ts_node_symbol(TSNode self);
uint32_t ts_node_start_byte(TSNode self);
uint32_t ts_node_end_byte(TSNode self);
bool ts_node_is_missing(TSNode self);

// av_node is one node of the tree in source (pre-)order: its depth says whose child it is.
typedef struct {
	uint32_t start, end, depth;
	uint16_t kind, field;
	uint8_t missing;
} av_node;

// av_walk lists the nodes under the cursor's node (the cursor ends where it started) in
// an array the caller frees; NULL when memory runs out. A node held in field skip_field
// of a node of kind skip_kind is listed without what is under it (0, 0: none is).
static av_node *av_walk(TSTreeCursor *c, size_t *len, uint16_t skip_kind, uint16_t skip_field) {
	size_t cap = 1024, n = 0, kcap = 64;
	uint32_t depth = 0;
	av_node *out = malloc(cap * sizeof *out);
	uint16_t *kinds = malloc(kcap * sizeof *kinds); // kinds[d]: the kind of the node at depth d
	for (;;) {
		if (out == NULL || kinds == NULL) { free(out); free(kinds); return NULL; }
		if (n == cap) {
			cap *= 2;
			av_node *grown = realloc(out, cap * sizeof *out);
			if (grown == NULL) { free(out); free(kinds); return NULL; }
			out = grown;
		}
		if (depth + 1 >= kcap) {
			kcap *= 2;
			uint16_t *grown = realloc(kinds, kcap * sizeof *kinds);
			if (grown == NULL) { free(out); free(kinds); return NULL; }
			kinds = grown;
		}
		TSNode node = ts_tree_cursor_current_node(c);
		av_node *r = &out[n++];
		r->start = ts_node_start_byte(node);
		r->end = ts_node_end_byte(node);
		r->depth = depth;
		r->kind = ts_node_symbol(node);
		r->field = ts_tree_cursor_current_field_id(c);
		r->missing = r->start == r->end && ts_node_is_missing(node);
		kinds[depth] = r->kind;
		bool skip = skip_field != 0 && depth > 0 && r->field == skip_field && kinds[depth - 1] == skip_kind;
		if (!skip && ts_tree_cursor_goto_first_child(c)) { depth++; continue; }
		while (!ts_tree_cursor_goto_next_sibling(c)) {
			if (depth == 0 || !ts_tree_cursor_goto_parent(c)) { *len = n; free(kinds); return out; }
			depth--;
		}
	}
}
*/
import "C"

import (
	"errors"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// flatNode is one node of a tree listed by walk.
type flatNode = C.av_node

// walk lists the nodes under the cursor's node in source order with one cgo call (a
// call per node and question costs more than tree-sitter's parse), and passes them to
// visit; the list is freed when visit returns. What skip names is listed without its
// contents. The binding's TreeCursor holds tree-sitter's
// TSTreeCursor as its only field, which the preamble repeats from api.h.
func walk(c *sitter.TreeCursor, skip skipIDs, visit func([]flatNode)) error {
	var n C.size_t
	nodes := C.av_walk((*C.TSTreeCursor)(unsafe.Pointer(c)), &n, C.uint16_t(skip.kind), C.uint16_t(skip.field))
	if nodes == nil {
		return errors.New("tree-sitter: out of memory listing the syntax tree")
	}
	defer C.free(unsafe.Pointer(nodes))
	visit(unsafe.Slice(nodes, int(n)))
	return nil
}

// flatCursor is tree-sitter's TSTreeCursor as the preamble declares it.
type flatCursor = C.TSTreeCursor

// skipIDs are a Skip's kind and field as the grammar numbers them; zero skips nothing.
type skipIDs struct{ kind, field uint16 }
