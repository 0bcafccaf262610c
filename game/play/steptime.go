package play

import "time"

// stepTimer sums the time steps took, for the mean a front end shows.
// The zero stepTimer has timed nothing.
type stepTimer struct {
	total time.Duration
	n     int
}

// add counts steps that took d in all.
func (t *stepTimer) add(d time.Duration, steps int) {
	t.total += d
	t.n += steps
}

// mean returns the mean time of a step since it was last asked, and
// false if none was taken meanwhile.
func (t *stepTimer) mean() (time.Duration, bool) {
	if t.n == 0 {
		return 0, false
	}
	d := t.total / time.Duration(t.n)
	*t = stepTimer{}
	return d, true
}
