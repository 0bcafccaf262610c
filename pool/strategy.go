package pool

import (
	"fmt"
	"strings"
)

// Strategy names a way of keeping track of which slots of a pool are live.
// The names are stable and lower-case: they are what users type on the
// command line and what reports print.
type Strategy string

// The strategies, in the order [Strategies] lists them. Each has a file of its
// own in this package whose opening comment names its seed and its costs.
const (
	Alloc      Strategy = "alloc"      // peer: no pool, new(T) per Acquire, dropped for the GC on Release
	SyncPool   Strategy = "syncpool"   // peer: Go's sync.Pool, with the capacity enforced as a count
	ListRemove Strategy = "listremove" // seed 000, first version: free list, take last, remove by search
	ActiveList Strategy = "activelist" // seeds 002/003: active list + inactive queue, release removes by search
	Scan       Strategy = "scan"       // seed 000 "Poolean": in-use flags + next-free cursor scan
	Queue      Strategy = "queue"      // seed 001: node array + FIFO queue of free indices + separate active flags
	FreeList   Strategy = "freelist"   // seed 004: intrusive LIFO free list
	Offsets    Strategy = "offsets"    // seed 002: offset table with -1 sentinels, unrolled scan
	Bitset     Strategy = "bitset"     // beyond the seeds: 64-bit occupancy words, bits.TrailingZeros64
	Dense      Strategy = "dense"      // beyond the seeds: sparse set, O(1) both ways, iterates active items only
)

// kind is a Strategy as a small integer, so that Pool dispatches with a
// switch (a jump table) instead of an interface call on every operation.
type kind uint8

const (
	kAlloc kind = iota
	kSyncPool
	kListRemove
	kActiveList
	kScan
	kQueue
	kFreeList
	kOffsets
	kBitset
	kDense
	numKinds
)

var strategies = [numKinds]Strategy{Alloc, SyncPool, ListRemove, ActiveList, Scan, Queue, FreeList, Offsets, Bitset, Dense}

// Strategies returns every strategy, peers first, in a fixed order. The
// caller owns the returned slice.
func Strategies() []Strategy {
	s := strategies
	return s[:]
}

// ParseStrategy returns the strategy named name. Matching ignores case and
// surrounding space; an unknown name is an error that lists the allowed ones.
func ParseStrategy(name string) (Strategy, error) {
	if k, ok := kindOf(Strategy(strings.ToLower(strings.TrimSpace(name)))); ok {
		return strategies[k], nil
	}
	return "", unknownStrategy(name)
}

func kindOf(s Strategy) (kind, bool) {
	for k, name := range strategies {
		if name == s {
			return kind(k), true
		}
	}
	return 0, false
}

// StrategyNames returns the names of [Strategies] in order, joined by ", ":
// the list of what is allowed, for error messages and help texts.
func StrategyNames() string {
	names := make([]string, len(strategies))
	for i, s := range strategies {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}

func unknownStrategy(name string) error {
	return fmt.Errorf("pool: unknown strategy %q: allowed are %s", name, StrategyNames())
}

// pooled reports whether the strategy keeps its items in one array allocated
// by New (every strategy except the two peers).
func (k kind) pooled() bool { return k != kAlloc && k != kSyncPool }
