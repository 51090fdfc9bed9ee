//go:build cgo

package treesitter

/*
#include <stdlib.h>

// From tree-sitter's api.h; the symbol comes with github.com/tree-sitter/go-tree-sitter.
void ts_set_allocator(void *(*new_malloc)(size_t), void *(*new_calloc)(size_t, size_t),
                      void *(*new_realloc)(void *, size_t), void (*new_free)(void *));

static void use_libc_allocator(void) { ts_set_allocator(malloc, calloc, realloc, free); }
*/
import "C"

import "sync"

// libcAllocator points tree-sitter's allocations straight at libc. The Go bindings route
// every allocation tree-sitter makes through a callback into Go that calls C.malloc
// again, which costs more than the parse itself. The functions in the end are the same
// libc ones, so memory allocated either way may be freed either way; the setting is
// process-wide and made once.
var libcAllocator sync.Once

func useLibcAllocator() { libcAllocator.Do(func() { C.use_libc_allocator() }) }
