package pool

import (
	"errors"
	"fmt"
	"iter"
	"maps"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// item is a pool element shaped like a game's particle: no pointers.
type item struct {
	X, Y, VX, VY float64
	Life, Serial int64
}

func newPool(t testing.TB, s Strategy, capacity int) *Pool[item] {
	t.Helper()
	p, err := New[item](s, capacity)
	if err != nil {
		t.Fatalf("New(%s, %d): %v", s, capacity, err)
	}
	return p
}

// subject is what the contract tests see of a pool: a Pool with any
// strategy, or a Slab.
type subject interface {
	Acquire() (Handle, *item, bool)
	Release(Handle) error
	Get(Handle) (*item, bool)
	All() iter.Seq2[Handle, *item]
	Len() int
	Cap() int
	Clear()
	Stats() Stats
	ResetStats()
	age(g uint32) // export_test.go
}

// subjectCase makes one kind of pool the contract tests run against.
type subjectCase struct {
	name     string
	strategy Strategy // what Stats reports
	pooled   bool     // allocates nothing after it is made
	make     func(capacity int) (subject, error)
}

func (c subjectCase) new(t testing.TB, capacity int) subject {
	t.Helper()
	p, err := c.make(capacity)
	if err != nil {
		t.Fatalf("%s with capacity %d: %v", c.name, capacity, err)
	}
	return p
}

// subjects lists a Pool of every strategy, then Slab.
func subjects() []subjectCase {
	var cs []subjectCase
	for _, s := range Strategies() {
		cs = append(cs, subjectCase{string(s), s, mustKind(s).pooled(), func(n int) (subject, error) {
			return asSubject(New[item](s, n))
		}})
	}
	return append(cs, subjectCase{"slab", FreeList, true, func(n int) (subject, error) {
		return asSubject(NewSlab[item](n))
	}})
}

// asSubject passes on what New or NewSlab returned, with a nil subject, not
// a nil pointer in one, on error.
func asSubject[P subject](p P, err error) (subject, error) {
	if err != nil {
		return nil, err
	}
	return p, nil
}

// contents collects every live item by handle through All, failing on a
// handle seen twice or one that Get disagrees with.
func contents(t *testing.T, p subject) map[Handle]item {
	t.Helper()
	got := make(map[Handle]item)
	for h, v := range p.All() {
		if _, dup := got[h]; dup {
			t.Fatalf("%s: All yielded %v twice", p.Stats().Strategy, h)
		}
		if g, ok := p.Get(h); !ok || g != v {
			t.Fatalf("%s: All yielded %v, but Get gives %p, %v", p.Stats().Strategy, h, g, ok)
		}
		got[h] = *v
	}
	if len(got) != p.Len() {
		t.Fatalf("%s: All yielded %d items, Len is %d", p.Stats().Strategy, len(got), p.Len())
	}
	return got
}

func TestStrategiesAndParse(t *testing.T) {
	want := []Strategy{Alloc, SyncPool, ListRemove, ActiveList, Scan, Queue, FreeList, Offsets, Bitset, Dense}
	if got := Strategies(); !slices.Equal(got, want) {
		t.Fatalf("Strategies() = %v, want %v", got, want)
	}
	Strategies()[0] = "mutated"
	if Strategies()[0] != Alloc {
		t.Fatal("Strategies returned a slice aliasing package state")
	}
	tests := []struct {
		in      string
		want    Strategy
		wantErr bool
	}{
		{"dense", Dense, false},
		{" FreeList ", FreeList, false},
		{"syncpool", SyncPool, false},
		{"", "", true},
		{"densest", "", true},
	}
	for _, tt := range tests {
		got, err := ParseStrategy(tt.in)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("ParseStrategy(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
		if err != nil && !errorContains(err, "allowed are alloc, syncpool") {
			t.Errorf("ParseStrategy(%q) error %q does not list the allowed names", tt.in, err)
		}
	}
}

func errorContains(err error, s string) bool {
	return err != nil && strings.Contains(err.Error(), s)
}

func TestNewRejectsBadArguments(t *testing.T) {
	tests := []struct {
		s        Strategy
		capacity int
		want     string
	}{
		{Dense, 0, "capacity 0 is out of range: allowed 1..16777216"},
		{Dense, -5, "capacity -5 is out of range"},
		{Dense, MaxCapacity + 1, "out of range"},
		{"nope", 10, `unknown strategy "nope"`},
	}
	for _, tt := range tests {
		p, err := New[item](tt.s, tt.capacity)
		if p != nil || !errorContains(err, tt.want) {
			t.Errorf("New(%q, %d) = %v, %v; want error containing %q", tt.s, tt.capacity, p, err, tt.want)
		}
		if tt.s == Dense {
			s, err := NewSlab[item](tt.capacity)
			if s != nil || !errorContains(err, tt.want) {
				t.Errorf("NewSlab(%d) = %v, %v; want error containing %q", tt.capacity, s, err, tt.want)
			}
		}
	}
}

// TestContract runs the whole contract against every strategy and Slab, and
// a range of capacities, including ones that are not multiples of 4 or 64
// (100: a last 64-slot word more than half full, which bitset walks as a
// run).
func TestContract(t *testing.T) {
	for _, s := range subjects() {
		for _, capacity := range []int{1, 3, 64, 100, 130} {
			t.Run(fmt.Sprintf("%s/%d", s.name, capacity), func(t *testing.T) {
				t.Run("Exhaustion", func(t *testing.T) { testExhaustion(t, s, capacity) })
				t.Run("BadHandles", func(t *testing.T) { testBadHandles(t, s, capacity) })
				t.Run("Clear", func(t *testing.T) { testClear(t, s, capacity) })
				t.Run("ReleaseInLoop", func(t *testing.T) { testReleaseInLoop(t, s, capacity) })
				t.Run("EarlyBreak", func(t *testing.T) { testEarlyBreak(t, s, capacity) })
				t.Run("Reuse", func(t *testing.T) { testReuse(t, s, capacity) })
				t.Run("Holes", func(t *testing.T) { testHoles(t, s, capacity) })
				t.Run("ResetStats", func(t *testing.T) { testResetStats(t, s, capacity) })
				t.Run("Retire", func(t *testing.T) { testRetire(t, s, capacity) })
			})
		}
	}
}

func testExhaustion(t *testing.T, c subjectCase, capacity int) {
	p := c.new(t, capacity)
	seen := make(map[*item]bool)
	for i := range capacity {
		h, v, ok := p.Acquire()
		if !ok || v == nil || h == (Handle{}) {
			t.Fatalf("Acquire %d of %d failed", i+1, capacity)
		}
		if *v != (item{}) {
			t.Fatalf("Acquire returned a non-zero item %+v", *v)
		}
		if seen[v] {
			t.Fatalf("Acquire returned pointer %p twice", v)
		}
		seen[v] = true
		v.Serial = int64(i)
	}
	for range 3 {
		if h, v, ok := p.Acquire(); ok || v != nil || h != (Handle{}) {
			t.Fatalf("Acquire on a full pool = %v, %p, %v; want zero, nil, false", h, v, ok)
		}
	}
	st := p.Stats()
	if st.Misses != 3 || st.Acquires != uint64(capacity) || st.Active != capacity || st.HighWater != capacity || st.Capacity != capacity {
		t.Fatalf("Stats after filling = %+v", st)
	}
	if st.Strategy != c.strategy || p.Cap() != capacity || p.Len() != capacity {
		t.Fatalf("Strategy/Cap/Len = %s/%d/%d", st.Strategy, p.Cap(), p.Len())
	}
	if p, ok := p.(*Pool[item]); ok && p.Strategy() != c.strategy {
		t.Fatalf("Strategy() = %s, want %s", p.Strategy(), c.strategy)
	}
	if st.Overhead < 4*capacity {
		t.Fatalf("Overhead %d is less than the generations alone (%d)", st.Overhead, 4*capacity)
	}
	serials := make(map[int64]bool)
	for _, v := range contents(t, p) {
		serials[v.Serial] = true
	}
	if len(serials) != capacity {
		t.Fatalf("All saw %d distinct items, want %d", len(serials), capacity)
	}
}

func testBadHandles(t *testing.T, c subjectCase, capacity int) {
	p := c.new(t, capacity)
	other := c.new(t, capacity)
	h, v, _ := p.Acquire()
	v.Life = 7
	foreign, _, _ := other.Acquire()
	if err := p.Release(h); err != nil {
		t.Fatalf("Release: %v", err)
	}
	if *v != (item{}) && c.pooled {
		t.Fatalf("released item not zeroed: %+v", *v)
	}
	h2, _, _ := p.Acquire() // may reuse the same slot: h must stay stale
	bad := map[string]Handle{"zero": {}, "double": h, "foreign": foreign, "forged": {pool: h.pool, slot: uint32(capacity), gen: 1}}
	for name, b := range bad {
		before := p.Stats()
		if err := p.Release(b); !errors.Is(err, ErrStale) {
			t.Errorf("Release(%s) = %v, want ErrStale", name, err)
		}
		if g, ok := p.Get(b); ok || g != nil {
			t.Errorf("Get(%s) = %p, %v; want nil, false", name, g, ok)
		}
		after := p.Stats()
		before.Rejects++
		if after != before {
			t.Errorf("Release(%s) changed the pool: %+v -> %+v", name, before, after)
		}
	}
	if _, ok := p.Get(h2); !ok {
		t.Fatal("the live handle became invalid after bad releases")
	}
}

func testClear(t *testing.T, c subjectCase, capacity int) {
	p := c.new(t, capacity)
	var hs []Handle
	for range capacity {
		h, v, _ := p.Acquire()
		v.X = 1
		hs = append(hs, h)
	}
	// Churn first, so that free-list links and cursors point anywhere.
	for i := 0; i < capacity; i += 2 {
		p.Release(hs[i])
	}
	for i := 0; i < capacity; i += 4 {
		hs[i], _, _ = p.Acquire()
	}
	p.Clear()
	if p.Len() != 0 || len(contents(t, p)) != 0 {
		t.Fatalf("Len after Clear = %d", p.Len())
	}
	for _, h := range hs {
		if _, ok := p.Get(h); ok {
			t.Fatal("a handle survived Clear")
		}
	}
	st := p.Stats()
	if st.Acquires-st.Releases != uint64(st.Active) {
		t.Fatalf("Stats after Clear: %+v", st)
	}
	seen := make(map[*item]bool)
	for i := range capacity {
		_, v, ok := p.Acquire()
		if !ok || *v != (item{}) {
			t.Fatalf("Acquire %d after Clear = %+v, %v", i, v, ok)
		}
		if seen[v] {
			t.Fatalf("Acquire %d after Clear returned pointer %p twice", i, v)
		}
		seen[v] = true
	}
	if _, _, ok := p.Acquire(); ok {
		t.Fatalf("Acquire %d after Clear succeeded on a full pool", capacity+1)
	}
}

func testReleaseInLoop(t *testing.T, c subjectCase, capacity int) {
	p := c.new(t, capacity)
	for i := range capacity {
		_, v, _ := p.Acquire()
		v.Serial = int64(i)
	}
	visited := make(map[int64]int)
	for h, v := range p.All() {
		visited[v.Serial]++
		if v.Serial%2 == 0 {
			if err := p.Release(h); err != nil {
				t.Fatalf("Release inside All: %v", err)
			}
		}
	}
	for i := range int64(capacity) {
		if visited[i] != 1 {
			t.Fatalf("item %d visited %d times", i, visited[i])
		}
	}
	for _, v := range contents(t, p) {
		if v.Serial%2 == 0 {
			t.Fatalf("released item %d still live", v.Serial)
		}
	}
	if want := capacity / 2; p.Len() != want {
		t.Fatalf("Len = %d, want %d", p.Len(), want)
	}
}

func testEarlyBreak(t *testing.T, c subjectCase, capacity int) {
	p := c.new(t, capacity)
	for range capacity {
		p.Acquire()
	}
	n := 0
	for range p.All() {
		if n++; n == 1 {
			break
		}
	}
	if n != 1 {
		t.Fatalf("loop ran %d times after break", n)
	}
}

// testHoles fills the pool, releases a pattern of the items in the order
// they were acquired — a stretch at the front, at the back, every other one
// — and checks that All still finds every live item: a strategy that hands
// All an empty stretch before live ones must not end the loop there.
func testHoles(t *testing.T, c subjectCase, capacity int) {
	patterns := map[string]func(k int) bool{
		"front half":  func(k int) bool { return k < capacity/2 },
		"front 64":    func(k int) bool { return k < 64 },
		"back half":   func(k int) bool { return k >= capacity/2 },
		"every other": func(k int) bool { return k%2 == 0 },
		"all but one": func(k int) bool { return k != capacity-1 },
	}
	for name, released := range patterns {
		p := c.new(t, capacity)
		model := make(map[Handle]item)
		for k := range capacity {
			h, v, _ := p.Acquire()
			v.Serial = int64(k)
			model[h] = *v
		}
		for h, v := range model {
			if released(int(v.Serial)) {
				p.Release(h)
				delete(model, h)
			}
		}
		if got := contents(t, p); !maps.Equal(got, model) {
			t.Fatalf("%s released: All yields %d items, want %d", name, len(got), len(model))
		}
	}
}

// testResetStats churns the pool, resets its counters at points where its
// free slots lie anywhere, and checks after every operation that the
// counters equal a model's counted since the reset: HighWater starts at the
// live count and then follows the most items live since.
func testResetStats(t *testing.T, c subjectCase, capacity int) {
	p := c.new(t, capacity)
	var live []Handle
	var want Stats
	reset := func() {
		p.ResetStats()
		want = Stats{Active: len(live), HighWater: len(live)}
	}
	reset()
	for step := range 12 * capacity {
		switch {
		case step%(3*capacity+1) == 2*capacity:
			reset()
		case step%4 == 3 && len(live) > 0:
			k := (step * 7) % len(live)
			if err := p.Release(live[k]); err != nil {
				t.Fatalf("step %d: Release: %v", step, err)
			}
			live = slices.Delete(live, k, k+1)
			want.Releases++
			want.Active--
		case step%9 == 5:
			p.Release(Handle{})
			want.Rejects++
		default:
			if h, _, ok := p.Acquire(); !ok {
				want.Misses++
			} else {
				live = append(live, h)
				want.Acquires++
				want.Active++
				want.HighWater = max(want.HighWater, want.Active)
			}
		}
		got := p.Stats()
		if got.Active != want.Active || got.HighWater != want.HighWater || got.Acquires != want.Acquires ||
			got.Releases != want.Releases || got.Misses != want.Misses || got.Rejects != want.Rejects {
			t.Fatalf("step %d: Stats = %+v, want counts %+v", step, got, want)
		}
		if got.Probes < got.Acquires || (c.pooled && got.Allocs != 0) {
			t.Fatalf("step %d: Probes %d, Allocs %d after %d acquires", step, got.Probes, got.Allocs, got.Acquires)
		}
	}
	for _, h := range live {
		if _, ok := p.Get(h); !ok {
			t.Fatal("a live handle became invalid across ResetStats")
		}
	}
	if c.pooled {
		if n := testing.AllocsPerRun(10, p.ResetStats); n != 0 {
			t.Errorf("ResetStats: %v allocs", n)
		}
	}
	// A reset right after Clear starts from zero, and the pool fills again.
	p.Clear()
	p.ResetStats()
	if st := p.Stats(); st.Active != 0 || st.HighWater != 0 || st.Releases != 0 || st.Acquires != 0 {
		t.Fatalf("Stats after Clear and ResetStats = %+v", st)
	}
	for i := range capacity {
		if _, _, ok := p.Acquire(); !ok {
			t.Fatalf("Acquire %d of %d after Clear and ResetStats failed", i+1, capacity)
		}
	}
	if st := p.Stats(); st.HighWater != capacity || st.Acquires != uint64(capacity) {
		t.Fatalf("Stats after refilling = %+v", st)
	}
}

// testRetire brings half the slots to their last generation and churns the
// pool: each such slot retires on its last release, is never handed out
// again, and no handle of its first use becomes live again, as it would if
// its generation wrapped. Live items, iteration, Clear and ResetStats go on
// working around the retired slots.
func testRetire(t *testing.T, c subjectCase, capacity int) {
	p := c.new(t, capacity)
	var first []Handle // every slot's first handle, stale from the start
	for range capacity {
		h, _, _ := p.Acquire()
		first = append(first, h)
	}
	for _, h := range first {
		p.Release(h)
	}
	var keep []Handle
	for range capacity / 2 {
		h, _, _ := p.Acquire()
		keep = append(keep, h)
	}
	retiring := capacity - len(keep)
	p.age(retiredGen - 2) // the next use of a free slot is its last
	acquireAll := func(when string) map[uint32]Handle {
		t.Helper()
		got := make(map[uint32]Handle)
		for {
			h, v, ok := p.Acquire()
			if !ok {
				break
			}
			if _, dup := got[h.slot]; dup {
				t.Fatalf("%s: slot %d handed out twice", when, h.slot)
			}
			v.Serial = int64(h.slot)
			got[h.slot] = h
		}
		for _, h := range first {
			if _, ok := p.Get(h); ok {
				t.Fatalf("%s: the first handle of slot %d is live again: its generation wrapped", when, h.slot)
			}
		}
		return got
	}
	last := acquireAll("last use")
	if len(last) != retiring {
		t.Fatalf("last use: %d acquired, want %d", len(last), retiring)
	}
	// Release them inside a loop, which retiring must not disturb.
	visited := 0
	for h, v := range p.All() {
		visited++
		if _, ok := last[h.slot]; ok {
			if serial := v.Serial; p.Release(h) != nil || serial != int64(h.slot) {
				t.Fatalf("Release of slot %d (item %d) in its last use failed", h.slot, serial)
			}
		}
	}
	if visited != capacity {
		t.Fatalf("All visited %d items while retiring, want %d", visited, capacity)
	}
	for round := range 3 {
		if got := acquireAll(fmt.Sprint("round ", round)); len(got) != 0 {
			t.Fatalf("round %d: %d retired slots handed out again", round, len(got))
		}
	}
	st := p.Stats()
	if st.Retired != retiring || st.Active != len(keep) || st.Capacity != capacity {
		t.Fatalf("Stats after retiring %d = %+v", retiring, st)
	}
	for _, h := range last {
		if err := p.Release(h); !errors.Is(err, ErrStale) {
			t.Fatalf("Release of a retired slot's last handle = %v, want ErrStale", err)
		}
	}
	if got := contents(t, p); len(got) != len(keep) {
		t.Fatalf("All yields %d items, want the %d kept", len(got), len(keep))
	}
	for _, h := range keep {
		if err := p.Release(h); err != nil {
			t.Fatalf("Release of a kept item: %v", err)
		}
	}
	p.ResetStats()
	again := acquireAll("after retiring")
	if len(again) != len(keep) {
		t.Fatalf("after retiring: %d acquired, want %d", len(again), len(keep))
	}
	for slot := range again {
		if _, ok := last[slot]; ok {
			t.Fatalf("retired slot %d handed out again", slot)
		}
	}
	// Clear retires the live slots in their last use too.
	p.Clear()
	p.age(retiredGen - 2)
	if got := acquireAll("before Clear"); len(got) != len(keep) {
		t.Fatalf("before Clear: %d acquired, want %d", len(got), len(keep))
	}
	p.Clear()
	if got := acquireAll("after Clear"); len(got) != 0 {
		t.Fatalf("after Clear: %d retired slots handed out again", len(got))
	}
	if st := p.Stats(); st.Retired != capacity || st.Active != 0 {
		t.Fatalf("Stats with every slot retired = %+v", st)
	}
}

// testReuse churns the pool long enough for every strategy's bookkeeping to
// wrap around, checking contents against a model as it goes.
func testReuse(t *testing.T, c subjectCase, capacity int) {
	p := c.new(t, capacity)
	model := make(map[Handle]item)
	var order []Handle
	for step := range 20 * capacity {
		if len(order) == capacity || (step%3 == 2 && len(order) > 0) {
			h := order[0]
			order = order[1:]
			if err := p.Release(h); err != nil {
				t.Fatalf("step %d: Release: %v", step, err)
			}
			delete(model, h)
			continue
		}
		h, v, ok := p.Acquire()
		if !ok {
			t.Fatalf("step %d: Acquire failed with %d live", step, len(order))
		}
		v.Serial = int64(step)
		model[h] = *v
		order = append(order, h)
	}
	if got := contents(t, p); !maps.Equal(got, model) {
		t.Fatalf("contents differ from model: %d vs %d items", len(got), len(model))
	}
}

// TestSetStrategyEveryPair switches between every ordered pair of
// strategies with a half-full pool and checks handles, values, counters and
// that the pool goes on working.
func TestSetStrategyEveryPair(t *testing.T) {
	const capacity = 70
	for _, from := range Strategies() {
		for _, to := range Strategies() {
			t.Run(string(from)+"->"+string(to), func(t *testing.T) {
				p := newPool(t, from, capacity)
				var hs []Handle
				for i := range capacity {
					h, v, _ := p.Acquire()
					v.Serial, v.X = int64(i), float64(i)/3
					hs = append(hs, h)
				}
				for i, h := range hs {
					if i%3 == 0 {
						p.Release(h)
					}
				}
				p.Release(Handle{})
				before, stats := contents(t, p), p.Stats()
				if err := p.SetStrategy(to); err != nil {
					t.Fatal(err)
				}
				if after := contents(t, p); !maps.Equal(before, after) {
					t.Fatal("live items changed across SetStrategy")
				}
				got := p.Stats()
				stats.Strategy, stats.Overhead = to, got.Overhead
				if mustKind(from).pooled() && !mustKind(to).pooled() {
					// The live items move to the heap.
					stats.Allocs += uint64(len(before))
				}
				if got != stats {
					t.Fatalf("Stats changed: %+v -> %+v", stats, got)
				}
				for len(before) < capacity {
					h, v, ok := p.Acquire()
					if !ok || *v != (item{}) {
						t.Fatalf("Acquire after switch = %v", ok)
					}
					if _, dup := before[h]; dup {
						t.Fatal("Acquire after switch returned a live handle")
					}
					before[h] = item{}
				}
				if _, _, ok := p.Acquire(); ok {
					t.Fatal("pool grew past its capacity after switch")
				}
				if err := p.SetStrategy("bogus"); err == nil || p.Strategy() != to {
					t.Fatalf("SetStrategy(bogus) = %v, strategy now %s", err, p.Strategy())
				}
			})
		}
	}
}

// TestSetStrategyRetired switches between every ordered pair of strategies
// a pool with retired, live and free slots, and checks that the retired
// ones stay out of the new strategy's bookkeeping: never handed out, never
// iterated, and the pool full at Capacity - Retired items.
func TestSetStrategyRetired(t *testing.T) {
	const capacity, live, retiring = 70, 20, 25
	for _, from := range Strategies() {
		for _, to := range Strategies() {
			p := newPool(t, from, capacity)
			keep := make(map[Handle]bool)
			for range live {
				h, _, _ := p.Acquire()
				keep[h] = true
			}
			p.age(retiredGen - 2)
			var last []Handle
			for range retiring {
				h, _, _ := p.Acquire()
				last = append(last, h)
			}
			for _, h := range last {
				p.Release(h)
			}
			if err := p.SetStrategy(to); err != nil {
				t.Fatal(err)
			}
			for h := range p.All() {
				if !keep[h] {
					t.Fatalf("%s->%s: All yields %v, not a kept item", from, to, h)
				}
			}
			n := 0
			for {
				h, _, ok := p.Acquire()
				if !ok {
					break
				}
				if slices.ContainsFunc(last, func(r Handle) bool { return r.slot == h.slot }) {
					t.Fatalf("%s->%s: retired slot %d handed out again", from, to, h.slot)
				}
				n++
			}
			if st := p.Stats(); n != capacity-live-retiring || st.Retired != retiring {
				t.Fatalf("%s->%s: %d acquired, Stats %+v; want %d acquired, %d retired", from, to, n, st, capacity-live-retiring, retiring)
			}
		}
	}
}

func TestStatsArithmetic(t *testing.T) {
	for _, c := range subjects() {
		t.Run(c.name, func(t *testing.T) {
			p := c.new(t, 10)
			var hs []Handle
			for range 7 {
				h, _, _ := p.Acquire()
				hs = append(hs, h)
			}
			for _, h := range hs[:5] {
				p.Release(h)
			}
			p.Release(hs[0])
			for range 12 {
				p.Acquire()
			}
			st := p.Stats()
			want := Stats{Strategy: c.strategy, Capacity: 10, Active: 10, HighWater: 10, Acquires: 15, Misses: 4, Releases: 5, Rejects: 1, Probes: st.Probes, Overhead: st.Overhead, Allocs: st.Allocs}
			if st != want {
				t.Fatalf("Stats = %+v, want %+v", st, want)
			}
			if st.Acquires-st.Releases != uint64(st.Active) {
				t.Fatal("Acquires - Releases != Active")
			}
			if st.Probes < st.Acquires {
				t.Fatalf("Probes %d < Acquires %d: every acquire examines at least one slot", st.Probes, st.Acquires)
			}
		})
	}
}

// TestProbesFollowSeedCosts checks that the O(n) strategies really search
// where their seed does — listremove in a mostly free pool, the others in a
// nearly full one — by comparing probes per operation at two capacities:
// linear costs grow tenfold, constant ones do not. full == 1 means all
// slots but one are live.
func TestProbesFollowSeedCosts(t *testing.T) {
	probesPerOp := func(s Strategy, capacity int, full float64) float64 {
		p := newPool(t, s, capacity)
		hs := make([]Handle, 0, capacity)
		live := int(float64(capacity) * full)
		if full == 1 {
			live = capacity - 1 // one free slot: the worst case of a search
		}
		for range live {
			h, _, _ := p.Acquire()
			hs = append(hs, h)
		}
		start := p.Stats()
		for i := range 1000 {
			k := (i * 7919) % len(hs) // scattered, as a game releases
			p.Release(hs[k])
			hs[k], _, _ = p.Acquire()
		}
		return float64(p.Stats().Probes-start.Probes) / 2000
	}
	tests := []struct {
		s      Strategy
		full   float64
		linear bool
	}{
		{ListRemove, 0.1, true}, {ActiveList, 1, true}, {Scan, 1, true}, {Offsets, 1, true},
		{FreeList, 1, false}, {Queue, 1, false}, {Dense, 1, false}, {Bitset, 1, false}, {Alloc, 1, false}, {SyncPool, 1, false},
		{FreeList, 0.1, false}, {Dense, 0.1, false},
	}
	for _, tt := range tests {
		small, large := probesPerOp(tt.s, 100, tt.full), probesPerOp(tt.s, 1000, tt.full)
		if grew := large > 5*small; grew != tt.linear {
			t.Errorf("%s at %.0f%% full: probes per op %.1f at capacity 100, %.1f at 1000; want linear growth %v",
				tt.s, 100*tt.full, small, large, tt.linear)
		}
	}
}

// TestNoAllocs asserts the allocation budget: pooled strategies and Slab
// allocate nothing after they are made for Acquire, Release, Get and a full
// All loop.
func TestNoAllocs(t *testing.T) {
	for _, c := range subjects() {
		if !c.pooled {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			p := c.new(t, 256)
			for range 128 {
				p.Acquire()
			}
			if n := testing.AllocsPerRun(100, func() {
				h, v, _ := p.Acquire()
				v.X++
				p.Get(h)
				p.Release(h)
			}); n != 0 {
				t.Errorf("Acquire/Get/Release: %v allocs", n)
			}
			// A range loop over All on an interface value allocates: the
			// loop must see the concrete type, as a game's does.
			var sum float64
			var loop func()
			switch p := p.(type) {
			case *Pool[item]:
				loop = func() {
					for _, v := range p.All() {
						sum += v.X
					}
				}
			case *Slab[item]:
				loop = func() {
					for _, v := range p.All() {
						sum += v.X
					}
				}
			}
			if n := testing.AllocsPerRun(100, loop); n != 0 {
				t.Errorf("All loop: %v allocs", n)
			}
			if n := testing.AllocsPerRun(10, func() {
				p.Clear()
				for range 128 {
					p.Acquire()
				}
			}); n != 0 {
				t.Errorf("Clear: %v allocs", n)
			}
			if a := p.Stats().Allocs; a != 0 {
				t.Errorf("Stats.Allocs = %d, want 0", a)
			}
		})
	}
}

func mustKind(s Strategy) kind {
	k, ok := kindOf(s)
	if !ok {
		panic(s)
	}
	return k
}

func TestAllocPeerAllocates(t *testing.T) {
	p := newPool(t, Alloc, 16)
	if n := testing.AllocsPerRun(100, func() {
		h, _, _ := p.Acquire()
		p.Release(h)
	}); n < 1 {
		t.Fatalf("alloc peer: %v allocs per Acquire, want at least 1", n)
	}
	if st := p.Stats(); st.Allocs != st.Acquires {
		t.Fatalf("alloc peer: Stats.Allocs = %d after %d acquires, want one each", st.Allocs, st.Acquires)
	}
}

// TestSyncPoolAllocs checks that Stats.Allocs counts what sync.Pool
// allocates: an empty cache allocates, a released item may be reused, and
// two garbage collections empty the cache again.
func TestSyncPoolAllocs(t *testing.T) {
	p := newPool(t, SyncPool, 16)
	for range 100 {
		h, _, _ := p.Acquire()
		p.Release(h)
	}
	st := p.Stats()
	if st.Allocs < 1 || st.Allocs > st.Acquires {
		t.Fatalf("Stats.Allocs = %d after %d acquires, want 1..%[2]d", st.Allocs, st.Acquires)
	}
	// The first collection moves the cache to sync.Pool's victim cache, the
	// second drops it.
	runtime.GC()
	runtime.GC()
	p.Acquire()
	if got := p.Stats().Allocs; got != st.Allocs+1 {
		t.Fatalf("Acquire after two collections: Stats.Allocs = %d, want %d", got, st.Allocs+1)
	}
}

// TestInlines checks the inlining the package's speed rests on: Slab's
// Acquire, Release and Get, the reason Slab exists, and Pool's whole, which
// lets a loop over dense, activelist or a strategy that tracks only free
// slots reach its first item without a call. It builds this package's
// tests with -m=2, which prints the inliner's decisions, the way the
// compiler's own tests guard intended inlining.
func TestInlines(t *testing.T) {
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to ask the compiler: %v", err)
	}
	out, err := exec.Command(gotool, "test", "-c", "-o", filepath.Join(t.TempDir(), "pool.test"), "-gcflags=-m=2", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go test -c -gcflags=-m=2: %v\n%s", err, out)
	}
	// Only the shape instantiations are the code callers run; the
	// wrappers for named types call them.
	decision := regexp.MustCompile(`(can|cannot) inline \(\*(Slab|Pool)\[go\.shape\.[^\n]*?\]\)\.(\w+)(?: with cost (\d+))?`)
	want := []string{"Slab.Acquire", "Slab.Release", "Slab.Get", "Pool.whole"}
	inlined := make(map[string]int)
	for _, m := range decision.FindAllSubmatch(out, -1) {
		name := string(m[2]) + "." + string(m[3])
		if !slices.Contains(want, name) {
			continue
		}
		if string(m[1]) == "cannot" {
			t.Errorf("%s", m[0])
			continue
		}
		inlined[name], _ = strconv.Atoi(string(m[4]))
	}
	for _, name := range want {
		cost, ok := inlined[name]
		if !ok {
			t.Errorf("%s is not inlined", name)
			continue
		}
		t.Logf("%s: inliner cost %d of 80", name, cost)
	}
}
