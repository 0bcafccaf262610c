// Strategy syncpool: the peer a Go user picks next — sync.Pool.
//
// Seed: none; sync.Pool is the standard library's answer to the seeds'
// complaint about allocation in the game loop.
//
// Cost: Acquire is a sync.Pool Get (~13 ns with a Put, per-P caches, no lock
// in the common case) plus an O(1) pop of a slot number; Release zeroes the
// item and Puts it back, O(1); iteration is O(capacity) over the slot
// generations. Memory: a pointer and a generation per slot, plus whatever the
// sync.Pool caches.
//
// Trade-off: reuse without bookkeeping of your own, but sync.Pool has no
// capacity (it is enforced here as a count), may drop its cache at any
// garbage collection (then Get allocates again), and every item is a
// separate heap object the collector must scan.

package pool
