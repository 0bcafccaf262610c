// Strategy bitset: beyond the seeds.
//
// One bit per slot in 64-bit words, set while the slot is live. Acquire
// looks for a word with a clear bit, starting at the lowest word that may
// have one, and takes its lowest clear bit with bits.TrailingZeros64.
// Iteration skips empty words, walks the set bits of sparse ones, and hands
// words at least half full to the loop as runs of slots: testing 64 slots
// costs less than listing 32 set bits.
//
// Cost: Acquire O(1) amortised — O(capacity/64) words in the worst case,
// each counted in Stats.Probes; Release O(1); iteration O(capacity/64 +
// active). Memory: one bit per slot.
//
// Trade-off: the smallest bookkeeping of all and near-dense iteration when
// live items cluster, at the price of bit twiddling on every operation; it
// hands out the lowest free slot, which keeps live items packed at the
// front.

package pool

import "math/bits"

type bitsetSlots struct {
	used  []uint64
	last  uint64 // valid bits of the last word
	hint  int    // no word below this one has a clear bit
	slots int    // the capacity, where the last run ends
}

func (s *bitsetSlots) init(gen []uint32) {
	n := len(gen)
	s.used = reuse(s.used, (n+63)/64)
	clear(s.used)
	s.last = ^uint64(0) >> (uint(-n) & 63)
	s.hint, s.slots = 0, n
	for i, g := range gen {
		if !free(g) {
			s.used[i/64] |= 1 << (i % 64)
		}
	}
}

func (s *bitsetSlots) acquire() (int32, uint64) {
	for w := s.hint; ; w++ {
		free := ^s.used[w]
		if w == len(s.used)-1 {
			free &= s.last
		}
		if free != 0 {
			b := bits.TrailingZeros64(free)
			s.used[w] |= 1 << b
			probes := uint64(w - s.hint + 1)
			s.hint = w
			return int32(w*64 + b), probes
		}
	}
}

func (s *bitsetSlots) release(i int32) {
	w := int(i) / 64
	s.used[w] &^= 1 << (i % 64)
	s.hint = min(s.hint, w)
}

func (s *bitsetSlots) fill(c *cursor) {
	w := c.pos
	// Consecutive dense words make a run: no slot numbers to write out.
	for w < len(s.used) && dense(s.used[w]) {
		w++
	}
	if w > c.pos {
		c.lo, c.hi = c.pos*64, min(w*64, s.slots)
		c.pos, c.done = w, w == len(s.used)
		return
	}
	n := 0
	for ; w < len(s.used) && n <= batch-64 && !dense(s.used[w]); w++ {
		for x := s.used[w]; x != 0; x &= x - 1 {
			c.buf[n] = int32(w*64 + bits.TrailingZeros64(x))
			n++
		}
	}
	c.n, c.pos, c.done = n, w, w == len(s.used)
}

// dense reports whether a word is at least half full.
func dense(word uint64) bool { return bits.OnesCount64(word) >= 32 }

func (s *bitsetSlots) overhead() int { return 8 * cap(s.used) }
