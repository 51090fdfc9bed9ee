//go:build unix

package regular

import "syscall"

// nonBlock makes opening a named pipe return at once instead of waiting for a writer.
const nonBlock = syscall.O_NONBLOCK
