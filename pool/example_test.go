package pool_test

import (
	"errors"
	"fmt"

	"poolroids/pool"
)

type bullet struct {
	X, Y, VX, VY float64
	Life         int
}

// A game keeps its bullets in a fixed-capacity pool: spawning takes a free
// bullet, and a full pool refuses the spawn instead of growing.
func Example() {
	bullets, err := pool.New[bullet](pool.Dense, 2)
	if err != nil {
		panic(err)
	}
	for range 3 {
		if _, b, ok := bullets.Acquire(); ok {
			b.VX, b.Life = 4, 2
		} else {
			fmt.Println("pool full: spawn skipped")
		}
	}
	// One step of the game: move every bullet, retire the spent ones.
	for h, b := range bullets.All() {
		b.X += b.VX
		if b.Life--; b.Life == 1 {
			bullets.Release(h)
		}
	}
	st := bullets.Stats()
	fmt.Printf("%d live, %d acquired, %d missed, %d released\n", bullets.Len(), st.Acquires, st.Misses, st.Releases)
	// Output:
	// pool full: spawn skipped
	// 0 live, 2 acquired, 1 missed, 2 released
}

// A handle kept after its item was released is stale: the pool tells, even
// when the slot has been handed out again.
func ExamplePool_Release() {
	p, _ := pool.New[bullet](pool.FreeList, 1)
	h, _, _ := p.Acquire()
	p.Release(h)
	p.Acquire() // reuses the same slot
	err := p.Release(h)
	fmt.Println(errors.Is(err, pool.ErrStale))
	// Output: true
}

// SetStrategy switches a live pool to another strategy: the same handles
// name the same values afterwards.
func ExamplePool_SetStrategy() {
	p, _ := pool.New[bullet](pool.Scan, 8)
	h, b, _ := p.Acquire()
	b.X = 42
	if err := p.SetStrategy(pool.Bitset); err != nil {
		panic(err)
	}
	b, ok := p.Get(h) // pointers must be fetched again
	fmt.Println(p.Strategy(), b.X, ok)
	// Output: bitset 42 true
}

func ExampleParseStrategy() {
	_, err := pool.ParseStrategy("linked")
	fmt.Println(err)
	// Output: pool: unknown strategy "linked": allowed are alloc, syncpool, listremove, activelist, scan, queue, freelist, offsets, bitset, dense
}

// A Slab is a pool whose strategy is settled: it has Pool's contract and
// freelist's costs, and its Acquire and Release are inlined into the caller.
func ExampleSlab() {
	sparks, err := pool.NewSlab[bullet](2)
	if err != nil {
		panic(err)
	}
	h, s, _ := sparks.Acquire()
	s.Life = 3
	sparks.Acquire()
	_, _, ok := sparks.Acquire()
	fmt.Println("third spark:", ok)
	sparks.Release(h)
	fmt.Println("released twice:", errors.Is(sparks.Release(h), pool.ErrStale))
	st := sparks.Stats()
	fmt.Println(st.Strategy, st.Active, st.Misses, st.Rejects)
	// Output:
	// third spark: false
	// released twice: true
	// freelist 1 1 1
}
