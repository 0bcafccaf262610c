package input

import (
	"time"

	"poolroids/game"
)

// tapSteps is how many world steps a press acts by itself: a tap. A turn's
// is 4 steps, 0.3 rad (a 21st of a turn) at the game's 4.5 rad/s, so that
// a tap aims; thrust's and fire's are a short burst (fire's, one shot).
var tapSteps = [numHeld]int{Left: 4, Right: 4, Thrust: 6, Fire: 6}

// TapSteps is how many world steps a press of c acts by itself, a tap;
// 0 for Hyper, which jumps once.
func TapSteps(c Control) int {
	if c >= numHeld {
		return 0
	}
	return tapSteps[c]
}

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
	keys [numHeld]holdKey
}

type holdKey struct {
	down bool          // pressed since the hold was last forgotten
	last time.Duration // its latest press or repeat
	left time.Duration // how long it still acts, in steps' time
}

// press records a key event (press or auto-repeat) for c at now.
func (h *pressHold) press(c Control, now time.Duration) {
	switch c {
	case Left:
		h.keys[Right] = holdKey{}
	case Right:
		h.keys[Left] = holdKey{}
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
func (h *pressHold) act(c Control) bool {
	k := &h.keys[c]
	if k.left < stepTime/2 {
		return false
	}
	k.left -= stepTime
	return true
}

// releaseAll forgets every hold (pause, a new game).
func (h *pressHold) releaseAll() { h.keys = [numHeld]holdKey{} }
