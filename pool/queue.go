// Strategy queue: seed 001's generic Pool collection.
//
// Seed 001 ("A Generic Pool Collection Class") stores the items in an array
// of Nodes that know their own index, keeps the available nodes in a Queue
// so Get and Return are O(1), and keeps the active flags in a separate bool
// array so users cannot flip them. Enumeration walks the array and yields
// the nodes whose flag is set.
//
// Cost: Acquire O(1) dequeue; Release O(1) enqueue; iteration O(capacity),
// testing every flag. Memory: one int32 and one bool per slot.
//
// Trade-off: constant-time both ways with simple code, but the FIFO hands
// out the least recently used slot, which is the coldest in cache, and
// iteration walks the whole capacity however few items are live.

package pool

type queueSlots struct {
	active []bool
	ring   []int32 // FIFO of the Cap-n free slots
	head   int     // next slot to dequeue
}

func (s *queueSlots) init(gen []uint32) {
	n := len(gen)
	s.active = reuse(s.active, n)
	s.ring = reuse(s.ring, n)
	s.head = 0
	free := 0
	for i, g := range gen {
		s.active[i] = g&1 == 1
		if !s.active[i] {
			s.ring[free] = int32(i)
			free++
		}
	}
}

func (s *queueSlots) acquire() int32 {
	i := s.ring[s.head]
	if s.head++; s.head == len(s.ring) {
		s.head = 0
	}
	s.active[i] = true
	return i
}

// release enqueues i behind the Cap-n free slots; n, the live count, comes
// from the pool, so only acquire moves the queue's own state.
func (s *queueSlots) release(i int32, n int) {
	s.active[i] = false
	tail := s.head + len(s.ring) - n
	if tail >= len(s.ring) {
		tail -= len(s.ring)
	}
	s.ring[tail] = i
}

func (s *queueSlots) fill(c *cursor) { fillFlags(s.active, c) }

func (s *queueSlots) overhead() int { return cap(s.active) + int32s(s.ring) }
