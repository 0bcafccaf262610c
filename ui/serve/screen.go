package serve

import (
	"github.com/gdamore/tcell/v2/terminfo"

	"poolroids/ui/kitty"
)

// newScreen builds the session's screen on ktty, the kitty filter over
// raw, whose input it paces by the screen's event queue: the Tty keeps
// the queue from filling with input in the first place (see
// [sshTty.Read]), and the screen's Fini drains what still comes (see
// kitty.Screen).
func newScreen(ktty *kitty.Tty, raw *sshTty, ti *terminfo.Terminfo) (*kitty.Screen, error) {
	scr, err := kitty.NewScreen(ktty, ti)
	if err != nil {
		return nil, err
	}
	raw.queued = func() int { return len(scr.EventQ()) }
	return scr, nil
}
