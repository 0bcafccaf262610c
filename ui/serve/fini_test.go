package serve

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"

	"poolroids/ui/kitty"
)

// TestFiniUnderFlood stops reading events while the client keeps pasting,
// then finalises the screen, many times over: Fini must return every time,
// and tcell's reader must have stopped (see [screen]: with tcell's own Fini
// alone, a reader left sending to its stopped parser hangs it for good,
// which a flood makes a matter of timing).
func TestFiniUnderFlood(t *testing.T) {
	ti, err := terminfo.LookupTerminfo("xterm-256color")
	if err != nil {
		t.Fatal(err)
	}
	flood := strings.Repeat("a", 64<<10)
	for i := range 40 {
		in, feed := io.Pipe()
		raw := newTty(in, io.Discard, 80, 24, nil)
		go func() {
			for {
				if _, err := io.WriteString(feed, flood); err != nil {
					return
				}
			}
		}()
		scr, err := newScreen(kitty.NewTty(raw), raw, ti)
		if err != nil {
			t.Fatal(err)
		}
		if err := scr.Init(); err != nil {
			t.Fatal(err)
		}
		// Read events as a game does until it quits, then stop reading.
		events, quit := make(chan tcell.Event, 16), make(chan struct{})
		go scr.ChannelEvents(events, quit)
		for range 200 {
			<-events
		}
		close(quit)
		for range events {
		}
		done := make(chan struct{})
		go func() {
			scr.Fini()
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("round %d: Fini did not return with input still arriving", i)
		}
		select {
		case <-scr.reader.stopped():
		default:
			t.Fatalf("round %d: Fini returned with tcell's reader still reading", i)
		}
		raw.Close()
		feed.Close()
	}
}
