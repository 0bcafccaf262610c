package replay_test

import (
	"errors"
	"testing"

	"poolroids/game"
	"poolroids/game/replay"
	"poolroids/pool"
)

// trace returns the world's checksum after every step of the file, index
// 0 the start.
func trace(t *testing.T, data []byte) []uint64 {
	t.Helper()
	p, err := replay.NewPlayer(data, "")
	if err != nil {
		t.Fatal(err)
	}
	sums := []uint64{p.World().Checksum()}
	for p.Steps() < p.File().Steps {
		if err := p.Step(); err != nil {
			t.Fatal(err)
		}
		sums = append(sums, p.World().Checksum())
	}
	return sums
}

// The speeds play their share of steps per tick, pausing plays none and
// StepOnce plays one.
func TestWatchSpeeds(t *testing.T) {
	t.Parallel()
	data, _ := autopilotGame(t, game.Config{Seed: 31}, replay.Options{}, 1000, false, 0)
	w, err := replay.NewWatch(data)
	if err != nil {
		t.Fatal(err)
	}
	ticks := func(n int) uint64 {
		before := w.Step()
		for range n {
			w.Tick()
		}
		return w.Step() - before
	}
	if got := ticks(10); got != 10 || w.Speed() != "×1" {
		t.Errorf("×1 (%s): 10 ticks played %d steps", w.Speed(), got)
	}
	w.Slower()
	w.Slower()
	w.Slower() // no slower than ×¼
	if got := ticks(12); got != 3 || w.Speed() != "×¼" {
		t.Errorf("%s: 12 ticks played %d steps, want 3 at ×¼", w.Speed(), got)
	}
	for range 9 {
		w.Faster()
	}
	if got := ticks(5); got != 80 || w.Speed() != "×16" {
		t.Errorf("%s: 5 ticks played %d steps, want 80 at ×16", w.Speed(), got)
	}
	w.SetPaused(true)
	if got := ticks(5); got != 0 {
		t.Errorf("paused: 5 ticks played %d steps", got)
	}
	w.StepOnce()
	if w.Step() != 94 || !w.Paused() {
		t.Errorf("StepOnce while paused: at step %d, paused %v; want 94, true", w.Step(), w.Paused())
	}
	w.SetPaused(false)
	ticks(100) // to the end: 1000 steps
	if !w.Done() || w.Step() != 1000 || w.Err() != nil {
		t.Errorf("at the end: done %v at step %d, err %v", w.Done(), w.Step(), w.Err())
	}
}

// Seeking back and forth lands on the very world of that step, and a
// strategy the watcher picks holds through seeks without changing the
// game.
func TestWatchSeek(t *testing.T) {
	t.Parallel()
	data, _ := autopilotGame(t, game.Config{Seed: 32}, replay.Options{Every: 100}, 1500, true, 200)
	sums := trace(t, data)
	w, err := replay.NewWatch(data)
	if err != nil {
		t.Fatal(err)
	}
	at := func(what string) {
		t.Helper()
		if got := w.World().Checksum(); got != sums[w.Step()] {
			t.Errorf("%s: at step %d checksum %016x, want %016x", what, w.Step(), got, sums[w.Step()])
		}
	}
	for _, step := range []uint64{700, 250, 251, 1499, 0, 1200} {
		if err := w.Seek(step); err != nil || w.Step() != step {
			t.Fatalf("Seek(%d): %v, at step %d", step, err, w.Step())
		}
		at("seek")
	}
	if err := w.SetStrategy(pool.Scan); err != nil {
		t.Fatal(err)
	}
	for range 100 {
		w.Tick()
	}
	at("ticks after switching")
	if err := w.Seek(300); err != nil {
		t.Fatal(err)
	}
	at("seek back after switching")
	if err := w.Seek(1450); err != nil { // past recorded switches, which must not apply
		t.Fatal(err)
	}
	at("seek forward after switching")
	if got := w.World().Bullets().Strategy(); got != pool.Scan {
		t.Errorf("after seeks the pools use %s, want the watcher's scan", got)
	}
	if err := w.Seek(5000); err != nil || w.Step() != 1500 || !w.Done() {
		t.Errorf("Seek past the end: %v, at step %d, done %v; want step 1500, done", err, w.Step(), w.Done())
	}
}

// A file that plays another game stops the watch at the first checksum
// that differs.
func TestWatchMismatch(t *testing.T) {
	t.Parallel()
	data, _ := autopilotGame(t, game.Config{Seed: 33}, replay.Options{}, 900, false, 0)
	for _, ev := range events(t, data) {
		if ev.Kind == replay.Input && ev.Step >= 100 && ev.Steps > 0 && !ev.In.Hyperspace {
			data[ev.Offset] ^= 16
			break
		}
	}
	w, err := replay.NewWatch(data)
	if err != nil {
		t.Fatal(err)
	}
	w.Faster()
	w.Faster()
	for range 300 {
		w.Tick()
	}
	var m *replay.MismatchError
	if !errors.As(w.Err(), &m) || !w.Done() || w.Step() != m.Step {
		t.Errorf("after the flipped input: err %v, done %v at step %d", w.Err(), w.Done(), w.Step())
	}
}
