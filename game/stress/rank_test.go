package stress

import (
	"slices"
	"strings"
	"testing"

	"poolroids/pool"
)

// checkRanks checks the ranking rule on a ranked report: ranks never go
// down, a group's first run has the rank of its place, a run that starts a
// group lies above the noise of the group before, and a run within a
// group lies within the noise of that group's fastest.
func checkRanks(t *testing.T, rep *Report) {
	t.Helper()
	lead := 0 // the fastest run of the current group
	for i, r := range rep.Runs {
		if i == 0 || r.Rank != rep.Runs[i-1].Rank {
			if r.Rank != i+1 {
				t.Errorf("%s starts a group at place %d with rank %d", r.Strategy, i+1, r.Rank)
			}
			if i > 0 && r.PoolNsLow <= rep.Runs[lead].PoolNsHigh {
				t.Errorf("%s (from %v) is within the noise of %s (up to %v), yet ranked apart", r.Strategy, r.PoolNsLow, rep.Runs[lead].Strategy, rep.Runs[lead].PoolNsHigh)
			}
			lead = i
			for j := i + 1; j < len(rep.Runs) && rep.Runs[j].Rank == r.Rank; j++ {
				if rep.Runs[j].PoolNs < rep.Runs[lead].PoolNs {
					lead = j
				}
			}
			continue
		}
		if r.Rank < rep.Runs[i-1].Rank {
			t.Errorf("%s ranked %d after rank %d", r.Strategy, r.Rank, rep.Runs[i-1].Rank)
		}
		if r.PoolNsLow > rep.Runs[lead].PoolNsHigh && i != lead {
			t.Errorf("%s (from %v) tied with %s (up to %v)", r.Strategy, r.PoolNsLow, rep.Runs[lead].Strategy, rep.Runs[lead].PoolNsHigh)
		}
	}
}

func TestNoise(t *testing.T) {
	for _, c := range []struct {
		runs   []float64
		lo, hi float64
	}{
		{[]float64{5}, 5, 5},
		{[]float64{9, 1, 5}, 1, 9},                       // 3 runs: the whole range (75%)
		{[]float64{7, 1, 2, 3, 4, 5, 100}, 2, 7},         // 7 runs: drop one at each end (87.5%)
		{[]float64{10, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 3, 8}, // 10 runs: drop two (89%)
	} {
		if lo, hi := noise(c.runs); lo != c.lo || hi != c.hi {
			t.Errorf("noise(%v) = %v..%v, want %v..%v", c.runs, lo, hi, c.lo, c.hi)
		}
	}
	for n := 1; n <= MaxRepeat; n++ {
		d := drop(n)
		if n > 2*d && n >= 7 && 1-2*binomialCDF(n, d) < confidence {
			t.Errorf("%d runs: dropping %d at each end holds the median with %v, under %v", n, d, 1-2*binomialCDF(n, d), confidence)
		}
		if 2*(d+1) < n && 1-2*binomialCDF(n, d+1) >= confidence {
			t.Errorf("%d runs: could drop %d, drops %d", n, d+1, d)
		}
	}
}

// TestRankTies ranks made-up results: ties by overlapping intervals, the
// order within a tie from the game's counts (not the clock), and the
// verdict that follows.
func TestRankTies(t *testing.T) {
	res := func(s pool.Strategy, ns, lo, hi float64, probes float64, overhead int, heap uint64) Result {
		return Result{Strategy: s, PoolNs: ns, PoolNsLow: lo, PoolNsHigh: hi, StepNsMedian: 1000,
			ProbesPerAcquire: probes, Overhead: overhead, HeapItems: heap, Acquires: 100}
	}
	rep := &Report{LevelSet: "pressure", BulletCap: 512, DebrisCap: 4096, BulletOccupancy: 98, DebrisOccupancy: 71,
		Repeat: 7, ChecksumsEqual: true, Runs: []Result{
			res(pool.ListRemove, 12000, 11500, 12500, 855, 4, 0),
			res(pool.Dense, 2000, 1950, 2100, 1, 8, 0),
			res(pool.FreeList, 2050, 2000, 2150, 1, 4, 0), // within dense's noise, less bookkeeping
			res(pool.Alloc, 2080, 2060, 2090, 1, 8, 100),  // within noise too, but from the heap
			res(pool.Bitset, 2500, 2200, 2600, 1.5, 1, 0), // starts above the leaders' noise: a group of its own
			res(pool.Queue, 2550, 2450, 2700, 1, 5, 0),
			res(pool.Scan, 3000, 2900, 3100, 60, 1, 0), // searches, but under twice the leader's time
		}}
	rep.rank()
	var got []string
	for i, r := range rep.Runs {
		got = append(got, string(r.Strategy)+":"+rep.rankOf(i))
	}
	want := []string{"freelist:1=", "dense:1=", "alloc:1=", "queue:4=", "bitset:4=", "scan:6", "listremove:7"}
	if !slices.Equal(got, want) {
		t.Errorf("ranked %v, want %v", got, want)
	}
	checkRanks(t, rep)
	if rep.Use != pool.FreeList || !slices.Equal(rep.WithinNoise, []pool.Strategy{pool.Dense, pool.Alloc}) || !slices.Equal(rep.Avoid, []pool.Strategy{pool.ListRemove}) {
		t.Errorf("use %s, within noise %v, avoid %v", rep.Use, rep.WithinNoise, rep.Avoid)
	}
	wantVerdict := `For this workload (level set "pressure", bullets 512 and debris 4096, 98% and 71% full on average): ` +
		"use freelist; dense and alloc are within noise of it. Avoid, at twice its pool time or more, listremove (its searches examine 855 slots per acquire). " +
		"The rest cost more: scan, queue and bitset."
	if rep.Verdict != wantVerdict {
		t.Errorf("verdict:\n%s\nwant:\n%s", rep.Verdict, wantVerdict)
	}
	if !strings.Contains(rep.TieRule, "middle 5 of their 7 runs") || !strings.Contains(rep.TieRule, "87.5%") {
		t.Errorf("tie rule %q", rep.TieRule)
	}

	// The same results timed the other way round within the noise give
	// the same ranking and verdict.
	again := *rep
	again.Runs = slices.Clone(rep.Runs)
	for i := range again.Runs {
		if again.Runs[i].Strategy == pool.Dense {
			again.Runs[i].PoolNs = 2070
		}
		if again.Runs[i].Strategy == pool.FreeList {
			again.Runs[i].PoolNs = 1990
		}
	}
	slices.Reverse(again.Runs)
	again.rank()
	if again.Verdict != rep.Verdict {
		t.Errorf("verdict moved with the noise:\n%s\nwas:\n%s", again.Verdict, rep.Verdict)
	}

	one := &Report{Repeat: 1, ChecksumsEqual: true, Runs: []Result{res(pool.Dense, 2000, 2000, 2000, 1, 8, 0)}}
	one.rank()
	if !strings.Contains(one.Verdict, "only dense ran") {
		t.Errorf("one strategy: %q", one.Verdict)
	}
	diverged := &Report{Repeat: 1, Runs: []Result{res(pool.Dense, 2000, 2000, 2000, 1, 8, 0), res(pool.Scan, 1000, 1000, 1000, 1, 8, 0)}}
	diverged.rank()
	if !strings.HasPrefix(diverged.Verdict, "No verdict") {
		t.Errorf("diverged: %q", diverged.Verdict)
	}
}
