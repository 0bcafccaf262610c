// Package clock is the time the game's loops keep: the system's, or a
// test's. A loop that waits for its next step or frame takes a [Clock]
// (nil means [Real]) and asks it for the time and for its tickers; a test
// hands it a [Manual] clock instead and moves time itself, step by step
// or frame by frame, without waiting for it to pass.
//
// What a Clock times is when things happen, never how long they take:
// a step's or a frame's cost is measured on the wall clock.
package clock

import (
	"slices"
	"sync"
	"time"
)

// Clock tells the time and makes tickers on it.
type Clock interface {
	Now() time.Time
	// NewTicker is a ticker whose period is d, as time.NewTicker's.
	NewTicker(d time.Duration) Ticker
}

// Ticker delivers ticks on C, as a time.Ticker does: a channel of one,
// a tick the receiver has not taken yet dropping those after it.
type Ticker interface {
	C() <-chan time.Time
	Reset(d time.Duration)
	Stop()
}

// Real is the system's clock: time.Now and time.NewTicker (so faked in a
// testing/synctest bubble, as they are).
var Real Clock = real{}

// Or returns c, or Real if c is nil.
func Or(c Clock) Clock {
	if c == nil {
		return Real
	}
	return c
}

type real struct{}

func (real) Now() time.Time                   { return time.Now() }
func (real) NewTicker(d time.Duration) Ticker { return realTicker{time.NewTicker(d)} }

type realTicker struct{ t *time.Ticker }

func (t realTicker) C() <-chan time.Time   { return t.t.C }
func (t realTicker) Reset(d time.Duration) { t.t.Reset(d) }
func (t realTicker) Stop()                 { t.t.Stop() }

// Manual is a clock that moves only by Advance. Its tickers fire as
// Advance passes their times, into channels of one, a tick the receiver
// has not taken dropping the next, as time.Ticker's do. Its methods are
// safe for concurrent use.
type Manual struct {
	mu      sync.Mutex
	now     time.Time
	tickers []*manualTicker
}

// NewManual is a Manual clock that reads start.
func NewManual(start time.Time) *Manual { return &Manual{now: start} }

// Now is the clock's time.
func (m *Manual) Now() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.now
}

// NewTicker is a ticker whose first tick is d after now.
func (m *Manual) NewTicker(d time.Duration) Ticker {
	if d <= 0 {
		panic("clock: non-positive interval for NewTicker")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	t := &manualTicker{m: m, c: make(chan time.Time, 1), d: d, next: m.now.Add(d), on: true}
	m.tickers = append(m.tickers, t)
	return t
}

// Advance moves the clock d forward. Each ticker that came due on the
// way fires once, with the time of its last tick due, in the order of
// those times: the ticks before it are those a receiver that late would
// have missed. An Advance of a period or less at a time delivers every
// tick.
func (m *Manual) Advance(d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	end := m.now.Add(d)
	var due []*manualTicker
	for _, t := range m.tickers {
		if t.next.After(end) {
			continue
		}
		t.next = t.next.Add(end.Sub(t.next) / t.d * t.d) // its last tick due
		due = append(due, t)
	}
	slices.SortStableFunc(due, func(a, b *manualTicker) int { return a.next.Compare(b.next) })
	for _, t := range due {
		m.now = t.next
		select {
		case t.c <- t.next:
		default: // the last tick is not taken yet
		}
		t.next = t.next.Add(t.d)
	}
	m.now = end
}

// Tickers is how many tickers run on the clock: a test waits for a loop
// to have started its own before it moves the clock.
func (m *Manual) Tickers() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.tickers)
}

type manualTicker struct {
	m    *Manual
	c    chan time.Time
	d    time.Duration
	next time.Time // guarded by m.mu, as are d and on
	on   bool
}

func (t *manualTicker) C() <-chan time.Time { return t.c }

// Reset stops the ticker and starts it again with period d, its next
// tick d after now.
func (t *manualTicker) Reset(d time.Duration) {
	if d <= 0 {
		panic("clock: non-positive interval for Reset")
	}
	t.m.mu.Lock()
	defer t.m.mu.Unlock()
	if !t.on {
		t.m.tickers = append(t.m.tickers, t)
	}
	t.d, t.next, t.on = d, t.m.now.Add(d), true
}

// Stop stops the ticker: no tick comes after it; one not yet taken stays.
func (t *manualTicker) Stop() {
	t.m.mu.Lock()
	defer t.m.mu.Unlock()
	if t.on {
		t.on = false
		t.m.tickers = slices.DeleteFunc(t.m.tickers, func(u *manualTicker) bool { return u == t })
	}
}
