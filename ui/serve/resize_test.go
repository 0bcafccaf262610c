package serve

import (
	"strings"
	"testing"
	"time"
)

// TestResizeStorm: window-changes as fast as a client can send them
// (about 235k a second) cost 71% of a core, and 8 such connections
// dropped the others from 30 to 25 frames a second; now a storm past a
// window drag's pace is refused, and its connection closed like any that
// floods refused requests. A drag's resizes all pass, the last one
// showing.
func TestResizeStorm(t *testing.T) {
	t.Parallel()
	ts := startServer(t, Config{})
	drag := play(t, ts.mustDial(t, "ann", nil), ptyOpts{w: 80, h: 24})
	drag.waitScreen(t, "size 80x24")
	// A drag at 60 Hz for 2 s, then the size it ends at.
	for i := range 120 {
		if err := drag.sess.WindowChange(24+i%10, 80+i%40); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second / 60)
	}
	drag.vt.resize(100, 30)
	if err := drag.sess.WindowChange(30, 100); err != nil {
		t.Fatal(err)
	}
	drag.waitScreen(t, "size 100x30")

	storm := play(t, ts.mustDial(t, "eve", nil), ptyOpts{w: 80, h: 24, quiet: true})
	storm.waitScreen(t, "size 80x24")
	start, sent := time.Now(), 0
	for ; time.Since(start) < 10*time.Second; sent++ {
		if err := storm.sess.WindowChange(24+sent%10, 80+sent%40); err != nil {
			break
		}
	}
	took := time.Since(start)
	if took >= 10*time.Second {
		t.Fatalf("%d window-changes in %v, and the connection is still open", sent, took)
	}
	t.Logf("closed after %d window-changes in %v", sent, took.Round(time.Millisecond))
	if st := storm.exit(t); st != 1 {
		t.Errorf("the storm's session ended with %d, want 1", st)
	}
	waitLog(t, ts, "msg=rejected", `reason="window-change flood"`, "user=eve")
	waitLog(t, ts, "msg=disconnect", "user=eve", `reason="too many refused requests"`)
	if strings.Contains(ts.log.String(), "user=ann reason") {
		t.Errorf("the drag was refused:\n%s", ts.log.String())
	}
	drag.keys(t, "q")
	if st := drag.exit(t); st != 0 {
		t.Errorf("the drag's session ended with %d, want 0", st)
	}
}
