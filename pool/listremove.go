// Strategy listremove: seed 000's first version.
//
// Seed 000 ("Entity Pooling") kept the free entities in a List and took one
// with `Returnee = EntityList[Count-1]; EntityList.Remove(Returnee)`.
// List.Remove searches from the front for the item it is given, so taking
// the last element still walks the whole list. Release re-adds the item.
//
// Cost: Acquire O(free) — the search examines every free slot to find the
// last one (counted in Stats.Probes); Release O(1) append; iteration
// O(capacity) over the slot generations. Memory: one int32 per slot.
//
// Trade-off: the most obvious code, with an acquire cost that grows with the
// number of free items, so it is slowest exactly when the pool is emptiest.

package pool

type listRemoveSlots struct {
	free []int32 // the seed's EntityList
}

func (s *listRemoveSlots) init(gen []uint32) { s.free = freeStack(s.free, gen) }

func (s *listRemoveSlots) acquire() (int32, uint64) {
	want := s.free[len(s.free)-1]
	// Remove(want): search from the front, then close the gap.
	for k, v := range s.free {
		if v == want {
			s.free = append(s.free[:k], s.free[k+1:]...)
			return want, uint64(k + 1)
		}
	}
	panic("pool: listremove: free list lost its last element")
}

func (s *listRemoveSlots) release(i int32) { s.free = push(s.free, i) }

func (s *listRemoveSlots) overhead() int { return int32s(s.free) }
