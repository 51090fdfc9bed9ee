//go:build !unix

package regular

// nonBlock is zero where named pipes cannot be opened through the file system.
const nonBlock = 0
