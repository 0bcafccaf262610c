package pool

import (
	"errors"
	"fmt"
	"iter"
	"math"
	"sync"
	"sync/atomic"
	"unsafe"
)

// MaxCapacity is the largest capacity New accepts. Slot numbers are int32
// in every strategy's bookkeeping; 1<<24 items is far beyond what a game
// keeps live, and refusing more catches a unit mistake before it asks the
// system for gigabytes.
const MaxCapacity = 1 << 24

// ErrStale is returned by Release for a handle that does not name a live item
// of this pool: the zero Handle, a handle already released (its generation
// has moved on), or a handle of another pool. Test for it with errors.Is.
//
// A slot's generation never repeats, so a stale handle is never taken for
// a live one, however often its slot is reused: after 2^31-1 uses a slot is
// retired, as slot maps do, rather than let its generation wrap. A retired
// slot is never handed out again; [Stats].Retired counts them, and the
// pool holds at most Capacity - Retired items.
var ErrStale = errors.New("pool: stale handle: not live in this pool")

// Handle names one acquired item. It is comparable and small enough to store
// by value in other structures. The zero Handle is never valid.
//
// A Handle carries the generation its slot had when it was acquired, so a
// handle kept after its item was released is detected as stale even when the
// slot has been handed out again.
type Handle struct {
	pool uint32 // the owning pool's id; ids start at 1
	slot uint32
	gen  uint32 // odd while the slot is live
}

// retiredGen is the generation of a retired slot: the one a slot's last
// release gives it. It is even, so no handle names it, and the slots that
// reach it drop out of every strategy's bookkeeping.
const retiredGen = math.MaxUint32 - 1

// free reports whether a slot with generation g may be handed out.
func free(g uint32) bool { return g&1 == 0 && g != retiredGen }

// retired counts the retired slots among gen.
func retired(gen []uint32) int {
	n := 0
	for _, g := range gen {
		if g == retiredGen {
			n++
		}
	}
	return n
}

// poolIDs hands out pool ids, so a handle of one pool is foreign to any other.
var poolIDs atomic.Uint32

// Pool is a fixed-capacity pool of T. It is a concrete type, not an
// interface: a range loop over All on an interface value allocates, which a
// game loop cannot afford. The strategy lives inside, selected by a switch.
//
// The zero Pool is not usable; create one with New. A Pool is not safe for
// concurrent use.
type Pool[T any] struct {
	id   uint32
	kind kind
	gen  []uint32 // per slot: incremented on acquire and release, odd = live

	items []T  // pooled strategies: every item, allocated once
	ptrs  []*T // alloc and syncpool: the item of each live slot
	sp    *sync.Pool

	// The bookkeeping of each strategy. Only the current strategy's is
	// allocated; the others are zero values.
	heap       heapSlots
	listRemove listRemoveSlots
	activeList activeListSlots
	scan       scanSlots
	queue      queueSlots
	freeList   freeListSlots
	offsets    offsetSlots
	bitset     bitsetSlots
	dense      denseSlots

	// stats holds the counters. The live count is Acquires - Releases, kept
	// once for every strategy: those whose bookkeeping needs it are handed
	// it rather than keeping a copy. Probes is Acquires plus searched, the
	// probes beyond the one slot every Acquire examines, so that the O(1)
	// strategies add nothing to it. HighWater is kept less Retired, so
	// that Acquire compares it with the live count alone.
	stats    Stats
	searched uint64
	base     uint64 // Acquires before the last ResetStats that are not counted
	room     int    // the slots not retired: the most items the pool can hold
}

// Stats counts what a pool did. Counters survive SetStrategy.
type Stats struct {
	Strategy  Strategy
	Capacity  int
	Active    int
	HighWater int    // most slots taken at once since New or ResetStats: live, or retired (see Retired); Capacity means the pool ran full
	Acquires  uint64 // successful
	Misses    uint64 // Acquire refused: pool full
	Releases  uint64 // successful
	Rejects   uint64 // Release refused: ErrStale
	Probes    uint64 // slots or entries examined by Acquire and Release searches: the work an O(n) strategy does
	Overhead  int    // bytes of bookkeeping beyond the items themselves
	Allocs    uint64 // items taken from the heap after New: alloc's every Acquire, syncpool's when its cache is empty; 0 for pooled strategies
	Retired   int    // slots whose generations ran out, never handed out again (see ErrStale); ResetStats keeps it
}

// New returns an empty pool of the given capacity that uses strategy s.
// Pooled strategies allocate all items here, once; nothing they do later
// allocates. The capacity must be 1..MaxCapacity.
func New[T any](s Strategy, capacity int) (*Pool[T], error) {
	k, ok := kindOf(s)
	if !ok {
		return nil, unknownStrategy(string(s))
	}
	if err := checkCapacity(capacity); err != nil {
		return nil, err
	}
	p := &Pool[T]{id: poolIDs.Add(1), gen: make([]uint32, capacity), room: capacity}
	p.stats.Capacity = capacity
	p.setKind(k)
	return p, nil
}

// checkCapacity explains a capacity New and NewSlab refuse.
func checkCapacity(capacity int) error {
	if capacity < 1 || capacity > MaxCapacity {
		return fmt.Errorf("pool: capacity %d is out of range: allowed 1..%d", capacity, MaxCapacity)
	}
	return nil
}

// Acquire takes a free item and returns its handle and a pointer to it. The
// item is zeroed. When the pool is full it returns ok == false, counts a
// miss and allocates nothing.
//
// The pointer stays valid until the item is released or the strategy is
// switched; the handle stays valid until the item is released.
func (p *Pool[T]) Acquire() (h Handle, item *T, ok bool) {
	n := p.Len()
	if n == p.room {
		p.stats.Misses++
		return Handle{}, nil, false
	}
	var i int32
	var probes uint64
	switch p.kind {
	case kAlloc, kSyncPool:
		i = p.heap.acquire(n)
	case kListRemove:
		i, probes = p.listRemove.acquire()
	case kActiveList:
		i = p.activeList.acquire()
	case kScan:
		i, probes = p.scan.acquire()
	case kQueue:
		i = p.queue.acquire()
	case kFreeList:
		i = p.freeList.acquire()
	case kOffsets:
		i, probes = p.offsets.acquire()
	case kBitset:
		i, probes = p.bitset.acquire()
	case kDense:
		i = p.dense.acquire(n)
	}
	if probes > 1 {
		p.searched += probes - 1
	}
	g := p.gen[i] + 1
	p.gen[i] = g
	p.stats.Acquires++
	if n >= p.stats.HighWater {
		p.stats.HighWater = n + 1
	}
	if p.items != nil {
		item = &p.items[i]
	} else {
		item = p.newItem()
		p.ptrs[i] = item
	}
	return Handle{pool: p.id, slot: uint32(i), gen: g}, item, true
}

// Release returns the item named by h to the pool and zeroes it, so nothing
// stale leaks into its next user. A handle that is not live in this pool
// (zero, already released, or another pool's) gets ErrStale, is counted as
// a reject and leaves the pool unchanged.
func (p *Pool[T]) Release(h Handle) error {
	if !p.live(h) {
		p.stats.Rejects++
		return ErrStale
	}
	if h.gen+1 == retiredGen {
		// Apart, so that the common path keeps its registers.
		return p.releaseLast(h)
	}
	i := int32(h.slot)
	var probes uint64
	// The live count is read only by the strategies that use it: the others'
	// release stays off those two loads.
	switch p.kind {
	case kAlloc, kSyncPool:
		p.heap.release(i, p.Len())
	case kListRemove:
		p.listRemove.release(i)
	case kActiveList:
		probes = p.activeList.release(i, p.Len())
	case kScan:
		p.scan.release(i)
	case kQueue:
		p.queue.release(i, p.Len())
	case kFreeList:
		p.freeList.release(i)
	case kOffsets:
		p.offsets.release(i)
	case kBitset:
		p.bitset.release(i)
	case kDense:
		p.dense.release(i, p.Len())
	}
	if probes > 0 {
		p.searched += probes
	}
	p.gen[i] = h.gen + 1 // live checked that gen[i] == h.gen
	p.stats.Releases++
	if p.items != nil {
		var zero T
		p.items[i] = zero
	} else {
		p.dropItem(i)
	}
	return nil
}

// releaseLast is Release of a handle with its slot's last generation: the
// slot retires, out of the strategy's bookkeeping, never handed out again.
// It happens once in 2^31 uses of a slot, so most strategies rebuild their
// bookkeeping from the generations, which leaves retired slots out. Dense
// and activelist hand All their own list of live slots, which a rebuild
// would reorder under a loop that releases: they release the slot as
// usual and then drop it from their free slots only.
func (p *Pool[T]) releaseLast(h Handle) error {
	i := int32(h.slot)
	switch p.kind {
	case kDense:
		p.dense.release(i, p.Len())
		p.dense.retire(i)
	case kActiveList:
		p.searched += p.activeList.release(i, p.Len())
	}
	p.gen[i] = retiredGen
	p.stats.Releases++
	p.countRetired()
	if p.items != nil {
		var zero T
		p.items[i] = zero
	} else {
		p.dropItem(i)
	}
	switch p.kind {
	case kDense:
	case kActiveList:
		p.activeList.inactive.init(p.gen)
	default:
		p.setKind(p.kind)
	}
	return nil
}

// Get returns the item named by h, or ok == false when h is not live in this
// pool. The complexity is O(1) for every strategy.
func (p *Pool[T]) Get(h Handle) (item *T, ok bool) {
	if !p.live(h) {
		return nil, false
	}
	return p.at(int32(h.slot)), true
}

// live reports whether h names a live item of p. Liveness is kept in the
// generations, the same for every strategy, so validation is O(1) even for
// strategies whose own bookkeeping would need a search.
func (p *Pool[T]) live(h Handle) bool {
	return h.pool == p.id && h.slot < uint32(len(p.gen)) && p.gen[h.slot] == h.gen && h.gen&1 == 1
}

func (p *Pool[T]) at(i int32) *T {
	if p.items != nil {
		return &p.items[i]
	}
	return p.ptrs[i]
}

// All returns an iterator over every live item, each exactly once, in an
// order that depends on the strategy. Releasing the current item inside the
// loop is allowed; items acquired inside the loop may or may not be visited.
// The strategy must not be switched inside the loop.
//
// The strategy hands out the live slots a stretch at a time — a run of
// slots to test, or a list of live ones — so the per-item cost is one test
// and one yield, never a dispatch: iterating is O(active) for dense and
// activelist, O(capacity/64 + active) for bitset, O(capacity) for the
// others.
func (p *Pool[T]) All() iter.Seq2[Handle, *T] {
	return func(yield func(Handle, *T) bool) {
		var c cursor
		if !p.whole(&c) {
			// The strategies that fill stretches one by one get the
			// buffer; the others spare every loop its zeroing.
			c.buf = new([batch]int32)
			if !p.fill(&c) {
				return
			}
		}
		for {
			// Every slot is tested: a run holds free slots, and a list may
			// hold slots the loop body released since it was made. Slices
			// cut to one length keep bounds checks out of the loops.
			id, gen := p.id, p.gen
			switch {
			case p.items == nil:
				// The peers: a run over every slot, items on the heap.
				gen := gen[c.lo:c.hi]
				run := p.ptrs[c.lo:c.hi][:len(gen)]
				for k, g := range gen {
					if g&1 == 1 && !yield(Handle{pool: id, slot: uint32(c.lo + k), gen: g}, run[k]) {
						return
					}
				}
			case c.hi > c.lo:
				gen := gen[c.lo:c.hi]
				run := p.items[c.lo:c.hi][:len(gen)]
				for k, g := range gen {
					if g&1 == 1 && !yield(Handle{pool: id, slot: uint32(c.lo + k), gen: g}, &run[k]) {
						return
					}
				}
			default:
				list := c.list
				if c.n > 0 {
					list = c.buf[:c.n]
				}
				items := p.items[:len(gen)]
				// Lists are walked from the end: a release inside the loop
				// moves only entries at or after the current one.
				for k := len(list) - 1; k >= 0; k-- {
					i := list[k]
					if g := gen[i]; g&1 == 1 && !yield(Handle{pool: id, slot: uint32(i), gen: g}, &items[i]) {
						return
					}
				}
			}
			if c.done || !p.fill(&c) {
				return
			}
		}
	}
}

// batch is how many slot numbers a cursor's buffer holds: enough to make the
// fill call rare, small enough to live on the stack.
const batch = 128

// cursor is an iteration position. whole or fill sets one of: the run
// lo..hi of slots to test for liveness; list, the strategy's own list of
// live slots; or the first n entries of buf, which All provides only when
// fill is used. pos is strategy-defined; done marks the end.
type cursor struct {
	lo, hi int
	list   []int32
	n      int
	pos    int
	done   bool
	buf    *[batch]int32
}

// whole sets c to the one stretch of a strategy that hands over every live
// slot at once and reports whether it is one. It is small enough to inline,
// so a loop over such a strategy makes no call before its first item.
func (p *Pool[T]) whole(c *cursor) bool {
	switch p.kind {
	case kActiveList:
		p.activeList.fill(c)
	case kDense:
		p.dense.fill(c, p.Len())
	case kScan, kQueue, kOffsets, kBitset:
		return false
	default:
		// Strategies that track only free slots test every slot's
		// generation: one run over the whole capacity.
		c.hi, c.done = len(p.gen), true
	}
	return true
}

// fill sets the next stretch of c for the strategies that whole does not
// serve, and reports whether there is one. A strategy may hand over an
// empty stretch before the end (bitset, when the words it lists have no
// live slot); fill asks again rather than end the loop there.
func (p *Pool[T]) fill(c *cursor) bool {
	for !c.done {
		c.n, c.lo, c.hi = 0, 0, 0
		switch p.kind {
		case kScan:
			p.scan.fill(c)
		case kQueue:
			p.queue.fill(c)
		case kOffsets:
			p.offsets.fill(c)
		case kBitset:
			p.bitset.fill(c)
		}
		if c.hi > c.lo || c.n > 0 {
			return true
		}
	}
	return false
}

// Len returns the number of live items. The complexity is O(1).
func (p *Pool[T]) Len() int { return int(p.stats.Acquires - p.stats.Releases) }

// Cap returns the capacity fixed by New.
func (p *Pool[T]) Cap() int { return len(p.gen) }

// Strategy returns the strategy in use.
func (p *Pool[T]) Strategy() Strategy { return strategies[p.kind] }

// countRetired counts one more retired slot.
func (p *Pool[T]) countRetired() {
	p.stats.Retired++
	p.stats.HighWater-- // the mark, with the slot counted as taken, stays
	p.room--
}

// Clear releases every live item: all handles become stale. Each counts as a
// release.
func (p *Pool[T]) Clear() {
	for i, g := range p.gen {
		if g&1 == 1 {
			p.gen[i]++
			p.stats.Releases++
			if p.items == nil {
				p.dropItem(int32(i))
			}
			if g+1 == retiredGen {
				p.countRetired()
			}
		}
	}
	clear(p.items)
	p.setKind(p.kind)
}

// Stats returns the counters and the current occupancy.
func (p *Pool[T]) Stats() Stats {
	s := p.stats
	s.Strategy = p.Strategy()
	s.Active = p.Len()
	s.Acquires -= p.base
	s.HighWater += s.Retired
	s.Probes = s.Acquires + p.searched
	s.Overhead = p.overhead()
	return s
}

// ResetStats starts the counters afresh, as if the live items had been
// acquired before a new pool began counting: Acquires, Misses, Releases,
// Rejects, Probes and Allocs become zero and HighWater the number of live
// items (plus any retired slots). The live items, handles, strategy and
// Retired are unchanged. It allocates nothing; the complexity is O(1).
func (p *Pool[T]) ResetStats() {
	// Len is Acquires - Releases: the live items stay counted as acquires,
	// and base hides them from Stats.
	n := uint64(p.Len())
	p.stats.Acquires, p.stats.Releases, p.base = n, 0, n
	p.stats.Misses, p.stats.Rejects, p.stats.Allocs, p.searched = 0, 0, 0, 0
	p.stats.HighWater = int(n)
}

// SetStrategy switches p to strategy s in place, holding exactly the same
// live items: every handle live before is live after and yields an equal
// value, and the Stats counters carry over. Pointers obtained before must be
// fetched again with Get, since items may move to new storage.
//
// The complexity is O(capacity); switching between the two peers and the
// pooled strategies also allocates the new storage.
func (p *Pool[T]) SetStrategy(s Strategy) error {
	k, ok := kindOf(s)
	if !ok {
		return unknownStrategy(string(s))
	}
	old := p.kind
	p.setKind(k)
	switch {
	case old.pooled() && !k.pooled():
		p.ptrs = make([]*T, len(p.gen))
		for i, g := range p.gen {
			if g&1 == 1 {
				v := p.newItem()
				*v = p.items[i]
				p.ptrs[i] = v
			}
		}
		p.items = nil
	case !old.pooled() && k.pooled():
		p.items = make([]T, len(p.gen))
		for i, v := range p.ptrs {
			if v != nil {
				p.items[i] = *v
			}
		}
		p.ptrs = nil
	}
	return nil
}

// setKind makes k the strategy and builds its bookkeeping from the live
// slots, dropping every other strategy's. Rebuilding the current strategy
// (Clear) reuses its arrays.
func (p *Pool[T]) setKind(k kind) {
	n, gen := len(p.gen), p.gen
	if k != p.kind {
		p.heap, p.listRemove, p.activeList, p.scan, p.queue = heapSlots{}, listRemoveSlots{}, activeListSlots{}, scanSlots{}, queueSlots{}
		p.freeList, p.offsets, p.bitset, p.dense = freeListSlots{}, offsetSlots{}, bitsetSlots{}, denseSlots{}
	}
	switch k {
	case kAlloc, kSyncPool:
		p.heap.init(gen)
	case kListRemove:
		p.listRemove.init(gen)
	case kActiveList:
		p.activeList.init(gen)
	case kScan:
		p.scan.init(gen)
	case kQueue:
		p.queue.init(gen)
	case kFreeList:
		p.freeList.init(gen)
	case kOffsets:
		p.offsets.init(gen)
	case kBitset:
		p.bitset.init(gen)
	case kDense:
		p.dense.init(gen)
	}
	p.kind = k
	switch {
	case k.pooled() && p.items == nil && p.ptrs == nil:
		p.items = make([]T, n)
	case !k.pooled() && p.ptrs == nil && p.items == nil:
		p.ptrs = make([]*T, n)
	}
	if k == kSyncPool {
		if p.sp == nil {
			// New runs inside Get, on the pool's own goroutine: the count
			// needs no atomic.
			p.sp = &sync.Pool{New: func() any { p.stats.Allocs++; return new(T) }}
		}
	} else {
		p.sp = nil
	}
}

// newItem provides a zeroed item for the two peers.
func (p *Pool[T]) newItem() *T {
	if p.sp != nil {
		return p.sp.Get().(*T)
	}
	p.stats.Allocs++
	return new(T)
}

// dropItem hands the item of slot i back to the runtime: the two peers'
// Release.
func (p *Pool[T]) dropItem(i int32) {
	if p.sp != nil {
		var zero T
		*p.ptrs[i] = zero
		p.sp.Put(p.ptrs[i])
	}
	p.ptrs[i] = nil
}

func (p *Pool[T]) overhead() int {
	b := 4*len(p.gen) + 8*len(p.ptrs)
	switch p.kind {
	case kAlloc, kSyncPool:
		b += p.heap.overhead()
	case kListRemove:
		b += p.listRemove.overhead()
	case kActiveList:
		b += p.activeList.overhead()
	case kScan:
		b += p.scan.overhead()
	case kQueue:
		b += p.queue.overhead()
	case kFreeList:
		b += p.freeList.overhead()
	case kOffsets:
		b += p.offsets.overhead()
	case kBitset:
		b += p.bitset.overhead()
	case kDense:
		b += p.dense.overhead()
	}
	return b
}

// int32s is the size in bytes of an int32 slice's backing array.
func int32s(s []int32) int { return cap(s) * int(unsafe.Sizeof(int32(0))) }

// reuse returns s resized to n, allocating only when s is too small: Clear
// rebuilds a strategy's bookkeeping without allocating.
func reuse[E any](s []E, n int) []E {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]E, n)
}

// freeStack rebuilds in buf a stack of the free slots, the lowest on top so
// that it is handed out first. The array it returns has room for every
// slot.
func freeStack(buf []int32, gen []uint32) []int32 {
	buf = reuse(buf, len(gen))[:0]
	for i := len(gen) - 1; i >= 0; i-- {
		if free(gen[i]) {
			buf = append(buf, int32(i))
		}
	}
	return buf
}

// push appends i to s within its capacity: the lists of slots are made with
// room for every slot, and unlike append, push can never grow their arrays.
func push(s []int32, i int32) []int32 {
	s = s[:len(s)+1]
	s[len(s)-1] = i
	return s
}

// fillBack sets c to the live slots of a strategy that keeps them packed in
// a list, whole and without a copy: All walks it from the end, so an item
// released inside the loop is replaced by one already visited.
func fillBack(list []int32, c *cursor) {
	c.list, c.done = list, true
}
