package ui

import "time"

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
