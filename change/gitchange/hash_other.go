//go:build !unix

package gitchange

import (
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/agentverify/agentverify/change/regular"
)

// hashRegular hashes the regular file full.
func hashRegular(full, rel string, buf []byte) (plumbing.Hash, int64, bool, error) {
	f, fi, err := regular.Open(full)
	if err != nil {
		return plumbing.ZeroHash, 0, false, err
	}
	defer f.Close()
	hash, err := hashStream(f, fi.Size(), rel, buf)
	return hash, fi.Size(), fi.Mode()&0o111 != 0, err
}
