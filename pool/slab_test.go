package pool

import (
	"errors"
	"testing"
)

// TestSlabPoolForeign checks that a handle of a Pool is foreign to a Slab
// and the other way round, though both hand out slot 0 first.
func TestSlabPoolForeign(t *testing.T) {
	p := newPool(t, FreeList, 4)
	s := mustSlab[item](t, 4)
	hp, _, _ := p.Acquire()
	hs, _, _ := s.Acquire()
	if err := s.Release(hp); !errors.Is(err, ErrStale) {
		t.Errorf("Slab.Release(a Pool's handle) = %v, want ErrStale", err)
	}
	if err := p.Release(hs); !errors.Is(err, ErrStale) {
		t.Errorf("Pool.Release(a Slab's handle) = %v, want ErrStale", err)
	}
	if _, ok := s.Get(hp); ok {
		t.Error("Slab.Get accepted a Pool's handle")
	}
	if p.Len() != 1 || s.Len() != 1 {
		t.Errorf("Len = %d, %d after refused releases; want 1, 1", p.Len(), s.Len())
	}
}

// TestSlabOverhead checks that Overhead counts a slot's bookkeeping and
// padding, not its item: the generation and link are 8 bytes, and an item
// whose size is not a multiple of 4 leaves padding before them.
func TestSlabOverhead(t *testing.T) {
	const capacity = 10
	for _, c := range []struct {
		name    string
		perSlot int
		stats   func() Stats
	}{
		{"item", 8, func() Stats { return mustSlab[item](t, capacity).Stats() }},
		{"uint64", 8, func() Stats { return mustSlab[uint64](t, capacity).Stats() }},
		{"[3]byte", 9, func() Stats { return mustSlab[[3]byte](t, capacity).Stats() }},
		{"struct{}", 8, func() Stats { return mustSlab[struct{}](t, capacity).Stats() }},
	} {
		if got := c.stats().Overhead; got != c.perSlot*capacity {
			t.Errorf("Slab[%s]: Overhead = %d, want %d", c.name, got, c.perSlot*capacity)
		}
	}
}

func mustSlab[T any](t testing.TB, capacity int) *Slab[T] {
	t.Helper()
	s, err := NewSlab[T](capacity)
	if err != nil {
		t.Fatalf("NewSlab(%d): %v", capacity, err)
	}
	return s
}
