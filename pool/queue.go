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
	free   freeRing
}

func (s *queueSlots) init(gen []uint32) {
	s.active = reuse(s.active, len(gen))
	for i, g := range gen {
		s.active[i] = g&1 == 1
	}
	s.free.init(gen)
}

func (s *queueSlots) acquire() int32 {
	i := s.free.take()
	s.active[i] = true
	return i
}

func (s *queueSlots) release(i int32, n int) {
	s.active[i] = false
	s.free.put(i, n)
}

func (s *queueSlots) fill(c *cursor) { fillFlags(s.active, c) }

func (s *queueSlots) overhead() int { return cap(s.active) + s.free.overhead() }

// freeRing is a FIFO of the free slots in a ring with room for every slot
// not retired: the queue of available nodes of seed 001, and the inactive
// queue of seed 003. With n items live it holds the len(ring)-n free slots
// from head on, so its tail follows from n, which the pool keeps: only take
// moves the ring's own state.
type freeRing struct {
	ring []int32
	head int // the next slot to take
}

func (r *freeRing) init(gen []uint32) {
	r.ring = reuse(r.ring, len(gen)-retired(gen))
	r.head = 0
	k := 0
	for i, g := range gen {
		if free(g) {
			r.ring[k] = int32(i)
			k++
		}
	}
}

// take dequeues the free slot that has waited longest.
func (r *freeRing) take() int32 {
	i := r.ring[r.head]
	if r.head++; r.head == len(r.ring) {
		r.head = 0
	}
	return i
}

// put enqueues slot i behind the len(ring)-n free slots.
func (r *freeRing) put(i int32, n int) {
	tail := r.head + len(r.ring) - n
	if tail >= len(r.ring) {
		tail -= len(r.ring)
	}
	r.ring[tail] = i
}

func (r *freeRing) overhead() int { return int32s(r.ring) }
