package replay

import (
	"errors"
	"fmt"
	"io"

	"poolroids/game"
	"poolroids/pool"
)

// Speeds a [Watch] plays at, in quarter steps per tick: ×¼ to ×16.
var speeds = [...]int{1, 2, 4, 8, 16, 32, 64}

// normalSpeed is the index of ×1 in speeds.
const normalSpeed = 2

// Watch is a replay being watched: the game flow of `poolroids replay FILE`
// without the terminal. A front end calls [Watch.Tick] game.TPS times a
// second and draws [Watch.World]; the watcher pauses, changes the speed,
// steps, seeks and switches the pools' strategy, which changes their
// figures and never the game. It is not safe for concurrent use.
type Watch struct {
	data     []byte
	p        *Player
	strategy pool.Strategy // held by the watcher; "": the recorded ones
	speed    int           // index into speeds
	quarters int           // quarter steps owed by past ticks
	paused   bool
	err      error // the first mismatch; the watch stops there
}

// NewWatch starts watching the replay in data at step 0, at ×1, playing.
func NewWatch(data []byte) (*Watch, error) {
	p, err := NewPlayer(data, "")
	if err != nil {
		return nil, err
	}
	p.follow = true
	return &Watch{data: data, p: p, speed: normalSpeed}, nil
}

// World returns the world at the current step. A seek back replaces it.
func (w *Watch) World() *game.World { return w.p.World() }

// File returns what the file holds: its header, steps and players.
func (w *Watch) File() *File { return w.p.File() }

// Ghost returns the ghost flying beside the game at the current step, as
// it flew when the game was recorded, or nil. A seek back replaces it.
func (w *Watch) Ghost() *Ghost { return w.p.ghosts.current() }

// Step returns the steps played.
func (w *Watch) Step() uint64 { return w.p.Steps() }

// Len returns the steps of the file.
func (w *Watch) Len() uint64 { return w.p.File().Steps }

// Err returns the mismatch that stopped the watch, if any: the file
// plays another game on this build.
func (w *Watch) Err() error { return w.err }

// Done reports whether the watch is at the end of the file or stopped by a
// mismatch.
func (w *Watch) Done() bool { return w.err != nil || w.Step() >= w.Len() }

// Paused reports whether ticks play nothing.
func (w *Watch) Paused() bool { return w.paused }

// SetPaused pauses or resumes.
func (w *Watch) SetPaused(p bool) { w.paused, w.quarters = p, 0 }

// Speed returns the speed as it reads: "×¼", "×½", "×1" … "×16".
func (w *Watch) Speed() string {
	switch q := speeds[w.speed]; q {
	case 1:
		return "×¼"
	case 2:
		return "×½"
	default:
		return fmt.Sprintf("×%d", q/4)
	}
}

// Faster doubles the speed, up to ×16.
func (w *Watch) Faster() { w.speed = min(w.speed+1, len(speeds)-1) }

// Slower halves the speed, down to ×¼.
func (w *Watch) Slower() { w.speed = max(w.speed-1, 0) }

// Tick is one tick of the front end's 60 Hz clock: it plays the steps the
// speed gives a tick (a quarter step at ×¼, so one step every four ticks),
// none while paused or done.
func (w *Watch) Tick() {
	if w.paused || w.Done() {
		return
	}
	w.quarters += speeds[w.speed]
	n := w.quarters / 4
	w.quarters %= 4
	w.play(n)
}

// StepOnce plays one step, paused or not.
func (w *Watch) StepOnce() { w.play(1) }

// play plays up to n steps, stopping at the end or at a mismatch.
func (w *Watch) play(n int) {
	for range n {
		if w.Done() {
			break
		}
		if err := w.p.Step(); err != nil && !errors.Is(err, io.EOF) {
			w.err = err
		}
	}
	if w.err == nil && w.Step() >= w.Len() {
		// The last step's checksum is in the end record, which only the
		// Step after the last reads (unless a checksum fell due there).
		if err := w.p.Step(); !errors.Is(err, io.EOF) {
			w.err = err
		}
	}
}

// Seek moves to step (clamped to the file): forward by playing on, back by
// replaying from the start, headless, as fast as the game steps. The
// watcher's strategy stays.
func (w *Watch) Seek(step uint64) error {
	step = min(step, w.Len())
	if step < w.Step() {
		p, err := newPlayer(w.p.File(), w.data, w.strategy) // the file checked once is enough
		if err != nil {
			return err
		}
		p.follow = true
		w.p, w.err = p, nil
	}
	w.play(int(step - w.Step()))
	w.quarters = 0
	return w.err
}

// SetStrategy switches both pools to s from now on, and for every seek:
// the recorded switches no longer apply. The game stays the same.
func (w *Watch) SetStrategy(s pool.Strategy) error {
	if err := w.p.Hold(s); err != nil {
		return err
	}
	w.strategy = s
	return nil
}
