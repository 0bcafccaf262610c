package play

import (
	"testing"
	"time"
)

// TestStepTimer: the mean is of the last StepSample steps or more, kept
// until the next such run, and reading it resets nothing.
func TestStepTimer(t *testing.T) {
	var st stepTimer
	for range StepSample - 1 {
		st.add(time.Millisecond, 1)
	}
	if st.mean != 0 {
		t.Errorf("after %d steps: mean %v, want none yet", StepSample-1, st.mean)
	}
	st.add(time.Millisecond, 1)
	if st.mean != time.Millisecond {
		t.Errorf("after %d steps of 1ms: mean %v", StepSample, st.mean)
	}
	st.add(3*StepSample*time.Microsecond, StepSample) // a tick of many steps
	if st.mean != 3*time.Microsecond {
		t.Errorf("after a tick of %d steps of 3µs: mean %v", StepSample, st.mean)
	}
	st.add(time.Second, 1)
	if st.mean != 3*time.Microsecond {
		t.Errorf("one slow step into the next run: mean %v, want the last run's 3µs", st.mean)
	}
}
