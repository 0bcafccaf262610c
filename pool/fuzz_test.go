package pool

import (
	"errors"
	"maps"
	"testing"
)

// FuzzPool replays a random sequence of operations, drawn from the input
// bytes, against a pool and a plain map model, for every starting strategy
// and for Slab (which skips the strategy switches), and fails at the first
// disagreement. The first byte picks the capacity:
// 9 (part of one bitset word), 70 (a last word more than half full) or 130
// (three words). Rare operations reset the counters, or bring every free
// slot to its last use, so that its next release retires it. The seed corpus in testdata/fuzz/FuzzPool runs as an
// ordinary test.
func FuzzPool(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1, 0, 2, 3, 4, 5, 0, 0, 1})
	f.Add([]byte{9, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 4, 3, 2, 5})
	// Capacity 130 filled in bursts, then the oldest 64 released: bitset's
	// first word empty before a full one.
	f.Add([]byte{2, 6, 15, 6, 15, 6, 15, 6, 15, 6, 15, 6, 15, 6, 15, 6, 15, 6, 15, 7, 63, 3, 0})
	f.Fuzz(func(t *testing.T, input []byte) {
		if len(input) == 0 {
			return
		}
		capacity := [...]int{9, 70, 130}[int(input[0])%3]
		for _, c := range subjects() {
			ops := input[1:]
			p := c.new(t, capacity)
			other := c.new(t, capacity)
			foreign, _, _ := other.Acquire()
			model := make(map[Handle]item)
			var live, dead []Handle
			var acquires, misses, releases, rejects uint64
			highWater, retired := 0, 0
			// Items taken from the heap: exact for alloc and for moving
			// live items to a peer; a syncpool Acquire may reuse a cached
			// item or not.
			var allocsLo, allocsHi uint64
			next := func() byte {
				if len(ops) == 0 {
					return 0
				}
				b := ops[0]
				ops = ops[1:]
				return b
			}
			// released counts a release of h, which retires its slot
			// after its last use.
			released := func(h Handle) {
				releases++
				if h.gen == retiredGen-1 {
					retired++
				}
			}
			acquire := func(seq int) {
				h, v, ok := p.Acquire()
				if ok != (len(live) < capacity-retired) {
					t.Fatalf("%s op %d: Acquire ok=%v with %d live", c.name, seq, ok, len(live))
				}
				if !ok {
					misses++
					return
				}
				if *v != (item{}) {
					t.Fatalf("%s op %d: Acquire returned a dirty item %+v", c.name, seq, *v)
				}
				acquires++
				switch p.Stats().Strategy {
				case Alloc:
					allocsLo++
					allocsHi++
				case SyncPool:
					allocsHi++
				}
				v.Serial = int64(seq)
				model[h] = *v
				live = append(live, h)
				highWater = max(highWater, len(live)+retired)
			}
			for seq := 0; len(ops) > 0; seq++ {
				switch op := next() % 8; op {
				case 0: // Acquire
					acquire(seq)
				case 6: // Acquire a burst, as a breaking rock does
					for range 1 + next()%16 {
						acquire(seq)
					}
				case 7: // Release a stretch of the oldest, as debris expires
					for range min(1+int(next()%64), len(live)) {
						if err := p.Release(live[0]); err != nil {
							t.Fatalf("%s op %d: Release(oldest) = %v", c.name, seq, err)
						}
						released(live[0])
						delete(model, live[0])
						dead = append(dead, live[0])
						live = live[1:]
					}
				case 1: // Release a live handle
					if len(live) == 0 {
						continue
					}
					k := int(next()) % len(live)
					h := live[k]
					if err := p.Release(h); err != nil {
						t.Fatalf("%s op %d: Release(live) = %v", c.name, seq, err)
					}
					released(h)
					delete(model, h)
					live = append(live[:k], live[k+1:]...)
					dead = append(dead, h)
				case 2: // Release a handle that is not live
					bad := []Handle{{}, foreign}
					if len(dead) > 0 {
						bad = append(bad, dead[int(next())%len(dead)])
					}
					if err := p.Release(bad[int(next())%len(bad)]); !errors.Is(err, ErrStale) {
						t.Fatalf("%s op %d: Release(stale) = %v", c.name, seq, err)
					}
					rejects++
				case 3: // Get and modify through the pointer
					if len(live) == 0 {
						continue
					}
					h := live[int(next())%len(live)]
					v, ok := p.Get(h)
					if !ok || *v != model[h] {
						t.Fatalf("%s op %d: Get = %+v, %v; model has %+v", c.name, seq, v, ok, model[h])
					}
					v.X++
					model[h] = *v
				case 4: // SetStrategy
					s := Strategies()[int(next())%len(Strategies())]
					p, ok := p.(*Pool[item])
					if !ok {
						continue
					}
					if mustKind(p.Strategy()).pooled() && !mustKind(s).pooled() {
						// Every live item moves to the heap; a new
						// sync.Pool has nothing cached.
						allocsLo += uint64(len(live))
						allocsHi += uint64(len(live))
					}
					if err := p.SetStrategy(s); err != nil {
						t.Fatal(err)
					}
				case 5: // Clear, reset the counters or age the free slots, rarely
					switch next() % 8 {
					case 0, 4:
						p.Clear()
						for _, h := range live {
							released(h)
						}
						dead = append(dead, live...)
						live = live[:0]
						clear(model)
					case 1:
						p.ResetStats()
						acquires, misses, releases, rejects = 0, 0, 0, 0
						highWater, allocsLo, allocsHi = len(live)+retired, 0, 0
					case 2:
						// The next use of each free slot is its last.
						p.age(retiredGen - 2)
					}
				}
				if got := contents(t, p); !maps.Equal(got, model) {
					t.Fatalf("%s op %d: pool holds %v, model %v", c.name, seq, got, model)
				}
				st := p.Stats()
				if st.Acquires != acquires || st.Misses != misses || st.Releases != releases || st.Rejects != rejects || st.Active != len(live) || st.HighWater != highWater || st.Retired != retired {
					t.Fatalf("%s op %d: Stats %+v; model acquires %d misses %d releases %d rejects %d live %d high water %d retired %d",
						c.name, seq, st, acquires, misses, releases, rejects, len(live), highWater, retired)
				}
				if st.Allocs < allocsLo || st.Allocs > allocsHi {
					t.Fatalf("%s op %d: Stats.Allocs %d, want %d..%d", c.name, seq, st.Allocs, allocsLo, allocsHi)
				}
			}
		}
	})
}
