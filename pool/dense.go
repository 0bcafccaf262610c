// Strategy dense: beyond the seeds — a sparse set.
//
// dense is a permutation of all slot numbers: its first n entries are the
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
	dense  []int32 // the n live slots, then the free slots
	sparse []int32 // slot -> its index in dense
}

func (s *denseSlots) init(gen []uint32) {
	s.dense = reuse(s.dense, len(gen))[:0]
	s.sparse = reuse(s.sparse, len(gen))
	s.appendSlots(gen, 1)
	s.appendSlots(gen, 0)
}

// appendSlots appends the slots whose generation has the given parity: live
// ones first, then free ones.
func (s *denseSlots) appendSlots(gen []uint32, parity uint32) {
	for i, g := range gen {
		if g&1 == parity {
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

func (s *denseSlots) fill(c *cursor, n int) { fillBack(s.dense[:n], c) }

func (s *denseSlots) overhead() int { return int32s(s.dense) + int32s(s.sparse) }
