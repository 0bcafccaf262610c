// Strategy scan: seed 000's "Poolean".
//
// Seed 000's second version never removes anything: each item has an InUse
// flag, and a CurrentFreeIndex cursor names the next free item. GetPoolable
// takes the item at the cursor and then scans forward from it, wrapping
// around, for the next item not in use. ReturnPoolable only clears the flag.
//
// Cost: Acquire O(1) when the slot after the cursor is free, up to
// O(capacity) when the pool is nearly full — every flag examined counts in
// Stats.Probes; Release O(1); iteration O(capacity), testing every flag.
// Memory: one bool per slot and the cursor.
//
// Trade-off: a release is as cheap as it gets, and a mostly empty pool
// acquires in one step, but acquire degrades into a linear scan as the pool
// fills, and iteration always walks the whole capacity.

package pool

type scanSlots struct {
	used   []bool
	cursor int // CurrentFreeIndex: where the next Acquire looks first
}

func (s *scanSlots) init(gen []uint32) {
	s.used = reuse(s.used, len(gen))
	s.cursor = 0
	for i, g := range gen {
		s.used[i] = !free(g)
	}
}

func (s *scanSlots) acquire() (int32, uint64) {
	n := len(s.used)
	i, probes := s.cursor, uint64(1)
	// The cursor may name a slot taken since (a release elsewhere let the
	// pool refill after it ran full): scan on to a free one.
	for s.used[i] {
		if i++; i == n {
			i = 0
		}
		probes++
	}
	s.used[i] = true
	// GetNextAvailableElement: scan for the next free slot now, as the seed
	// does, so the cost lands on this Acquire.
	j := i
	for range n - 1 {
		if j++; j == n {
			j = 0
		}
		probes++
		if !s.used[j] {
			break
		}
	}
	s.cursor = j
	return int32(i), probes
}

func (s *scanSlots) release(i int32) { s.used[i] = false }

func (s *scanSlots) fill(c *cursor) { fillFlags(s.used, c) }

func (s *scanSlots) overhead() int { return cap(s.used) }

// fillFlags fills c with the slots whose flag is set: the iteration of the
// strategies that keep a flag per slot.
func fillFlags(flags []bool, c *cursor) {
	n, i := 0, c.pos
	for ; i < len(flags) && n < batch; i++ {
		if flags[i] {
			c.buf[n] = int32(i)
			n++
		}
	}
	c.n, c.pos, c.done = n, i, i == len(flags)
}
