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
// The free list holds the slots released since NewSlab, Clear or
// ResetStats (the mark); the other free slots wait, in slot order, on a
// second list, the spare one, which Acquire takes from only when the first
// is empty. The spare list links each slot to the next by their distance
// less one, so that slots never used, all zero, link to their neighbours:
// NewSlab and Clear make it without touching the untouched slots. It also
// gives the high-water mark for the price of a counter: the free list is
// empty only when every slot taken since the mark is live or retired, so
// each take from the spare list raises the count of taken slots above any
// it reached since.
//
// Cost: Acquire O(1) pop from either list; Release O(1) push; iteration
// O(used), the slots used since NewSlab or Clear, reading each slot's
// generation.
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
// zero, stale, double or foreign handle, a slot retired rather than let
// its generation wrap, zeroing, the Stats counters) but cannot switch
// strategy. In exchange Acquire, Release and Get are small enough for the
// compiler to inline into the caller: no call and no strategy switch,
// which makes a release+acquire pair about three times as fast as Pool's.
// Handles of a Slab and of a Pool are foreign to each other.
//
// Use Slab when the strategy is settled; use Pool to compare strategies on
// live data. The zero Slab is not usable; create one with NewSlab. A Slab
// is not safe for concurrent use.
type Slab[T any] struct {
	id    uint32
	head  int32         // the first slot on the free list, -1 when none
	spare int32         // the first slot on the spare list, len(slots) when none
	fresh int32         // slots max(fresh, spare).. are unused since NewSlab or Clear
	slots []slabSlot[T] // every slot with its item, allocated once by NewSlab

	acquires, releases uint64 // Len is their difference
	misses, rejects    uint64
	retired            int    // slots whose last release left them on no list
	base               uint64 // acquires before the last ResetStats, not counted by Stats
	// The high-water mark is the larger of highWater and the slots taken
	// (live or retired) at the mark, mark, plus rise, the takes from the
	// spare list since.
	highWater, mark, rise int32
}

// slabSlot is a slot: its item, first so that a pointer to the slot is a
// pointer to the item; its generation, odd while live; and its link: on
// the free list the next slot on it, -1 at the end; on the spare list
// the distance to the next slot on it less one, so that a slot never used,
// all zero, links to the slot after it.
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
	if i >= 0 {
		s.head = slots[i].next
	} else {
		if i = s.spare; int(i) >= len(slots) {
			s.misses++
			return // the zero Handle, nil, false
		}
		s.spare += slots[i].next + 1
		s.rise++
	}
	sl := &slots[i]
	sl.gen++
	s.acquires++
	return Handle{pool: s.id, slot: uint32(i), gen: sl.gen}, &sl.item, true
}

// Release returns the item named by h to the slab and zeroes it, as
// [Pool.Release] does: a handle that is not live in this slab gets
// ErrStale, is counted as a reject and leaves the slab unchanged.
func (s *Slab[T]) Release(h Handle) error {
	// The liveness check is spelled out here and in Get: as a shared
	// helper it puts Release over the inlining budget. Every handle of
	// this slab has an odd generation, so equal ones mean a live slot.
	if h.slot < uint32(len(s.slots)) {
		sl := &s.slots[h.slot]
		if sl.gen == h.gen && h.pool == s.id {
			sl.gen = h.gen + 1
			if sl.gen != retiredGen { // else it is retired: on no list
				sl.next, s.head = s.head, int32(h.slot)
			} else {
				s.retired++
			}
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
// since NewSlab or Clear are walked.
func (s *Slab[T]) All() iter.Seq2[Handle, *T] {
	return func(yield func(Handle, *T) bool) {
		// Locals, since the loop body may write to *s: the slice never
		// changes, and each slot's generation is read afresh.
		id, slots := s.id, s.slots[:s.used()]
		for i := range slots {
			if g := slots[i].gen; g&1 == 1 && !yield(Handle{pool: id, slot: uint32(i), gen: g}, &slots[i].item) {
				return
			}
		}
	}
}

// used returns how many slots, from the first, were used since NewSlab or
// Clear: the spare list takes unused ones in order, after any below fresh.
func (s *Slab[T]) used() int32 { return max(s.fresh, s.spare) }

// Len returns the number of live items.
func (s *Slab[T]) Len() int { return int(s.acquires - s.releases) }

// Cap returns the capacity fixed by NewSlab.
func (s *Slab[T]) Cap() int { return len(s.slots) }

// Clear releases every live item: all handles become stale. Each counts as
// a release.
func (s *Slab[T]) Clear() {
	var zero T
	used := s.slots[:s.used()]
	for i := range used {
		if used[i].gen&1 == 1 {
			if used[i].gen++; used[i].gen == retiredGen {
				s.retired++
			}
			used[i].item = zero
		}
	}
	s.releases = s.acquires
	s.highWater = max(s.highWater, s.mark+s.rise)
	// Every slot is free or retired: the spare list, in slot order, tells
	// how far the slots are used again.
	s.head, s.spare, s.fresh, s.mark, s.rise = -1, s.spareFree(), 0, int32(s.retired), 0
}

// spareFree links every free slot below used onto the spare list, in slot
// order and ahead of the unused slots, and returns the first. Retired
// slots are left out.
func (s *Slab[T]) spareFree() int32 {
	used := s.used()
	next := used // the first unused slot, or len(s.slots): the end
	for i := used - 1; i >= 0; i-- {
		if sl := &s.slots[i]; free(sl.gen) {
			sl.next = next - i - 1
			next = i
		}
	}
	return next
}

// ResetStats starts the counters afresh, as [Pool.ResetStats] does:
// Acquires, Misses, Releases, Rejects and Probes become zero and HighWater
// the number of live items (plus any retired slots). The live items,
// handles and Retired are unchanged. It allocates nothing; the complexity
// is O(slots used since NewSlab or Clear), since every free slot moves to
// the spare list.
func (s *Slab[T]) ResetStats() {
	s.head, s.spare, s.fresh = -1, s.spareFree(), s.used()
	// Len is acquires - releases: the live items stay counted as acquires,
	// and base hides them from Stats.
	n := s.acquires - s.releases
	s.acquires, s.releases, s.base = n, 0, n
	s.misses, s.rejects = 0, 0
	s.highWater, s.mark, s.rise = 0, int32(int(n)+s.retired), 0
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
		HighWater: int(max(s.highWater, s.mark+s.rise)),
		Acquires:  s.acquires - s.base,
		Misses:    s.misses,
		Releases:  s.releases,
		Rejects:   s.rejects,
		Probes:    s.acquires - s.base,
		Retired:   s.retired,
		Overhead:  len(s.slots) * int(unsafe.Sizeof(slot)-unsafe.Sizeof(slot.item)),
	}
}
