// Strategy activelist: seeds 002 and 003.
//
// Seed 002 kept two arrays, activeParticles and particlesPool, and on death
// spliced the particle out of the active array; seed 003's ObjectPool keeps a
// List of active items and a Queue of inactive ones, and its Return calls
// activeItems.Remove(item). Both remove from the active list by search.
//
// Cost: Acquire O(1) — dequeue an inactive slot, append it to the active
// list; Release O(active) — search the active list (counted in
// Stats.Probes) and shift the rest down to keep the order; iteration
// O(active), walking the active list. Memory: two int32 per slot.
//
// Trade-off: iteration touches only live items, but every release pays a
// search and a shift proportional to the number of live items, so it is
// slowest exactly when the pool is fullest.

package pool

type activeListSlots struct {
	active   []int32  // live slots in the order they were acquired
	inactive freeRing // the free slots, first in first out
}

func (s *activeListSlots) init(gen []uint32) {
	s.active = reuse(s.active, len(gen))[:0]
	for i, g := range gen {
		if g&1 == 1 {
			s.active = append(s.active, int32(i))
		}
	}
	s.inactive.init(gen)
}

// acquire dequeues a free slot and appends it to the active list.
func (s *activeListSlots) acquire() int32 {
	i := s.inactive.take()
	s.active = push(s.active, i)
	return i
}

// release removes i from the active list by search, as the seed does, and
// enqueues it behind the Cap-n free slots; it returns the entries examined.
func (s *activeListSlots) release(i int32, n int) uint64 {
	for k, v := range s.active {
		if v == i {
			s.active = append(s.active[:k], s.active[k+1:]...)
			s.inactive.put(i, n)
			return uint64(k + 1)
		}
	}
	panic("pool: activelist: live slot missing from the active list")
}

func (s *activeListSlots) fill(c *cursor) { fillBack(s.active, c) }

func (s *activeListSlots) overhead() int { return int32s(s.active) + s.inactive.overhead() }
