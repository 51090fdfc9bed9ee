package policy

import (
	"fmt"
	"time"

	"go.yaml.in/yaml/v3"
)

// Limits bound what one verification may cost. Nothing over a limit passes silently: a
// file over MaxFileSize is reported (an error when its language is verified), and a
// dimension still running after DimensionTimeout fails the gate.
type Limits struct {
	// MaxFileSize is the size in bytes over which a file's content is not loaded.
	MaxFileSize int64
	// DimensionTimeout bounds each dimension's run.
	DimensionTimeout time.Duration
	// MaxDownloadSize bounds the bytes of module zips fetched, per verification, for the
	// modules a change adds to go.mod: more is a setup error (exit 2), never a pass.
	MaxDownloadSize int64
}

// Defaults and bounds of the limits.
const (
	DefaultMaxFileSize      = 5 << 20 // 5 MiB
	DefaultDimensionTimeout = 5 * time.Minute
	DefaultMaxDownloadSize  = 256 << 20 // 256 MiB

	maxMaxDownloadSize  = 64 << 30  // 64 GiB
	maxMaxFileSize      = 256 << 20 // a policy may raise the size limit up to 256 MiB
	minDimensionTimeout = time.Second
	maxDimensionTimeout = time.Hour
)

// DefaultLimits returns the built-in limits.
func DefaultLimits() Limits {
	return Limits{MaxFileSize: DefaultMaxFileSize, DimensionTimeout: DefaultDimensionTimeout, MaxDownloadSize: DefaultMaxDownloadSize}
}

// limits decodes the limits: key; keys it does not set keep their defaults.
func (d *decoder) limits(dst *Limits) func(*yaml.Node) error {
	return func(v *yaml.Node) error {
		return d.fields(v, "limits", map[string]func(*yaml.Node) error{
			"max_file_size":     d.fileSize("limits.max_file_size", &dst.MaxFileSize),
			"dimension_timeout": d.duration("limits.dimension_timeout", &dst.DimensionTimeout),
			"max_download_size": d.downloadSize("limits.max_download_size", &dst.MaxDownloadSize),
		})
	}
}

// fileSize decodes a size in bytes between 1 and maxMaxFileSize.
func (d *decoder) fileSize(key string, dst *int64) func(*yaml.Node) error {
	return func(v *yaml.Node) error {
		var n int
		if err := d.int(key, &n)(v); err != nil {
			return err
		}
		if n < 1 || n > maxMaxFileSize {
			return d.errorf(v, "%s: want a size in bytes from 1 to %d (256 MiB), got %d", key, maxMaxFileSize, n)
		}
		*dst = int64(n)
		return nil
	}
}

// downloadSize decodes a size in bytes between 1 and maxMaxDownloadSize.
func (d *decoder) downloadSize(key string, dst *int64) func(*yaml.Node) error {
	return func(v *yaml.Node) error {
		var n int
		if err := d.int(key, &n)(v); err != nil {
			return err
		}
		if n < 1 || n > maxMaxDownloadSize {
			return d.errorf(v, "%s: want a size in bytes from 1 to %d (64 GiB), got %d", key, maxMaxDownloadSize, n)
		}
		*dst = int64(n)
		return nil
	}
}

// duration decodes a Go duration ("90s", "5m") between minDimensionTimeout and
// maxDimensionTimeout.
func (d *decoder) duration(key string, dst *time.Duration) func(*yaml.Node) error {
	return func(v *yaml.Node) error {
		if v.Kind != yaml.ScalarNode || v.Tag != "!!str" {
			return d.errorf(v, "%s: want a duration such as \"5m\" or \"90s\", got %s", key, describe(v))
		}
		t, err := time.ParseDuration(v.Value)
		if err != nil {
			return d.errorf(v, "%s: want a duration such as \"5m\" or \"90s\", got %q", key, v.Value)
		}
		if t < minDimensionTimeout || t > maxDimensionTimeout {
			return d.errorf(v, "%s: want a duration from %s to %s, got %s", key, minDimensionTimeout, fmt.Sprint(maxDimensionTimeout), t)
		}
		*dst = t
		return nil
	}
}

// FileSize is MaxFileSize, or its default when unset (a Policy built in code).
func (l Limits) FileSize() int64 {
	if l.MaxFileSize <= 0 {
		return DefaultMaxFileSize
	}
	return l.MaxFileSize
}

// DownloadSize is MaxDownloadSize, or its default when unset (a Policy built in code).
func (l Limits) DownloadSize() int64 {
	if l.MaxDownloadSize <= 0 {
		return DefaultMaxDownloadSize
	}
	return l.MaxDownloadSize
}

// Timeout is DimensionTimeout, or its default when unset (a Policy built in code).
func (l Limits) Timeout() time.Duration {
	if l.DimensionTimeout <= 0 {
		return DefaultDimensionTimeout
	}
	return l.DimensionTimeout
}
