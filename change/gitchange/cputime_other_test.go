//go:build !unix

package gitchange

import "time"

func cpuTime() time.Duration { return 0 }
