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
	defaultDelay = 500 * time.Millisecond // repeat delay assumed until one is measured
	minDelay     = 150 * time.Millisecond // a measured delay is kept within these
	maxDelay     = 800 * time.Millisecond //
	delayMargin  = 50 * time.Millisecond  // the first hold outlasts the delay by this
	maxInterval  = 150 * time.Millisecond // a slower second repeat means two presses
	minWindow    = 80 * time.Millisecond  // window a repeat refreshes, at fast rates
	maxWindow    = 250 * time.Millisecond // … and at slow ones
)

// pressHold turns key presses into held controls for terminals that report
// presses and auto-repeats but no releases.
//
// A first press holds its control for the terminal's repeat delay plus a
// margin, so a held key acts from the first moment with no stutter before
// the repeats begin; each repeat then extends the hold by a short window
// (2.5 repeat intervals), so the control stops soon after the key is let
// go. The delay and interval are measured from the terminal's own repeats
// (a press followed by two quick repeats), so a slow terminal stutters at
// most once. Fire does not bridge the delay: a tap fires one short burst,
// holding fires again once the repeats arrive. Pressing one turn direction
// cancels the other.
//
// Times are offsets on one monotonic clock. The zero pressHold is ready and
// holds nothing. It is not safe for concurrent use.
type pressHold struct {
	keys     [numControls]holdKey
	delay    time.Duration // measured repeat delay; 0: none yet
	interval time.Duration // measured repeat interval; 0: none yet
}

type holdKey struct {
	first   time.Duration // the press that began this hold
	last    time.Duration // its latest press or repeat
	until   time.Duration // held while now < until
	repeats int           // repeats seen since first
	maybe   time.Duration // first repeat's delay, kept until a second repeat confirms it
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
	bridge := c != ctlFire
	held := now < k.until
	// A repeat arriving just after a too-short first hold is still the key's
	// first repeat: measure it, so that the next hold bridges the delay.
	late := bridge && k.until > 0 && k.repeats == 0 && now-k.first <= maxDelay
	if !held && !late {
		*k = holdKey{first: now, last: now, until: now + h.firstHold(c)}
		return
	}
	gap := now - k.last
	k.repeats++
	switch {
	case k.repeats == 1:
		k.maybe = now - k.first
	case gap <= maxInterval:
		if k.repeats == 2 && bridge {
			h.delay = min(max(k.maybe, minDelay), maxDelay)
		}
		h.interval = gap
	}
	k.last = now
	k.until = now + h.window()
}

// held reports whether c acts at now.
func (h *pressHold) held(c control, now time.Duration) bool {
	return now < h.keys[c].until
}

// releaseAll forgets every hold (pause, a new game).
func (h *pressHold) releaseAll() { h.keys = [numControls]holdKey{} }

// firstHold is how long a first press holds c.
func (h *pressHold) firstHold(c control) time.Duration {
	if c == ctlFire {
		return h.window()
	}
	d := h.delay
	if d == 0 {
		d = defaultDelay
	}
	return d + delayMargin
}

// window is how long a repeat holds: long enough that the next repeat comes
// well before it ends.
func (h *pressHold) window() time.Duration {
	if h.interval == 0 {
		return 100 * time.Millisecond
	}
	return min(max(h.interval*5/2, minWindow), maxWindow)
}
