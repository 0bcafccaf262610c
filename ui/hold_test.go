package ui

import (
	"slices"
	"testing"
	"time"
)

// repeats returns the events of a key held from start: the press, then
// after delay one repeat every interval until release.
func repeats(start, delay, interval, release time.Duration) []time.Duration {
	ev := []time.Duration{start}
	for t := start + delay; t <= release; t += interval {
		ev = append(ev, t)
	}
	return ev
}

func TestPressHold(t *testing.T) {
	ms := time.Millisecond
	type probe struct {
		c    control
		at   time.Duration
		want bool
	}
	type press struct {
		c  control
		at []time.Duration
	}
	tests := []struct {
		name    string
		presses []press
		probes  []probe
	}{
		{
			name:    "tap bridges the default repeat delay, then stops",
			presses: []press{{ctlLeft, []time.Duration{0}}},
			probes: []probe{
				{ctlLeft, 0, true}, {ctlLeft, 300 * ms, true}, {ctlLeft, 549 * ms, true},
				{ctlLeft, 550 * ms, false}, {ctlRight, 100 * ms, false},
			},
		},
		{
			name:    "hold with 500ms delay and 40/s repeats is smooth; release stops within a window",
			presses: []press{{ctlThrust, repeats(0, 500*ms, 25*ms, 2000*ms)}},
			probes: []probe{
				{ctlThrust, 10 * ms, true}, {ctlThrust, 499 * ms, true}, {ctlThrust, 540 * ms, true},
				{ctlThrust, 1000 * ms, true}, {ctlThrust, 2000 * ms, true},
				{ctlThrust, 2079 * ms, true}, {ctlThrust, 2081 * ms, false},
			},
		},
		{
			name: "a slow terminal stutters once, then the first hold is measured to bridge it",
			presses: []press{
				{ctlRight, repeats(0, 660*ms, 40*ms, 1000*ms)},
				{ctlRight, repeats(3000*ms, 660*ms, 40*ms, 4000*ms)},
			},
			probes: []probe{
				{ctlRight, 600 * ms, false}, // first hold (550ms) ran out before the first repeat
				{ctlRight, 700 * ms, true},
				{ctlRight, 3600 * ms, true}, // learned: 660ms + margin
				{ctlRight, 3659 * ms, true},
				{ctlRight, 3700 * ms, true},
				{ctlRight, 4079 * ms, true}, // window: 2.5 × 40ms after the last repeat at 3980
				{ctlRight, 4081 * ms, false},
			},
		},
		{
			name:    "two quick taps are not taken for a repeat delay",
			presses: []press{{ctlLeft, []time.Duration{0, 300 * ms}}, {ctlLeft, []time.Duration{2000 * ms}}},
			probes: []probe{
				{ctlLeft, 399 * ms, true}, {ctlLeft, 401 * ms, false},
				{ctlLeft, 2549 * ms, true}, {ctlLeft, 2551 * ms, false}, // still the default delay
			},
		},
		{
			name:    "the opposite turn cancels a hold",
			presses: []press{{ctlLeft, []time.Duration{0}}, {ctlRight, []time.Duration{100 * ms}}},
			probes: []probe{
				{ctlLeft, 50 * ms, true}, {ctlLeft, 150 * ms, false}, {ctlRight, 150 * ms, true},
			},
		},
		{
			name:    "thrust and turn hold together",
			presses: []press{{ctlThrust, []time.Duration{0}}, {ctlLeft, []time.Duration{100 * ms}}},
			probes:  []probe{{ctlThrust, 200 * ms, true}, {ctlLeft, 200 * ms, true}},
		},
		{
			name:    "a fire tap is a short burst; held fire resumes with the repeats",
			presses: []press{{ctlFire, repeats(0, 500*ms, 33*ms, 700*ms)}},
			probes: []probe{
				{ctlFire, 50 * ms, true}, {ctlFire, 101 * ms, false}, {ctlFire, 400 * ms, false},
				{ctlFire, 550 * ms, true}, {ctlFire, 700 * ms, true}, {ctlFire, 800 * ms, false},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Replay presses and probes in time order.
			type event struct {
				at    time.Duration
				c     control
				probe bool
				want  bool
			}
			var evs []event
			for _, p := range tt.presses {
				for _, at := range p.at {
					evs = append(evs, event{at: at, c: p.c})
				}
			}
			for _, p := range tt.probes {
				evs = append(evs, event{at: p.at, c: p.c, probe: true, want: p.want})
			}
			sortEvents := func(a, b event) int {
				if a.at != b.at {
					return int(a.at - b.at)
				}
				if a.probe != b.probe { // presses first at equal times
					if a.probe {
						return 1
					}
					return -1
				}
				return 0
			}
			slices.SortStableFunc(evs, sortEvents)
			var h pressHold
			for _, e := range evs {
				if !e.probe {
					h.press(e.c, e.at)
					continue
				}
				if got := h.held(e.c, e.at); got != e.want {
					t.Errorf("held(%d) at %v = %v, want %v", e.c, e.at, got, e.want)
				}
			}
		})
	}
}
