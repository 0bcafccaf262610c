package clock_test

import (
	"testing"
	"time"

	"poolroids/game/clock"
)

var epoch = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// TestManual: a Manual clock moves only by Advance, and its tickers fire
// on the way, each with its time, a tick not taken dropping the next as
// a time.Ticker's does; Reset and Stop act from now.
func TestManual(t *testing.T) {
	m := clock.NewManual(epoch)
	a, b := m.NewTicker(10*time.Millisecond), m.NewTicker(25*time.Millisecond)
	if m.Tickers() != 2 {
		t.Fatalf("%d tickers, want 2", m.Tickers())
	}
	ready := func(tk clock.Ticker) (time.Time, bool) {
		select {
		case at := <-tk.C():
			return at, true
		default:
			return time.Time{}, false
		}
	}
	if _, ok := ready(a); ok {
		t.Fatal("a tick before the clock moved")
	}
	m.Advance(9 * time.Millisecond)
	if _, ok := ready(a); ok || !m.Now().Equal(epoch.Add(9*time.Millisecond)) {
		t.Fatalf("a tick before its time, or the clock reads %v", m.Now())
	}
	m.Advance(time.Millisecond)
	if at, ok := ready(a); !ok || !at.Equal(epoch.Add(10*time.Millisecond)) {
		t.Fatalf("tick %v, %v; want one at 10ms", at, ok)
	}
	m.Advance(40 * time.Millisecond) // a: 20, 30, 40, 50; b: 25, 50: the last of each
	if at, ok := ready(a); !ok || !at.Equal(epoch.Add(50*time.Millisecond)) {
		t.Errorf("a's tick %v, %v; want the last due, at 50ms", at, ok)
	}
	if _, ok := ready(a); ok {
		t.Error("a fired twice in one Advance")
	}
	m.Advance(10 * time.Millisecond) // a: 60, not taken …
	m.Advance(10 * time.Millisecond) // … so 70 is dropped
	if at, ok := ready(a); !ok || !at.Equal(epoch.Add(60*time.Millisecond)) {
		t.Errorf("a's tick %v, %v; want the one not taken, at 60ms", at, ok)
	}
	if at, ok := ready(b); !ok || !at.Equal(epoch.Add(50*time.Millisecond)) {
		t.Errorf("b's tick %v, %v; want 50ms", at, ok)
	}
	b.Stop()
	a.Reset(time.Second)
	m.Advance(999 * time.Millisecond) // from 70ms
	if _, ok := ready(a); ok {
		t.Error("a reset ticker fired before its new period")
	}
	m.Advance(time.Millisecond)
	if _, ok := ready(a); !ok {
		t.Error("a reset ticker did not fire after its new period")
	}
	if _, ok := ready(b); ok || m.Tickers() != 1 {
		t.Errorf("a stopped ticker fired, or %d tickers run, want 1", m.Tickers())
	}
	b.Reset(time.Millisecond)
	m.Advance(time.Millisecond)
	if _, ok := ready(b); !ok {
		t.Error("a stopped ticker reset does not fire")
	}
}

// TestReal: Real is the system's time.
func TestReal(t *testing.T) {
	before := time.Now()
	if now := clock.Or(nil).Now(); now.Before(before) {
		t.Errorf("Real reads %v before %v", now, before)
	}
	tk := clock.Real.NewTicker(time.Millisecond)
	defer tk.Stop()
	<-tk.C()
}
