package input

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"poolroids/game"
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

// stepAt is when world step i is taken.
func stepAt(i int) time.Duration { return time.Duration(i) * stepTime }

// acted feeds the key events of each control to Keys as the world
// steps at game.TPS, a step's keys asked for after the events up to its
// time, and returns for each control the times of the steps it acted in
// up to end. With late, the steps come in threes, every third step's
// time: a loaded machine's catch-up.
func acted(presses map[Control][]time.Duration, end time.Duration, late ...bool) [numHeld][]time.Duration {
	type event struct {
		at time.Duration
		c  Control
	}
	var evs []event
	for c, at := range presses {
		for _, t := range at {
			evs = append(evs, event{t, c})
		}
	}
	slices.SortStableFunc(evs, func(a, b event) int { return int(a.at - b.at) })
	var k Keys
	var out [numHeld][]time.Duration
	for i := 0; stepAt(i) <= end; i++ {
		now := stepAt(i)
		if len(late) > 0 && late[0] {
			now = stepAt(i - i%3 + 2)
		}
		for len(evs) > 0 && evs[0].at <= now {
			k.Press(evs[0].c, evs[0].at)
			evs = evs[1:]
		}
		in := k.Step(true)
		for c, on := range [numHeld]bool{in.Left, in.Right, in.Thrust, in.Fire} {
			if on {
				out[c] = append(out[c], stepAt(i))
			}
		}
	}
	return out
}

// during returns the times of ts in [from, to).
func during(ts []time.Duration, from, to time.Duration) []time.Duration {
	var in []time.Duration
	for _, t := range ts {
		if t >= from && t < to {
			in = append(in, t)
		}
	}
	return in
}

// everyStep reports whether ts holds every step time in [from, to).
func everyStep(ts []time.Duration, from, to time.Duration) bool {
	for i := 0; stepAt(i) < to; i++ {
		if t := stepAt(i); t >= from && !slices.Contains(ts, t) {
			return false
		}
	}
	return true
}

// taps returns n key events from start, gap apart, each moved by up to
// jitter either way by a fixed pattern.
func taps(n int, start, gap, jitter time.Duration) []time.Duration {
	var ev []time.Duration
	for i := range n {
		ev = append(ev, start+time.Duration(i)*gap+jitter*time.Duration((i*7)%5-2)/2)
	}
	return ev
}

func TestPressHold(t *testing.T) {
	ms := time.Millisecond
	t.Run("a tap acts a fixed number of steps, whenever it comes", func(t *testing.T) {
		for _, at := range []time.Duration{0, 7 * ms, 16 * ms, 333 * ms} {
			got := acted(map[Control][]time.Duration{Left: {at}, Thrust: {at}, Fire: {at}}, 2*time.Second)
			for _, c := range []Control{Left, Thrust, Fire} {
				if want := tapSteps[c]; len(got[c]) != want {
					t.Errorf("tap at %v: control %d acted %d steps %v, want %d", at, c, len(got[c]), got[c], want)
				}
			}
			if len(got[Right]) != 0 {
				t.Errorf("tap of left at %v turned right %v", at, got[Right])
			}
		}
	})
	// N presses act N taps at any pace a person taps, with jitter, and
	// however late the steps come.
	for _, pace := range []struct {
		gap, jitter time.Duration
		late        bool
	}{
		{80 * ms, 0, false}, {100 * ms, 20 * ms, false}, {130 * ms, 40 * ms, false},
		{200 * ms, 40 * ms, false}, {time.Second, 0, false}, {100 * ms, 20 * ms, true},
	} {
		t.Run(fmt.Sprintf("taps %v apart, ±%v, late steps %v", pace.gap, pace.jitter, pace.late), func(t *testing.T) {
			for _, c := range []Control{Right, Thrust} {
				for _, n := range []int{1, 4, 7} {
					got := acted(map[Control][]time.Duration{c: taps(n, 0, pace.gap, pace.jitter)}, 10*time.Second, pace.late)
					if want := n * tapSteps[c]; len(got[c]) != want {
						t.Errorf("control %d: %d taps acted %d steps, want %d", c, n, len(got[c]), want)
					}
				}
			}
		})
	}
	for _, term := range []struct {
		name            string
		delay, interval time.Duration
	}{
		{"500ms delay, 40/s", 500 * ms, 25 * ms},
		{"250ms delay, 30/s", 250 * ms, 33 * ms},
		{"660ms delay, 25/s", 660 * ms, 40 * ms},
		{"600ms delay, 20/s", 600 * ms, 50 * ms},
		{"300ms delay, 50/s", 300 * ms, 20 * ms},
	} {
		t.Run("held key: a tap, one stutter, then steady until a tap after the last repeat ("+term.name+")", func(t *testing.T) {
			for _, c := range []Control{Left, Thrust} {
				ev := repeats(0, term.delay, term.interval, 2*time.Second)
				last := ev[len(ev)-1]
				got := acted(map[Control][]time.Duration{c: ev}, 3*time.Second)[c]
				first := stepAt(tapSteps[c])
				if tap := during(got, 0, first); len(tap) != tapSteps[c] {
					t.Errorf("control %d: the press acted at %v, want the first %d steps", c, tap, tapSteps[c])
				}
				if gap := during(got, first, term.delay); len(gap) != 0 {
					t.Errorf("control %d: acted during the repeat delay at %v", c, gap)
				}
				if !everyStep(got, term.delay+stepTime, last) {
					t.Errorf("control %d: not every step from the first repeat (%v) to the last (%v): %v", c, term.delay, last, during(got, term.delay, last))
				}
				if after := during(got, last, 3*time.Second); len(after) > tapSteps[c] {
					t.Errorf("control %d: acted %d steps after the last repeat, want a tap's %d at most", c, len(after), tapSteps[c])
				}
			}
		})
	}
	t.Run("the opposite turn cancels a hold", func(t *testing.T) {
		got := acted(map[Control][]time.Duration{Left: repeats(0, 500*ms, 30*ms, 690*ms), Right: {700 * ms}}, 2*time.Second)
		if late := during(got[Left], 700*ms, 2*time.Second); len(late) != 0 {
			t.Errorf("left still acts after right at %v", late)
		}
		if n := len(during(got[Right], 700*ms, 2*time.Second)); n != tapSteps[Right] {
			t.Errorf("right acted %d steps, want a tap's %d", n, tapSteps[Right])
		}
	})
	t.Run("thrust and turn hold together", func(t *testing.T) {
		got := acted(map[Control][]time.Duration{Thrust: repeats(0, 300*ms, 30*ms, time.Second), Left: repeats(100*ms, 300*ms, 30*ms, time.Second)}, time.Second)
		if !everyStep(got[Thrust], 300*ms+stepTime, 990*ms) || !everyStep(got[Left], 400*ms+stepTime, 990*ms) {
			t.Errorf("thrust %v, left %v: want both every step once repeating", got[Thrust], got[Left])
		}
	})
}

// TestTapTurns turns a ship with taps and a hold in press-only mode: a tap
// turns at most a sixteenth of a turn, every tap as much as the others.
func TestTapTurns(t *testing.T) {
	w, err := game.New(game.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var k Keys
	heading := func() float64 { return w.Player(0).Ship.Angle }
	turned := func(from float64) float64 { return math.Abs(math.Remainder(heading()-from, 2*math.Pi)) }
	step := 0
	run := func(d time.Duration) {
		for end := stepAt(step) + d; stepAt(step) < end; step++ {
			w.Step(k.Step(true))
		}
	}
	run(time.Second) // the ship appears
	var taps []float64
	for range 3 {
		before := heading()
		k.Press(Left, stepAt(step))
		run(time.Second / 2)
		taps = append(taps, turned(before))
	}
	for i, a := range taps {
		if a <= 0 || a > 2*math.Pi/16 || math.Abs(a-taps[0]) > 1e-9 {
			t.Errorf("tap %d turned %.4f rad (taps: %v), want equal steps in (0, %.4f]", i, a, taps, 2*math.Pi/16)
		}
	}
	t.Logf("a tap turns %.4f rad (%.1f°)", taps[0], taps[0]*180/math.Pi)
}
