package kitty

import (
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gdamore/tcell/v2"
)

// wedges are inputs that stall or derail tcell v2.13's input parser when
// they reach it unfiltered. Each is followed by a pause and q in
// FuzzScreenInput; those marked in the comments never let the q through.
var wedges = []string{
	"\xff",                    // invalid UTF-8: scanInput loops forever
	"\xe9q",                   // a lead byte and a byte that does not continue it: same
	"\xe9",                    // a lead byte alone: tcell keeps it, the next byte wedges
	"\xc3\xa9",                // é, whole (must survive)
	"\x1b]0;t",                // OSC without its end: every later byte is swallowed
	"\x1bX", "\x1b^", "\x1b_", // SOS, PM, APC: the same
	"\x1b[",                            // CSI without its final byte: eats the q as one
	"\x1b[" + strings.Repeat("9", 300), // huge CSI parameters: unbounded buffer
	"\x1b[200~paste",                   // bracketed paste without its end
	"\x1b\x1b",                         // doubled ESC: no Esc timeout, the next key gets Alt
	"\x1b[[",                           // linux console F-key prefix: eats the next byte
	"\x1bN", "\x1bO",                   // SS2, SS3: eat the next byte
	"\x1b[0;0;27;1;0;1_\x1b[0;0;93;1;0;1_", // win32-input-mode ESC ]: a nested OSC
	"\x1b[81;0;113;1;0;2000000000_",        // win32-input-mode q repeated 2^31 times
	"\x1b",
}

// FuzzScreenInput feeds any bytes, cut into reads anywhere, through the
// filter into a real tcell screen, then a pause and q, and checks the q
// arrives as a key: no input can stall or swallow the input that follows
// it. It runs on synctest's clock; a wedged parser spins instead of
// blocking, so a watchdog on the real clock ends the run if the bubble does
// not finish.
func FuzzScreenInput(f *testing.F) {
	for _, w := range wedges {
		f.Add([]byte(w), uint64(0))
		f.Add([]byte(w), uint64(0x0102030405060708))
	}
	f.Add([]byte("\x1b[97u\x1b[?31u\x1b[97;1:3u\x1b[<0;3;4M"), uint64(3))
	f.Fuzz(func(t *testing.T, in []byte, cuts uint64) {
		if len(in) > 1024 {
			t.Skip()
		}
		t.Setenv("LANG", "en_US.UTF-8")
		watchdog := time.AfterFunc(20*time.Second, func() {
			panic(fmt.Sprintf("tcell's input is wedged by %q (cuts %#x)", in, cuts))
		})
		defer watchdog.Stop()
		synctest.Test(t, func(t *testing.T) {
			f, _, s := newScreen(t)
			qs := make(chan struct{}, 1)
			go func() {
				for {
					switch ev := s.PollEvent().(type) {
					case nil:
						return
					case *tcell.EventKey:
						if ev.Key() == tcell.KeyRune && ev.Rune() == 'q' {
							select {
							case qs <- struct{}{}:
							default:
							}
						}
					}
				}
			}()
			start := 0
			for i := range in {
				if cuts>>(i%64)&1 != 0 {
					f.in <- in[start : i+1]
					start = i + 1
				}
			}
			f.in <- in[start:]
			time.Sleep(time.Second) // the terminal goes quiet
			// A q in the input itself has arrived by now; only the q typed after
			// the pause counts.
			synctest.Wait()
			select {
			case <-qs:
			default:
			}
			f.in <- []byte("q")
			select {
			case <-qs:
			case <-time.After(time.Second):
				t.Errorf("%q: no q from tcell within a second of it being typed", in)
			}
			s.Fini()
		})
	})
}
