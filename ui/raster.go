package ui

import (
	"runtime"
	"sync"
	"weak"

	"poolroids/game"
	"poolroids/game/hub"
)

// The seats of an arena draw one world, most of them at the same size:
// painting it (outlines, debris, bullets, the names' places) once a step
// and size, for all of them, instead of once a frame for each, leaves each
// seat only what differs on its own screen. A raster is that painting;
// the seats of an arena share a rasterSet, the first to draw a step
// painting it and the others copying it.
//
// The key of a painting is the world and its step count: what changes a
// world between two steps (a player seated) shows from its next step on.

// raster is an arena's world painted at one size: the canvas's cells and
// the names by the ships, as paintWorld leaves them.
type raster struct {
	world  *game.World // nil: none painted
	steps  uint64
	w, h   int
	ascii  bool
	cells  []cell
	labels []label
}

// maxRasters is how many sizes an arena keeps a raster of: a seat at
// yet another size paints over the one painted longest ago.
const maxRasters = 4

// rasterSet is the rasters of one arena. Its lock is taken after the
// arena's read lock, and held while a raster is painted or copied: a seat
// that waits for it waits for a painting it would otherwise make.
type rasterSet struct {
	mu   sync.Mutex
	rs   [maxRasters]raster
	next int // the raster painted over next
}

// rasterSets holds each arena's rasterSet while the arena lives.
var rasterSets sync.Map // weak.Pointer[hub.Arena] → *rasterSet

// rastersOf returns ar's rasterSet, making it the first time.
func rastersOf(ar *hub.Arena) *rasterSet {
	key := weak.Make(ar)
	if v, ok := rasterSets.Load(key); ok {
		return v.(*rasterSet)
	}
	v, loaded := rasterSets.LoadOrStore(key, &rasterSet{})
	if !loaded {
		runtime.AddCleanup(ar, func(k weak.Pointer[hub.Arena]) { rasterSets.Delete(k) }, key)
	}
	return v.(*rasterSet)
}

// at returns the raster of the size w×h (ASCII or not), or the one to
// paint over for it. The caller holds the lock.
func (set *rasterSet) at(w, h int, ascii bool) *raster {
	for i := range set.rs {
		if r := &set.rs[i]; r.world != nil && r.w == w && r.h == h && r.ascii == ascii {
			return r
		}
	}
	r := &set.rs[set.next]
	set.next = (set.next + 1) % maxRasters
	r.world, r.w, r.h, r.ascii = nil, w, h, ascii
	return r
}
