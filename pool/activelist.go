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
	active   []int32 // live slots in the order they were acquired
	inactive []int32 // ring buffer: a FIFO of the Cap-n free slots
	head     int     // next slot to dequeue
}

func (s *activeListSlots) init(gen []uint32) {
	n := len(gen)
	s.active = reuse(s.active, n)[:0]
	s.inactive = reuse(s.inactive, n)
	s.head = 0
	free := 0
	for i, g := range gen {
		if g&1 == 1 {
			s.active = append(s.active, int32(i))
		} else {
			s.inactive[free] = int32(i)
			free++
		}
	}
}

// acquire dequeues a free slot and appends it to the active list, whose
// array New sized for every slot, so it never grows.
func (s *activeListSlots) acquire() int32 {
	i := s.inactive[s.head]
	if s.head++; s.head == len(s.inactive) {
		s.head = 0
	}
	s.active = s.active[:len(s.active)+1]
	s.active[len(s.active)-1] = i
	return i
}

// release removes i from the active list by search, as the seed does, and
// enqueues it behind the Cap-n free slots; it returns the entries examined.
func (s *activeListSlots) release(i int32, n int) uint64 {
	for k, v := range s.active {
		if v == i {
			s.active = append(s.active[:k], s.active[k+1:]...)
			tail := s.head + len(s.inactive) - n
			if tail >= len(s.inactive) {
				tail -= len(s.inactive)
			}
			s.inactive[tail] = i
			return uint64(k + 1)
		}
	}
	panic("pool: activelist: live slot missing from the active list")
}

func (s *activeListSlots) fill(c *cursor) { fillBack(s.active, c) }

func (s *activeListSlots) overhead() int { return int32s(s.active) + int32s(s.inactive) }
