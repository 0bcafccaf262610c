package pool

import (
	"fmt"
	"math"
	"sync"
	"testing"
	"time"
)

// benchCap is the capacity of every benchmark pool: a game's debris pool.
const benchCap = 1024

// filled returns a pool of benchCap items with the given percentage live,
// the live slots scattered as a game's churn leaves them.
func filled(b *testing.B, s Strategy, percent int) (*Pool[item], []Handle) {
	p := newPool(b, s, benchCap)
	return p, scatter(p, percent)
}

// filledSlab is filled for a Slab. Slab's sub-benchmarks repeat the loop
// bodies of Pool's rather than share a generic one: through a type
// parameter its methods would be called via a dictionary, not inlined,
// which is what they measure.
func filledSlab(b *testing.B, percent int) (*Slab[item], []Handle) {
	p := mustSlab[item](b, benchCap)
	return p, scatter(p, percent)
}

// scatter fills the empty pool p, then releases every other item or so to
// leave the given percentage live, and returns their handles.
func scatter(p subject, percent int) []Handle {
	all := make([]Handle, p.Cap())
	for i := range all {
		all[i], _, _ = p.Acquire()
	}
	live := len(all) * percent / 100
	hs := make([]Handle, 0, len(all))
	for i, h := range all {
		// Keep a scattered subset of the right size.
		if (i*live)/len(all) != ((i+1)*live)/len(all) {
			hs = append(hs, h)
		} else {
			p.Release(h)
		}
	}
	return hs
}

// scattered returns 4096 indexes below n in a scattered order, so the loops
// that use them pay no division.
func scattered(n int) []int32 {
	order := make([]int32, 4096)
	for i := range order {
		order[i] = int32(i * 7919 % n)
	}
	return order
}

// BenchmarkAcquireRelease isolates one acquire + release pair at a fixed
// occupancy: take an item, write to it, give it back, with the other live
// items scattered as a game's churn leaves them. It is the per-spawn cost
// of each strategy with the whole contract (generations, stats, zeroing),
// the same pair as BenchmarkBare/freelist does without a contract. "slab"
// is the same pair on a Slab, where both calls are inlined.
func BenchmarkAcquireRelease(b *testing.B) {
	for _, percent := range []int{50, 90} {
		for _, s := range Strategies() {
			b.Run(fmt.Sprintf("%d%%/%s", percent, s), func(b *testing.B) {
				p, _ := filled(b, s, percent)
				b.ReportAllocs()
				b.ResetTimer()
				pairs(p, b.N)
			})
		}
		b.Run(fmt.Sprintf("%d%%/slab", percent), func(b *testing.B) {
			p, _ := filledSlab(b, percent)
			b.ReportAllocs()
			b.ResetTimer()
			slabPairs(p, b.N)
		})
	}
}

// pairs and slabPairs are the loops AcquireRelease and Interleaved time:
// n times, take an item, write to it and give it back. They are functions,
// not the body of a b.Loop loop, because b.Loop keeps alive every variable
// its body assigns by taking its address: h and v would go through the
// stack, stores and loads that no caller of Acquire pays. Slab's loop is
// not a generic one for the reason given at filledSlab.
func pairs(p *Pool[item], n int) {
	for range n {
		h, v, _ := p.Acquire()
		v.Life = 60
		p.Release(h)
	}
}

func slabPairs(p *Slab[item], n int) {
	for range n {
		h, v, _ := p.Acquire()
		v.Life = 60
		p.Release(h)
	}
}

// BenchmarkInterleaved times the AcquireRelease pair of every strategy and
// of Slab at 90% full in interleaved batches: one batch of each in turn,
// round after round, so that all of them meet the same phases of a shared
// machine, whose other load can double a benchmark's time from one
// sub-benchmark to the next. It reports each one's mean time per pair over
// all its batches (metrics "<strategy>-ns" and "slab-ns"), the garbage
// collection alloc causes included; how many times slower the two peers
// are than the fastest pooled strategy ("syncpool-x", "alloc-x"); and than
// Slab ("slab-syncpool-x", "slab-alloc-x"). ns/op is one round of every
// batch.
func BenchmarkInterleaved(b *testing.B) {
	const batch = 256
	ss := Strategies()
	pools := make([]*Pool[item], len(ss))
	for k, s := range ss {
		pools[k], _ = filled(b, s, 90)
	}
	slab, _ := filledSlab(b, 90)
	spent := make([]time.Duration, len(ss))
	var slabSpent time.Duration
	b.ReportAllocs()
	for b.Loop() {
		for k, p := range pools {
			start := time.Now()
			pairs(p, batch)
			spent[k] += time.Since(start)
		}
		start := time.Now()
		slabPairs(slab, batch)
		slabSpent += time.Since(start)
	}
	perPair := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N*batch) }
	fastest := time.Duration(math.MaxInt64)
	for k, s := range ss {
		b.ReportMetric(perPair(spent[k]), string(s)+"-ns")
		if kind(k).pooled() {
			fastest = min(fastest, spent[k])
		}
	}
	b.ReportMetric(perPair(slabSpent), "slab-ns")
	b.ReportMetric(float64(spent[kSyncPool])/float64(fastest), "syncpool-x")
	b.ReportMetric(float64(spent[kAlloc])/float64(fastest), "alloc-x")
	b.ReportMetric(float64(spent[kSyncPool])/float64(slabSpent), "slab-syncpool-x")
	b.ReportMetric(float64(spent[kAlloc])/float64(slabSpent), "slab-alloc-x")
}

// BenchmarkScattered releases a live item picked at random and acquires a
// new one, with the pool 90% full: AcquireRelease plus what a game pays to
// reach an item that is not hot in cache, and the strategies that search
// for the released slot (listremove, activelist) pay for its position.
func BenchmarkScattered(b *testing.B) {
	for _, s := range Strategies() {
		b.Run(string(s), func(b *testing.B) {
			p, hs := filled(b, s, 90)
			order := scattered(len(hs))
			b.ReportAllocs()
			j := 0
			for b.Loop() {
				k := order[j&(len(order)-1)]
				j++
				p.Release(hs[k])
				h, v, _ := p.Acquire()
				v.Life = 60
				hs[k] = h
			}
		})
	}
}

// BenchmarkChurn releases the oldest item and acquires a new one with the
// pool 90% full: the pattern of bullets and debris that all live about as
// long, which favours FIFO bookkeeping and hurts searches from the front.
func BenchmarkChurn(b *testing.B) {
	for _, s := range Strategies() {
		b.Run(string(s), func(b *testing.B) {
			p, hs := filled(b, s, 90)
			b.ReportAllocs()
			oldest := 0
			for b.Loop() {
				p.Release(hs[oldest])
				hs[oldest], _, _ = p.Acquire()
				if oldest++; oldest == len(hs) {
					oldest = 0
				}
			}
		})
	}
	b.Run("slab", func(b *testing.B) {
		p, hs := filledSlab(b, 90)
		b.ReportAllocs()
		oldest := 0
		for b.Loop() {
			p.Release(hs[oldest])
			hs[oldest], _, _ = p.Acquire()
			if oldest++; oldest == len(hs) {
				oldest = 0
			}
		}
	})
}

// BenchmarkIterate measures one full All loop that reads and writes every
// live item, per item (ns/op divided by the live count is reported as
// ns/item). "plain" is a for-range over a slice of the same number of items:
// the floor any strategy is compared to.
func BenchmarkIterate(b *testing.B) {
	for _, percent := range []int{10, 90, 100} {
		live := benchCap * percent / 100
		b.Run(fmt.Sprintf("%d%%/plain", percent), func(b *testing.B) {
			items := make([]item, live)
			b.ReportAllocs()
			for b.Loop() {
				movePlain(items)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(live), "ns/item")
		})
		for _, s := range Strategies() {
			b.Run(fmt.Sprintf("%d%%/%s", percent, s), func(b *testing.B) {
				p, _ := filled(b, s, percent)
				b.ReportAllocs()
				for b.Loop() {
					movePool(p)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(live), "ns/item")
			})
		}
		b.Run(fmt.Sprintf("%d%%/slab", percent), func(b *testing.B) {
			p, _ := filledSlab(b, percent)
			b.ReportAllocs()
			for b.Loop() {
				moveSlab(p)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(live), "ns/item")
		})
	}
}

// movePlain, movePool and moveSlab are the loops BenchmarkIterate times.
// They are functions because b.Loop keeps the calls in its body from being
// inlined, which would hide what inlining does for a range-over-func loop.
func movePlain(items []item) {
	for i := range items {
		items[i].X += items[i].VX
	}
}

func movePool(p *Pool[item]) {
	for _, v := range p.All() {
		v.X += v.VX
	}
}

func moveSlab(p *Slab[item]) {
	for _, v := range p.All() {
		v.X += v.VX
	}
}

// BenchmarkBare measures the floors without any pool contract around them,
// in the same run as the strategies: new of the item type, a bare sync.Pool
// Get+Put, and a bare index free list release+acquire with no generations,
// stats or zeroing, inline and behind two calls.
func BenchmarkBare(b *testing.B) {
	b.Run("new", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sink = new(item)
			sink.Life = 60
		}
	})
	b.Run("sync.Pool", func(b *testing.B) {
		sp := sync.Pool{New: func() any { return new(item) }}
		b.ReportAllocs()
		for b.Loop() {
			v := sp.Get().(*item)
			v.Life = 60
			sp.Put(v)
		}
	})
	b.Run("freelist", func(b *testing.B) {
		next := make([]int32, benchCap)
		for i := range next {
			next[i] = int32(i + 1)
		}
		head := int32(0)
		b.ReportAllocs()
		for b.Loop() {
			i := head
			head = next[i]
			next[i] = head
			head = i
		}
	})
	b.Run("freelist-calls", func(b *testing.B) {
		var l freeListSlots
		l.init(make([]uint32, benchCap))
		b.ReportAllocs()
		for b.Loop() {
			releaseCall(&l, acquireCall(&l))
		}
	})
}

// acquireCall and releaseCall put freelist's own pop and push behind calls
// that are not inlined, as Acquire and Release are not (their strategy
// switch is far over the inliner's budget): the floor of any pool whose
// operations are calls.
//
//go:noinline
func acquireCall(l *freeListSlots) int32 { return l.acquire() }

//go:noinline
func releaseCall(l *freeListSlots, i int32) { l.release(i) }

var sink *item
