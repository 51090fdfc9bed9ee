package gitchange

import (
	"path"
	"sort"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/agentverify/agentverify/change"
)

// Renames are found as 'git diff -M' finds them (diffcore-rename), so that the gate and
// git agree on which paths a change renames: first the exact renames (same blob), then
// the pairs whose names end alike and that are at least 75% similar, then every remaining
// pair at least 50% similar, the most similar first. Similarity is git's estimate: both
// files cut into spans (a line, or 64 bytes), hashed, and the share of the larger file's
// bytes found in the other.

const (
	maxScore = 60000 // git's MAX_SCORE: 100%
	// minScore is git's default rename threshold (-M50%).
	minScore = maxScore / 2
	// minBasenameScore is the threshold of a pair whose names end alike (git's basename
	// factor 0.5: halfway between minScore and 100%).
	minBasenameScore = minScore + (maxScore-minScore)/2
	// renameLimit is git's diff.renameLimit default: beyond limit² candidate pairs, only
	// exact renames are found.
	renameLimit = 1000
	// candidatesPerDst is how many sources git keeps for each destination.
	candidatesPerDst = 4
)

// renamer finds the renames between the deleted and created paths of a change.
type renamer struct {
	base, head side
	src, dst   []string // deleted and created paths, sorted
	srcUsed    map[string]bool
	from       map[string]string // created path -> deleted path
	spans      map[string]spanCount
	sizes      map[string]int64
}

// renames pairs created with deleted files as git diff -M does; the map goes from the
// created path to the deleted one.
func renames(base, head side, created, deleted []string) (map[string]string, error) {
	r := &renamer{base: base, head: head, src: deleted, dst: created,
		srcUsed: map[string]bool{}, from: map[string]string{}, spans: map[string]spanCount{}, sizes: map[string]int64{}}
	if len(created) == 0 || len(deleted) == 0 {
		return r.from, nil
	}
	r.exact()
	if err := r.byBasename(); err != nil {
		return nil, err
	}
	if err := r.inexact(); err != nil {
		return nil, err
	}
	return r.from, nil
}

// exact pairs each created path with a deleted one of the same blob (and mode, unless
// both are regular files), preferring a source whose name ends alike.
func (r *renamer) exact() {
	byHash := map[string][]string{}
	for _, p := range r.src {
		h := r.base.files[p].hash.String()
		byHash[h] = append(byHash[h], p)
	}
	for _, d := range r.dst {
		de := r.head.files[d]
		best, bestScore := "", -1
		for _, s := range byHash[de.hash.String()] {
			se := r.base.files[s]
			if r.srcUsed[s] || !(isRegular(se.mode) && isRegular(de.mode)) && se.mode != de.mode {
				continue
			}
			if score := basenameSame(s, d); score > bestScore {
				best, bestScore = s, score
				if score == 1 {
					break
				}
			}
		}
		if best != "" {
			r.pair(d, best)
		}
	}
}

func (r *renamer) pair(dst, src string) {
	r.from[dst] = src
	r.srcUsed[src] = true
}

// remaining returns the sources and destinations not paired yet.
func (r *renamer) remaining() (src, dst []string) {
	for _, s := range r.src {
		if !r.srcUsed[s] {
			src = append(src, s)
		}
	}
	for _, d := range r.dst {
		if _, ok := r.from[d]; !ok {
			dst = append(dst, d)
		}
	}
	return src, dst
}

// byBasename pairs a source and a destination whose file name is unique among the
// remaining sources and among the remaining destinations, when they are similar enough.
func (r *renamer) byBasename() error {
	src, dst := r.remaining()
	srcs, dsts := uniqueBasenames(src), uniqueBasenames(dst)
	for _, s := range src {
		b := path.Base(s)
		d, ok := dsts[b]
		if !ok || srcs[b] != s || d == "" {
			continue
		}
		score, err := r.similarity(s, d)
		if err != nil {
			return err
		}
		if score >= minBasenameScore {
			r.pair(d, s)
		}
	}
	return nil
}

// uniqueBasenames maps each file name to its path, or to "" when several paths have it.
func uniqueBasenames(paths []string) map[string]string {
	out := map[string]string{}
	for _, p := range paths {
		b := path.Base(p)
		if _, ok := out[b]; ok {
			out[b] = ""
		} else {
			out[b] = p
		}
	}
	return out
}

// candidate is one scored pair of the inexact search.
type candidate struct {
	src, dst  int
	score     int
	nameScore int
}

// inexact pairs the remaining destinations with the most similar remaining sources, the
// most similar pairs first, each source at most once.
func (r *renamer) inexact() error {
	src, dst := r.remaining()
	if len(src) == 0 || len(dst) == 0 || len(src)*len(dst) > renameLimit*renameLimit {
		return nil
	}
	var all []candidate
	for di, d := range dst {
		var best []candidate
		for si, s := range src {
			score, err := r.similarity(s, d)
			if err != nil {
				return err
			}
			best = keepBest(best, candidate{src: si, dst: di, score: score, nameScore: basenameSame(s, d)})
		}
		all = append(all, best...)
	}
	sort.SliceStable(all, func(i, j int) bool { return better(all[i], all[j]) })
	for _, c := range all {
		if c.score < minScore {
			break
		}
		if _, done := r.from[dst[c.dst]]; done || r.srcUsed[src[c.src]] {
			continue
		}
		r.pair(dst[c.dst], src[c.src])
	}
	return nil
}

// better orders candidates as git does: higher score, then names that end alike.
func better(a, b candidate) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.nameScore > b.nameScore
}

// keepBest keeps the candidatesPerDst best candidates of one destination: a new one
// replaces the worst kept when it is better.
func keepBest(kept []candidate, c candidate) []candidate {
	if len(kept) < candidatesPerDst {
		return append(kept, c)
	}
	worst := 0
	for i := 1; i < len(kept); i++ {
		if better(kept[worst], kept[i]) {
			worst = i
		}
	}
	if better(c, kept[worst]) {
		kept[worst] = c
	}
	return kept
}

// similarity is git's estimate of how much of the larger of src and dst comes from src,
// out of maxScore; 0 for anything but two regular files, or sizes too far apart.
func (r *renamer) similarity(src, dst string) (int, error) {
	se, de := r.base.files[src], r.head.files[dst]
	if !isRegular(se.mode) || !isRegular(de.mode) {
		return 0, nil
	}
	ss, err := r.spanCount(r.base, "b:", src)
	if err != nil {
		return 0, err
	}
	ds, err := r.spanCount(r.head, "h:", dst)
	if err != nil || ss == nil || ds == nil {
		return 0, err
	}
	srcSize, dstSize := r.sizes["b:"+src], r.sizes["h:"+dst]
	maxSize, baseSize := max(srcSize, dstSize), min(srcSize, dstSize)
	if maxSize*(maxScore-minScore) < (maxSize-baseSize)*maxScore || maxSize == 0 {
		return 0, nil
	}
	return int(copied(ss, ds) * maxScore / uint64(maxSize)), nil
}

// spanCount returns the span hashes of a file, read once; nil when it is not loaded (over
// the size limit).
func (r *renamer) spanCount(s side, prefix, p string) (spanCount, error) {
	key := prefix + p
	if c, ok := r.spans[key]; ok {
		return c, nil
	}
	data, size, err := s.read(p, s.files[p])
	if err != nil {
		return nil, err
	}
	var c spanCount
	if data != nil || size == 0 {
		c = countSpans(data)
	}
	r.spans[key], r.sizes[key] = c, size
	return c, nil
}

func isRegular(m filemode.FileMode) bool {
	return m == filemode.Regular || m == filemode.Executable || m == filemode.Deprecated
}

// basenameSame is 1 when both paths have the same file name.
func basenameSame(a, b string) int {
	if path.Base(a) == path.Base(b) {
		return 1
	}
	return 0
}

// spanCount is how many bytes of a file fall in spans of each hash.
type spanCount map[uint32]uint64

// hashBase is git's modulus for span hashes (a prime between 2^16 and 2^17).
const hashBase = 107927

// countSpans cuts data into spans that end at a newline or after 64 bytes and adds up
// the bytes per span hash, as git's diffcore-delta does; in text, the CR of a CRLF is
// left out.
func countSpans(data []byte) spanCount {
	out := spanCount{}
	text := !change.IsBinary(data)
	var acc1, acc2 uint32
	n := uint64(0)
	for i := 0; i < len(data); i++ {
		c := uint32(data[i])
		if text && c == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			continue
		}
		old1 := acc1
		acc1 = acc1<<7 ^ acc2>>25
		acc2 = acc2<<7 ^ old1>>25
		acc1 += c
		n++
		if n < 64 && c != '\n' {
			continue
		}
		out[(acc1+acc2*0x61)%hashBase] += n
		n, acc1, acc2 = 0, 0, 0
	}
	return out // a last span with no newline counts for nothing, as in git
}

// copied is how many bytes of dst come from src: per span hash, the smaller count.
func copied(src, dst spanCount) uint64 {
	var sc uint64
	for h, s := range src {
		sc += min(s, dst[h])
	}
	return sc
}
