package ui

import (
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// onKey sees every key before the widgets. Ctrl-C quits; while the key
// help is up any other key closes it, and behind the too-small notice
// only q acts. Keys the focused strategy list navigates with go to it;
// the show plays the others, and passes on those of the panel, the list
// and the help, and the answers to a question.
func (s *session) onKey(ev *tcell.EventKey) *tcell.EventKey {
	defer s.guard()
	q := ev.Key() == tcell.KeyRune && (ev.Rune() == 'q' || ev.Rune() == 'Q')
	switch {
	case ev.Key() == tcell.KeyCtrlC, s.fit.small && q:
		s.end(ReasonQuit, nil)
		return nil
	case s.fit.help:
		s.showHelp(false)
		return nil
	case s.fit.small:
		return nil
	}
	s.focusShown() // a resize may have taken the list away
	if s.list.HasFocus() {
		switch ev.Key() {
		case tcell.KeyUp, tcell.KeyDown, tcell.KeyEnter, tcell.KeyHome, tcell.KeyEnd, tcell.KeyPgUp, tcell.KeyPgDn:
			return ev
		}
	}
	now := s.now()
	if ev = s.show.key(ev, now); ev == nil {
		return nil
	}
	switch ev.Key() {
	case tcell.KeyTab, tcell.KeyBacktab:
		switch {
		case s.list.HasFocus():
			s.loop.focus(s.arena)
			if f := s.fit.restore; f != formFull {
				s.arrange(f) // the field Tab took for the list, back
			}
		case s.fit.form != formFull: // the list shows in the full panel only
			f := s.fit.form
			s.arrange(formFull)
			s.fit.restore = f
			fallthrough
		default:
			s.loop.focus(s.list)
		}
	case tcell.KeyEscape:
		s.withdraw()
	case tcell.KeyRune:
		s.onRune(ev.Rune(), now)
	}
	return nil
}

// onRune acts on the keys every show leaves to the session.
func (s *session) onRune(r rune, now time.Duration) {
	switch r {
	case 'y', 'Y':
		if k := s.asked(now); k != 0 { // the second press the question asked for
			s.show.key(tcell.NewEventKey(tcell.KeyRune, k, tcell.ModNone), now)
		}
	case 'n', 'N':
		s.withdraw()
	case 'b', 'B':
		s.mu.Lock()
		s.target = (s.target + 1) % numTargets
		s.mu.Unlock()
		s.syncList()
	case 'v', 'V':
		s.arrange((s.fit.form + 1) % numForms)
		s.focusShown()
	case '?':
		s.showHelp(true)
	default:
		if i := strings.IndexRune(strategyKeys, r); i >= 0 {
			s.pick(i)
		}
	}
}

// onMouse sees every mouse event before the widgets: while the key help
// or the too-small notice is up the strategy list must not switch behind
// it, and a click takes the help down.
func (s *session) onMouse(ev *tcell.EventMouse, action tview.MouseAction) (*tcell.EventMouse, tview.MouseAction) {
	if !s.fit.help && !s.fit.small {
		return ev, action
	}
	if s.fit.help && action == tview.MouseLeftUp { // consumed, it makes no click
		s.showHelp(false)
	}
	return nil, action
}
