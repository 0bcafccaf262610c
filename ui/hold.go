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

// tapSteps is how many world steps a press acts by itself: a tap. A turn's
// is 4 steps, 0.3 rad (a 21st of a turn) at the game's 4.5 rad/s, so that
// a tap aims; thrust's and fire's are a short burst (fire's, one shot).
var tapSteps = [numControls]int{ctlLeft: 4, ctlRight: 4, ctlThrust: 6, ctlFire: 6}

// stepTime is a world step's time.
const stepTime = time.Second / game.TPS

// maxRepeat is the longest gap between two key events of a held key that
// pressHold takes for an auto-repeat: terminals repeat every 20 to 50 ms,
// and a person taps a key 80 ms apart at the quickest.
const maxRepeat = 55 * time.Millisecond

// pressHold turns key presses into held controls for terminals that report
// presses and auto-repeats but no releases.
//
// A key acts while it has time to act, which its events give it: a press
// (an event more than maxRepeat after the key's last) gives it a tap,
// tapSteps[c] steps, on top of what it has left, so N presses act N taps
// at any pace a person can tap, however late the steps come; an
// auto-repeat (an event within maxRepeat of the last) gives it the time
// since that event, up to a tap's, so a held key acts for as long as it
// is held, steadily from its first repeat, and stops at most a tap after
// its last. A key whose release cannot be seen is never held through the
// terminal's repeat delay on the chance that it is still down: a held key
// acts a tap, waits out the delay, then acts on, the one stutter a
// terminal without releases allows. Pressing one turn direction cancels
// the other.
//
// Times are offsets on one monotonic clock. The zero pressHold is ready and
// holds nothing. It is not safe for concurrent use.
type pressHold struct {
	keys [numControls]holdKey
}

type holdKey struct {
	down bool          // pressed since the hold was last forgotten
	last time.Duration // its latest press or repeat
	left time.Duration // how long it still acts, in steps' time
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
	tap := time.Duration(tapSteps[c]) * stepTime
	if gap := now - k.last; k.down && gap >= 0 && gap <= maxRepeat {
		k.left = min(k.left+gap, max(k.left, tap))
	} else {
		k.left += tap
	}
	k.down, k.last = true, now
}

// act reports whether c acts in the next world step, and counts the step
// against the time it has: call it once a step for each control.
func (h *pressHold) act(c control) bool {
	k := &h.keys[c]
	if k.left < stepTime/2 {
		return false
	}
	k.left -= stepTime
	return true
}

// releaseAll forgets every hold (pause, a new game).
func (h *pressHold) releaseAll() { h.keys = [numControls]holdKey{} }

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

// input is the next step's keys, given whether the player plays a game
// (not on the title or game-over screen, not under the stress autopilot);
// false while the game waits.
func (k *keyState) input(playing bool) (game.Input, bool) {
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
		Left:       k.hold.act(ctlLeft),
		Right:      k.hold.act(ctlRight),
		Thrust:     k.hold.act(ctlThrust),
		Fire:       k.hold.act(ctlFire),
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
