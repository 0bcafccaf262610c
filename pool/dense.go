// Strategy dense: beyond the seeds — a sparse set.
//
// dense is a permutation of the slot numbers not retired: its first n are the
// live slots, the rest the free ones; sparse maps a slot back to its place in
// dense. Acquire takes dense[n]; Release swaps the slot with the last live
// entry. The items themselves never move: only slot numbers are swapped, so
// pointers stay valid.
//
// Cost: Acquire O(1); Release O(1); iteration O(active), walking the live
// prefix of dense. Memory: two int32 per slot.
//
// Trade-off: constant time everywhere and iteration that touches only live
// items, the best of activelist and freelist, at the price of an
// indirection per item when iterating, so live items are visited in an
// order that is not memory order.

package pool

// denseSlots takes the live count n from the pool, which keeps it.
type denseSlots struct {
	dense  []int32 // the n live slots, then the free slots; retired ones are left out
	sparse []int32 // slot -> its index in dense
}

func (s *denseSlots) init(gen []uint32) {
	s.dense = reuse(s.dense, len(gen))[:0]
	s.sparse = reuse(s.sparse, len(gen))
	s.appendSlots(gen, true)
	s.appendSlots(gen, false)
}

// appendSlots appends the live slots, or the free ones; retired slots are
// neither.
func (s *denseSlots) appendSlots(gen []uint32, live bool) {
	for i, g := range gen {
		if g&1 == 1 && live || free(g) && !live {
			s.sparse[i] = int32(len(s.dense))
			s.dense = append(s.dense, int32(i))
		}
	}
}

func (s *denseSlots) acquire(n int) int32 { return s.dense[n] }

// release swaps i with the last of the n live slots.
func (s *denseSlots) release(i int32, n int) {
	k, last := s.sparse[i], n-1
	moved := s.dense[last]
	s.dense[k], s.sparse[moved] = moved, k
	s.dense[last], s.sparse[i] = i, int32(last)
}

// retire drops free slot i from dense, moving the last entry into its place.
func (s *denseSlots) retire(i int32) {
	k, last := s.sparse[i], len(s.dense)-1
	moved := s.dense[last]
	s.dense[k], s.sparse[moved] = moved, k
	s.dense = s.dense[:last]
}

func (s *denseSlots) fill(c *cursor, n int) { fillBack(s.dense[:n], c) }

func (s *denseSlots) overhead() int { return int32s(s.dense) + int32s(s.sparse) }
