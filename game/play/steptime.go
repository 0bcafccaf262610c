package play

import "time"

// stepTimer keeps the mean time of a step over the last StepSample steps
// or more, as a panel shows it. Reading it resets nothing, so that every
// screen that shows a game (its player's, each watcher's) reads the same
// figure. The zero stepTimer has timed nothing: its mean is 0.
type stepTimer struct {
	total time.Duration // since mean was set
	n     int
	mean  time.Duration
}

// add counts steps that took d in all.
func (t *stepTimer) add(d time.Duration, steps int) {
	t.total += d
	if t.n += steps; t.n >= StepSample {
		t.mean = t.total / time.Duration(t.n)
		t.total, t.n = 0, 0
	}
}
