// Slab: the freelist strategy (seed 004) as a type of its own.
//
// Pool selects its strategy with a switch, which puts its Acquire and
// Release far over the compiler's inlining budget: each is a call, and the
// call and the switch cost as much as the free list itself. Slab has the
// one strategy and no switch, and keeps no counter the contract does not
// need, so that Acquire and Release fit the budget and are inlined into the
// caller. TestInlines guards that. Each slot holds its item, its
// generation and its free-list link side by side, as seed 001's nodes do,
// so a call indexes one slice, not two. Once nothing is a call, a pair's
// time follows its instruction count more than its chains of dependent
// loads: a variant with shorter chains but more instructions was slower,
// and this layout, which saves a slice's bounds checks and index
// arithmetic per call, is faster than one that keeps generations and
// links apart from the items.
//
// The free list holds released slots only; slots never used since NewSlab
// or Clear are taken in order from a bump index, fresh, once the list is
// empty. That makes NewSlab and Clear O(1) in the untouched slots and gives
// the high-water mark for free: a fresh slot is taken only when every slot
// before it is live, so the most items ever live at once is fresh.
//
// Cost: Acquire O(1) pop or bump; Release O(1) push; iteration O(fresh),
// the slots used since NewSlab or Clear, reading each slot's generation.
// Memory: 8 bytes per slot beyond the item, generation and link, plus any
// padding the item leaves.
//
// Trade-off: the fastest pair with the whole contract, about three times
// as fast as Pool's freelist; but no SetStrategy, and iteration strides
// over whole slots to read the generations, so a sparse slab iterates
// slower than Pool's freelist, whose generations are packed; and any work
// added to Acquire or Release would push them over the budget.

package pool

import (
	"iter"
	"unsafe"
)

// Slab is a fixed-capacity pool with the freelist strategy built in. It
// keeps Pool's whole contract (handles with generations, ErrStale for a
// zero, stale, double or foreign handle, zeroing, the Stats counters) but
// cannot switch strategy. In exchange Acquire, Release and Get are small
// enough for the compiler to inline into the caller: no call and no
// strategy switch, which makes a release+acquire pair about three times
// as fast as Pool's. Handles of a Slab and of a Pool are foreign to each
// other.
//
// Use Slab when the strategy is settled; use Pool to compare strategies on
// live data. The zero Slab is not usable; create one with NewSlab. A Slab
// is not safe for concurrent use.
type Slab[T any] struct {
	id    uint32
	head  int32         // the first released slot, -1 when none
	fresh int32         // slots fresh.. are unused since NewSlab or Clear
	slots []slabSlot[T] // every slot with its item, allocated once by NewSlab

	acquires, releases uint64 // Len is their difference
	misses, rejects    uint64
	highWater          int32 // the high-water mark before the last Clear; since, it is fresh
}

// slabSlot is a slot: its item, first so that a pointer to the slot is a
// pointer to the item; its generation, odd while live; and while on the
// free list, 1 + the next slot on it, 0 at the end, so that a slot never
// used, all zero, ends the list too and Acquire pops a fresh slot the way
// it pops a released one.
type slabSlot[T any] struct {
	item T
	gen  uint32
	next int32
}

// NewSlab returns an empty slab of the given capacity, 1..MaxCapacity. It
// allocates every item; nothing the slab does later allocates.
func NewSlab[T any](capacity int) (*Slab[T], error) {
	if err := checkCapacity(capacity); err != nil {
		return nil, err
	}
	return &Slab[T]{id: poolIDs.Add(1), head: -1, slots: make([]slabSlot[T], capacity)}, nil
}

// Acquire takes a free item and returns its handle and a pointer to it, as
// [Pool.Acquire] does: the item is zeroed, and a full slab returns
// ok == false, counts a miss and allocates nothing.
func (s *Slab[T]) Acquire() (h Handle, item *T, ok bool) {
	slots, i := s.slots, s.head
	if i < 0 {
		// The list is empty: every slot below fresh is live.
		if int(s.fresh) >= len(slots) {
			s.misses++
			return // the zero Handle, nil, false
		}
		i = s.fresh
		s.fresh++
	}
	sl := &slots[i]
	s.head = sl.next - 1 // a fresh slot's 0 leaves the list empty
	sl.gen++
	s.acquires++
	return Handle{pool: s.id, slot: uint32(i), gen: sl.gen}, &sl.item, true
}

// Release returns the item named by h to the slab and zeroes it, as
// [Pool.Release] does: a handle that is not live in this slab gets
// ErrStale, is counted as a reject and leaves the slab unchanged.
func (s *Slab[T]) Release(h Handle) error {
	// The liveness check is spelled out here and in Get: as a shared
	// helper it puts Release over the inlining budget.
	if h.slot < uint32(len(s.slots)) {
		sl := &s.slots[h.slot]
		if sl.gen == h.gen && h.gen&1 == 1 && h.pool == s.id {
			sl.gen, sl.next = h.gen+1, s.head+1
			s.head = int32(h.slot)
			s.releases++
			var zero T
			sl.item = zero
			return nil
		}
	}
	s.rejects++
	return ErrStale
}

// Get returns the item named by h, or ok == false when h is not live in
// this slab.
func (s *Slab[T]) Get(h Handle) (item *T, ok bool) {
	if h.slot < uint32(len(s.slots)) {
		if sl := &s.slots[h.slot]; sl.gen == h.gen && h.gen&1 == 1 && h.pool == s.id {
			return &sl.item, true
		}
	}
	return nil, false
}

// All returns an iterator over every live item, each exactly once, in slot
// order. Releasing the current item inside the loop is allowed; items
// acquired inside the loop may or may not be visited. Only the slots used
// since NewSlab or Clear are walked: below the high-water mark.
func (s *Slab[T]) All() iter.Seq2[Handle, *T] {
	return func(yield func(Handle, *T) bool) {
		// Locals, since the loop body may write to *s: the slice never
		// changes, and each slot's generation is read afresh.
		id, slots := s.id, s.slots[:s.fresh]
		for i := range slots {
			if g := slots[i].gen; g&1 == 1 && !yield(Handle{pool: id, slot: uint32(i), gen: g}, &slots[i].item) {
				return
			}
		}
	}
}

// Len returns the number of live items.
func (s *Slab[T]) Len() int { return int(s.acquires - s.releases) }

// Cap returns the capacity fixed by NewSlab.
func (s *Slab[T]) Cap() int { return len(s.slots) }

// Clear releases every live item: all handles become stale. Each counts as
// a release.
func (s *Slab[T]) Clear() {
	var zero T
	used := s.slots[:s.fresh]
	for i := range used {
		if used[i].gen&1 == 1 {
			used[i].gen++
			used[i].item = zero
		}
		used[i].next = 0 // fresh again: its link must end the list
	}
	s.releases = s.acquires
	s.highWater = max(s.highWater, s.fresh)
	s.head, s.fresh = -1, 0
}

// Stats returns the counters and the current occupancy. Strategy is
// FreeList, whose cost profile Slab has; Probes is one per Acquire;
// Overhead is a slot's size beyond its item, padding included.
func (s *Slab[T]) Stats() Stats {
	var slot slabSlot[T]
	return Stats{
		Strategy:  FreeList,
		Capacity:  len(s.slots),
		Active:    s.Len(),
		HighWater: int(max(s.highWater, s.fresh)),
		Acquires:  s.acquires,
		Misses:    s.misses,
		Releases:  s.releases,
		Rejects:   s.rejects,
		Probes:    s.acquires,
		Overhead:  len(s.slots) * int(unsafe.Sizeof(slot)-unsafe.Sizeof(slot.item)),
	}
}
