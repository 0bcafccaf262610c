package stress

import (
	"fmt"
	"strings"
)

// DivergenceError reports runs that did not play the same game as the
// reference run, the first of the session. Any divergence makes the whole
// report untrustworthy: the strategies did not do the same work.
type DivergenceError struct {
	Reference string       // the run the others are compared with
	Runs      []Divergence // every run that differs, in session order
}

// Divergence is one run's first difference from the reference run.
type Divergence struct {
	Run       string   // strategy, and repetition when the session repeats
	Step      int      // the first compared step (counted from the run's start) that differs
	Want, Got Checksum // the reference run's checksum at Step, and this run's
}

func (e *DivergenceError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "stress: checksums differ: %d run(s) did not play the same game as %s:", len(e.Runs), e.Reference)
	for _, d := range e.Runs {
		if d.Step < 0 {
			fmt.Fprintf(&b, "\n\t%s: checksums taken at other steps", d.Run)
			continue
		}
		fmt.Fprintf(&b, "\n\t%s: first differs at step %d: %s, want %s", d.Run, d.Step, d.Got, d.Want)
	}
	return b.String()
}

// Verify compares the checksums runs recorded along the way with those of
// the first run, and returns a [*DivergenceError] naming every run that
// differs at any compared step, or nil when all played the same game.
//
// [Run] verifies every run of its session. The results of a [Report] keep
// the checksums of their strategy's first run, so Verify also tells
// whether two sessions played the same game:
// Verify(append(a.Runs, b.Runs...)). Results built any other way carry no
// checksums and always agree.
func Verify(runs []Result) error {
	if len(runs) < 2 {
		return nil
	}
	ref := &runs[0]
	e := &DivergenceError{Reference: ref.name()}
	for i := 1; i < len(runs); i++ {
		r := &runs[i]
		if d, ok := diverge(ref.trail, r.trail); !ok {
			d.Run = r.name()
			e.Runs = append(e.Runs, d)
		}
	}
	if len(e.Runs) > 0 {
		return e
	}
	return nil
}

// diverge finds the first checkpoint where b differs from the reference a;
// Step is -1 when the two were taken at different steps.
func diverge(a, b []checkpoint) (Divergence, bool) {
	if len(a) != len(b) {
		return Divergence{Step: -1}, false
	}
	for i := range a {
		switch {
		case a[i].step != b[i].step:
			return Divergence{Step: -1}, false
		case a[i].sum != b[i].sum:
			return Divergence{Step: a[i].step, Want: a[i].sum, Got: b[i].sum}, false
		}
	}
	return Divergence{}, true
}

// name names the run in messages: its strategy, and its repetition past
// the first.
func (r *Result) name() string {
	if r.round > 1 {
		return fmt.Sprintf("%s (repetition %d)", r.Strategy, r.round)
	}
	return string(r.Strategy)
}
