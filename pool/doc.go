// Package pool provides fixed-capacity object pools that never grow, with
// ten interchangeable strategies for tracking which slots are live.
//
// A game spawns bullets and debris every frame. Allocating each one makes
// work for the garbage collector at unpredictable times; a pool allocates all
// items once, in New, and hands them out and takes them back. When every item
// is in use, Acquire says so (ok == false) and counts a miss: the spawn is
// skipped, nothing is allocated.
//
// # Handles
//
// Acquire returns a [Handle] and a pointer. Store the handle, by value, in
// other structures; the pointer is for the current use only: it is valid
// until the item is released or the strategy is switched. A handle carries
// its slot's generation, so Release and Get recognise a handle kept after its
// item was released (even when the slot was reused), a handle of another
// pool, and the zero Handle: Release returns [ErrStale] and changes nothing.
//
// # Strategies
//
// All strategies obey one contract; they differ in cost. Each has a file of
// its own whose opening comment names the blog post it comes from (its
// seed, see the glossary) and its acquire, release, iterate and memory
// costs:
//
//	alloc       new(T) per Acquire; the GC reclaims          peer
//	syncpool    sync.Pool with the capacity as a count        peer
//	listremove  free list, take last, remove by search        acquire O(free)
//	activelist  active list + inactive queue                  release O(active)
//	scan        in-use flags + next-free cursor               acquire O(capacity) when nearly full
//	queue       FIFO of free slots + active flags             O(1), iterate O(capacity)
//	freelist    intrusive LIFO free list                      O(1), iterate O(capacity)
//	offsets     offset table, -1 = taken, unrolled by 4       acquire and iterate O(capacity)
//	bitset      64-bit occupancy words                        O(1) amortised, iterate O(capacity/64 + active)
//	dense       sparse set                                    O(1), iterate O(active)
//
// [Pool.SetStrategy] switches a live pool from one to another keeping every
// handle and value, so the strategies can be compared on the same live data.
//
// [Slab] is the freelist strategy as a type of its own, for code whose
// strategy is settled: the same contract and handles, no SetStrategy, and
// an Acquire and a Release small enough for the compiler to inline, which
// makes the pair about three times as fast as a Pool's.
//
// Liveness is kept once for all strategies, in the slot generations, so
// validating a handle is O(1) everywhere; each strategy keeps only what it
// needs to find a free slot and, for some, to iterate the live ones. Pool is
// a concrete type that selects its strategy with a switch: an interface call
// per operation would cost more than the fastest strategies' whole work.
//
// # Glossary
//
// The strategies' files and the benchmarks use a few words of their own:
//
//   - A seed is one of five blog posts on object pools for games that the
//     strategies implement, numbered as the project keeps them: seed 000,
//     "Entity Pooling" (2012, C#: a List searched by Remove, then the
//     Poolean class with an InUse flag per entity and a next-free cursor);
//     seed 001, "A Generic Pool Collection Class" (2007, XNA: a queue of
//     free slots); seed 002, "Object pooling without all the ins and outs"
//     (Gaming Your Way, ActionScript: active and free lists, then an offset
//     table); seed 003, "Object Pooling: Resource Recycling!" (2013, C#: a
//     list of active items and a queue of inactive ones); seed 004, "Does
//     Flyweigh pattern really help in memory management?" (2016, C++: an
//     intrusive free list; the title's spelling).
//   - Poolean is seed 000's second pool class; the scan strategy is it.
//   - A peer is a strategy that comes from no seed but from what a Go
//     programmer would use without this package, new(T) (alloc) or
//     sync.Pool (syncpool): measured beside the others so that the
//     comparison is fair.
//   - A pair is one Acquire and one Release, the unit the benchmarks time:
//     what one spawned bullet costs the pool.
//
// # Concurrency
//
// A Pool or a Slab is not safe for concurrent use: a game steps its world
// on one goroutine. Guard a shared pool with a mutex.
//
// # Performance
//
// `go test -bench . ./pool` runs every strategy, Slab and the bare floors
// (new, sync.Pool, a free list with no contract) in one run so that ratios
// are fair; BENCHMARKS.md, beside this file, has the latest table and the
// command that made it. The benchmarks report allocations:
// every strategy but alloc and syncpool, and Slab, allocate nothing after
// they are made, and [Stats].Allocs counts the items those two take from
// the heap.
//
// A Pool's Acquire and Release are calls: the strategy switch puts them
// over the inliner's budget (a Slab's are inlined). A range loop over All
// makes no call per item: it compiles to a loop over runs or lists of
// slots, and over a full pool it stays within 2× of a loop over a slice of
// the same items.
package pool
