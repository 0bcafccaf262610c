package game

import "testing"

// TestPoolSamples: a reader gets every sample after the count it saw, in
// order, and the latest ring's worth when it fell further behind; adding
// and reading allocate nothing.
func TestPoolSamples(t *testing.T) {
	w, err := New(Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var s PoolSamples
	steps := func(from, to uint64) []uint64 {
		var got []uint64
		if n := s.Since(from, func(p PoolSample) { got = append(got, p.Step) }); n != to {
			t.Errorf("Since(%d) returned %d, want %d", from, n, to)
		}
		return got
	}
	for i := range uint64(3) {
		s.Add(w, i*SampleEvery, 0, [2]bool{i == 1, false})
	}
	if got := steps(1, 3); len(got) != 2 || got[0] != SampleEvery || got[1] != 2*SampleEvery {
		t.Errorf("after 1 of 3: %v", got)
	}
	for i := uint64(3); i < 50; i++ {
		s.Add(w, i*SampleEvery, 0, [2]bool{})
	}
	got := steps(2, 50)
	if len(got) != 32 || got[0] != 18*SampleEvery || got[31] != 49*SampleEvery {
		t.Errorf("after 2 of 50: %v, want the last 32", got)
	}
	if got := steps(50, 50); len(got) != 0 {
		t.Errorf("nothing new: %v", got)
	}
	var n uint64
	if a := testing.AllocsPerRun(100, func() {
		s.Add(w, 0, 0, [2]bool{})
		n = s.Since(n, func(PoolSample) {})
	}); a != 0 {
		t.Errorf("%v allocations", a)
	}
}
