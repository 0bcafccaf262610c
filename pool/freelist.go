// Strategy freelist: seed 004's intrusive free list.
//
// Seed 004 ("Does Flyweight pattern really help in memory management?")
// threads the free objects into a singly linked list through a next pointer
// stored in the objects themselves: getting pops the head (freshPiece),
// returning pushes onto it. Here the link of slot i is next[i], an int32 in
// an array indexed like the slots, since Go will not let a generic pool
// write into the caller's T without unsafe; the list is still threaded
// through the free slots themselves, with no stack of slot numbers to keep.
//
// Cost: Acquire O(1) pop; Release O(1) push; iteration O(capacity) over the
// slot generations. Memory: one int32 per slot.
//
// Trade-off: the fastest acquire/release pair there is, and LIFO reuse keeps
// the slot just released — the warmest in cache — next in line; but it
// knows nothing of the live items, so iteration walks the whole capacity.

package pool

type freeListSlots struct {
	next []int32 // for a free slot: the next free slot, -1 at the end
	head int32   // freshPiece: the first free slot, -1 when none
}

func (s *freeListSlots) init(gen []uint32) {
	s.next = reuse(s.next, len(gen))
	s.head = -1
	for i := len(gen) - 1; i >= 0; i-- {
		if free(gen[i]) {
			s.next[i] = s.head
			s.head = int32(i)
		}
	}
}

func (s *freeListSlots) acquire() int32 {
	i := s.head
	s.head = s.next[i]
	return i
}

func (s *freeListSlots) release(i int32) {
	s.next[i] = s.head
	s.head = i
}

func (s *freeListSlots) overhead() int { return int32s(s.next) }
