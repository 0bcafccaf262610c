// Strategy alloc: the peer a Go user reaches for first — no pool at all.
//
// Seed: none; this is the baseline the seeds set out to beat ("memory
// allocation in run time can be pretty heavy", seed 000).
//
// Cost: Acquire is one new(T) (a heap allocation, ~35 ns for a 48-byte
// struct) plus an O(1) pop of a slot number; Release is O(1) and drops the
// item for the garbage collector; iteration is O(capacity) over the slot
// generations. Memory: a pointer and a generation per slot; the items
// themselves come and go on the heap.
//
// Trade-off: the simplest code and no memory held while idle, paid for with
// an allocation per spawn and garbage-collector work proportional to the
// spawn rate. The capacity is still enforced, as a count, so that it does
// exactly the work of the pooled strategies.

package pool

// heapSlots hands out slot numbers for the two peers, alloc and syncpool,
// whose items live on the heap: a LIFO stack of free slot numbers. Only the
// slots are pooled; the items are not. Its length is the slots not
// retired; with n items live it holds len(free)-n slots, so its top is
// found from n, which the pool keeps.
type heapSlots struct {
	free []int32 // free[:len(free)-n]: the free slots, the top last
}

func (s *heapSlots) init(gen []uint32) {
	s.free = freeStack(s.free, gen)[:len(gen)-retired(gen)]
}

func (s *heapSlots) acquire(n int) int32 { return s.free[len(s.free)-n-1] }

func (s *heapSlots) release(i int32, n int) { s.free[len(s.free)-n] = i }

func (s *heapSlots) overhead() int { return int32s(s.free) }
