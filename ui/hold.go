package ui

import (
	"sync"
	"time"

	"poolroids/game"
	"poolroids/ui/kitty"
)

// control is a game control that acts while held.
type control uint8

const (
	ctlLeft control = iota
	ctlRight
	ctlThrust
	ctlFire
	numControls
)

// Press-only timing. A terminal without release events sends a press, then
// after its repeat delay (often 250–600 ms) repeats at its repeat rate
// (often 25–40 a second) until the key is let go.
const (
	maxInterval = 150 * time.Millisecond // a slower repeat is a new press
	minWindow   = 80 * time.Millisecond  // window a repeat holds, at fast rates
	maxWindow   = 250 * time.Millisecond // … and at slow ones
)

// tapSteps is how many world steps a press acts by itself: a tap. A turn's
// is 4 steps, 0.3 rad (a 21st of a turn) at the game's 4.5 rad/s, so that
// a tap aims; thrust's and fire's are a short burst.
var tapSteps = [numControls]int{ctlLeft: 4, ctlRight: 4, ctlThrust: 6, ctlFire: 6}

// pressHold turns key presses into held controls for terminals that report
// presses and auto-repeats but no releases.
//
// A press acts for a fixed number of steps (tapSteps), so that a tap of ←
// turns the ship a small, always equal step, whatever the terminal's
// repeat delay: a key whose release cannot be seen is not held through
// the delay on the chance that it is still down. Once the repeats arrive
// (each within maxInterval of the one before) each holds its control for
// a short window (2.5 repeat intervals, measured from the terminal's own
// repeats), so a held key acts smoothly and stops soon after it is let
// go. A held key thus acts for a tap, waits out the repeat delay, then
// acts on: the one stutter a terminal without releases allows. Pressing
// one turn direction cancels the other.
//
// Times are offsets on one monotonic clock. The zero pressHold is ready and
// holds nothing. It is not safe for concurrent use.
type pressHold struct {
	keys     [numControls]holdKey
	interval time.Duration // measured repeat interval; 0: none yet
}

type holdKey struct {
	down  bool          // pressed since the hold was last forgotten
	last  time.Duration // its latest press or repeat
	until time.Duration // held while now < until
	taps  int           // steps the last press still acts
}

// press records a key event (press or auto-repeat) for c at now.
func (h *pressHold) press(c control, now time.Duration) {
	switch c {
	case ctlLeft:
		h.keys[ctlRight] = holdKey{}
	case ctlRight:
		h.keys[ctlLeft] = holdKey{}
	}
	k := &h.keys[c]
	if gap := now - k.last; k.down && gap <= maxInterval {
		h.interval = gap
		k.until = now + h.window()
	} else {
		k.taps = tapSteps[c]
	}
	k.down, k.last = true, now
}

// act reports whether c acts in the world step taken at now, and counts
// the step against a press's tap: call it once a step for each control.
func (h *pressHold) act(c control, now time.Duration) bool {
	k := &h.keys[c]
	if k.taps > 0 {
		k.taps--
		return true
	}
	return now < k.until
}

// releaseAll forgets every hold (pause, a new game).
func (h *pressHold) releaseAll() { h.keys = [numControls]holdKey{} }

// window is how long a repeat holds: long enough that the next repeat comes
// well before it ends.
func (h *pressHold) window() time.Duration {
	if h.interval == 0 {
		return 100 * time.Millisecond
	}
	return min(max(h.interval*5/2, minWindow), maxWindow)
}

// keyState is what the player's keys hold between two steps, under a lock
// of its own: the goroutine that steps (a solo Game's, an arena's) reads
// it without the session's lock, and the session's key handlers write it
// without the Game's. The zero keyState holds nothing and reads no kitty
// keys.
type keyState struct {
	mu    sync.Mutex
	kitty *kitty.Keys // the real held state where active; else press-only
	hold  pressHold
	hyper bool // a hyperspace press waits for the next step
	held  bool // the game waits: the terminal is too small or the key help is up
}

// input is the next step's keys at now, given whether the player plays a
// game (not on the title or game-over screen, not under the stress
// autopilot); false while the game waits.
func (k *keyState) input(now time.Duration, playing bool) (game.Input, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.held || !playing {
		k.kitty.Poll() // a key pressed meanwhile must not act after
		return game.Input{}, !k.held
	}
	if k.kitty.Active() {
		h := k.kitty.Poll()
		return game.Input{
			Left: h.Has(kitty.Left), Right: h.Has(kitty.Right), Thrust: h.Has(kitty.Thrust),
			Fire: h.Has(kitty.Fire), Hyperspace: h.Has(kitty.Hyper),
		}, true
	}
	in := game.Input{
		Left:       k.hold.act(ctlLeft, now),
		Right:      k.hold.act(ctlRight, now),
		Thrust:     k.hold.act(ctlThrust, now),
		Fire:       k.hold.act(ctlFire, now),
		Hyperspace: k.hyper,
	}
	k.hyper = false
	return in, true
}

// press feeds a key event of a held control to the press-only hold
// logic; with the kitty protocol active the real held state is read
// instead.
func (k *keyState) press(c control, now time.Duration) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if !k.kitty.Active() {
		k.hold.press(c, now)
	}
}

// jump asks for a hyperspace jump at the next step.
func (k *keyState) jump() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.hyper = true
}

// release forgets every key held (a pause, a new game, the end of one).
func (k *keyState) release() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.hold.releaseAll()
	k.hyper = false
}

// setHeld makes the game wait or go on; keys held when it stops do not act
// after it resumes.
func (k *keyState) setHeld(on bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.held != on {
		k.held = on
		k.hold.releaseAll()
		k.hyper = false
	}
}

// waiting reports whether the game waits.
func (k *keyState) waiting() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.held
}
