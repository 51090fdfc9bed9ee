package checktest

// An Option changes how Run runs a suite.
type Option func(*options)

type options struct {
	shortEvery int // under -short, one case in shortEvery runs; 0: all
}

// ShortSample makes Run, under go test -short, run one case in every n (the first of
// each n, in name order); the others skip, saying so. The full suite runs every case. It
// is for suites whose cases each start a real tool (pyright, tsc) or fill empty caches,
// where a case costs seconds.
func ShortSample(n int) Option {
	return func(o *options) { o.shortEvery = n }
}
