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
		if s.list.HasFocus() {
			s.closeList()
		} else {
			s.openList()
		}
	case tcell.KeyEscape:
		if s.list.HasFocus() {
			s.closeList()
		} else {
			s.withdraw()
		}
	case tcell.KeyRune:
		s.onRune(ev.Rune(), now)
	}
	return nil
}

// openList gives the keys to the strategy list, showing it: in the full
// panel where the screen has room for it, else under the compact one,
// so that the field keeps its size.
func (s *session) openList() {
	ft := &s.fit
	f := ft.form
	switch {
	case f == formFull:
	case autoForm(ft.w, ft.h) == formFull:
		s.arrange(formFull)
		ft.restore = f
	default:
		ft.list = true
		s.arrange(formCompact)
		ft.restore = f
	}
	s.loop.focus(s.list)
	s.syncList()
}

// closeList gives the keys back to the arena, and the panel the form it
// had before openList.
func (s *session) closeList() {
	s.loop.focus(s.arena)
	if ft := &s.fit; ft.restore != formFull || ft.list {
		ft.list = false
		s.arrange(ft.restore) // the field Tab took for the list, back
		s.syncList()
	}
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
		s.arrange(nextForm(s.fit.form, s.fit.w, s.fit.h))
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
