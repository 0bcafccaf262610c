package ui

import (
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"

	"poolroids/ui/vt"
)

// appScreen is the screen of a game session (see [loop]) and of the
// lobby. It changes four things.
//
// It keeps the error of Init: a screen that could not start must not be
// drawn on or finalised (tcell panics on both).
//
// It turns an input error into a call of failed instead of passing it on:
// the session (or the lobby) ends through its one way out, which stops its
// goroutines first.
//
// It keeps the last frame until told to clear it. tcell (v2.13) marks a
// cell for output whenever its content changes, even back to what the
// terminal already shows: a screen cleared before every frame would send
// every cell that is not blank again, every frame. So the cells are
// cleared only when the size changed ([appScreen.resize], at the start of
// every frame) or the layout did ([appScreen.Clear]), and each clear is
// counted in epoch; between two, the widgets draw over their last frame
// only the cells that change (see [session.keep]), and only those are
// sent.
//
// Last, on a terminal that package vt can drive (256 colours or more,
// UTF-8: every terminal an SSH client runs in today) the cells live in a
// vt.Frame and Show writes what changed to the terminal itself, at a
// fraction of tcell's cost (see package vt). tcell keeps the terminal's
// modes and input; its own cells stay blank and locked while the frame
// draws, so that the redraw tcell makes by itself when the window changes
// sends nothing over the game, and [appScreen.release] hands them back.
type appScreen struct {
	tcell.Screen
	failed  func(error) // ends the screen's user: its input failed
	initErr error
	epoch   uint64 // clears so far; starts at 1, so that 0 is never current
	w, h    int    // the size at the last clear; 0×0: never cleared

	frame *vt.Frame   // the cells, when Show writes them itself; nil: tcell does
	tty   io.Writer   // where Show writes them
	lock  sync.Locker // tcell's lock, held while writing: tcell writes too
	out   []byte      // the bytes of the last frame sent, reused
}

func (e *appScreen) Init() error {
	e.initErr = e.Screen.Init()
	if e.initErr == nil {
		e.direct()
	}
	return e.initErr
}

// direct makes the screen write its frames itself where vt can drive the
// terminal.
func (e *appScreen) direct() {
	tty, ok := e.Screen.Tty()
	lock, locks := baseScreen(e.Screen).(sync.Locker)
	if !ok || tty == nil || !locks || e.Screen.Colors() < 256 || !utf8Charset(e.Screen.CharacterSet()) {
		return
	}
	e.frame = &vt.Frame{TrueColor: e.Screen.Colors() >= 1<<24}
	e.tty, e.lock = tty, lock
}

// release gives tcell its cells back once the session is over, for the
// screen's next user (the lobby): unlocked, they are all sent again at
// its first Show.
func (e *appScreen) release() {
	if e.frame != nil {
		w, h := e.Screen.Size()
		e.Screen.LockRegion(0, 0, w, h, false)
	}
}

// baseScreen is the screen under the views that share it.
func baseScreen(scr tcell.Screen) tcell.Screen {
	if v, ok := scr.(*sharedView); ok {
		return v.Screen
	}
	return scr
}

func (e *appScreen) PollEvent() tcell.Event {
	for {
		ev := e.Screen.PollEvent()
		err, ok := ev.(*tcell.EventError)
		if !ok {
			return ev
		}
		e.failed(err)
	}
}

// utf8Charset reports whether name, tcell's name for a terminal's character
// set, is UTF-8: of the sets tcell can encode, the only one with braille.
func utf8Charset(name string) bool {
	return strings.EqualFold(name, "UTF-8") || strings.EqualFold(name, "utf8")
}

// Show sends the changed cells to the terminal.
func (e *appScreen) Show() {
	if e.frame == nil {
		e.Screen.Show()
		return
	}
	e.write()
}

// write sends what changed in the frame.
func (e *appScreen) write() {
	if e.out = e.frame.Render(e.out[:0]); len(e.out) > 0 {
		e.lock.Lock()
		_, _ = e.tty.Write(e.out) // a failed terminal ends the session through its input
		e.lock.Unlock()
	}
}

// Sync redraws the whole screen.
func (e *appScreen) Sync() {
	if e.frame == nil {
		e.Screen.Sync()
		return
	}
	e.frame.Invalidate()
	e.write()
}

// resize clears the screen when its size changed since the last clear:
// at the first frame, and at the first after the terminal was resized.
func (e *appScreen) resize() {
	if w, h := e.Screen.Size(); w != e.w || h != e.h {
		e.clear(w, h)
	}
}

// Clear clears the screen, so that the widgets draw whole at their next
// draw: the layout changed. A screen never cleared has nothing to clear
// (and may not have started): its first frame clears it.
func (e *appScreen) Clear() {
	if e.w == 0 && e.h == 0 {
		return
	}
	if w, h := e.Screen.Size(); e.frame == nil || w != e.w || h != e.h {
		e.clear(w, h)
		return
	}
	e.frame.Fill(' ', tcell.StyleDefault)
	e.epoch++
}

// clear clears the screen, now w×h, and its frame's cells, if any, sized
// to it: tcell's own are then locked, blank.
func (e *appScreen) clear(w, h int) {
	e.Screen.Clear()
	if e.frame != nil {
		e.frame.Resize(w, h)
		e.Screen.LockRegion(0, 0, w, h, true)
	}
	e.w, e.h = w, h
	e.epoch++
}

// The cells, in the frame when there is one, else in tcell's buffer.

func (e *appScreen) Put(x, y int, str string, st tcell.Style) (string, int) {
	if e.frame == nil {
		return e.Screen.Put(x, y, str, st)
	}
	return e.frame.Put(x, y, str, st)
}

func (e *appScreen) PutStr(x, y int, str string) {
	e.PutStrStyled(x, y, str, tcell.StyleDefault)
}

func (e *appScreen) PutStrStyled(x, y int, str string, st tcell.Style) {
	if e.frame == nil {
		e.Screen.PutStrStyled(x, y, str, st)
		return
	}
	putString(e, x, y, e.w, str, st)
}

func (e *appScreen) SetContent(x, y int, mainc rune, combc []rune, st tcell.Style) {
	if e.frame == nil {
		e.Screen.SetContent(x, y, mainc, combc, st)
		return
	}
	e.frame.SetContent(x, y, mainc, combc, st)
}

func (e *appScreen) SetCell(x, y int, st tcell.Style, ch ...rune) {
	if len(ch) > 0 {
		e.SetContent(x, y, ch[0], ch[1:], st)
	}
}

func (e *appScreen) Get(x, y int) (string, tcell.Style, int) {
	if e.frame == nil {
		return e.Screen.Get(x, y)
	}
	return e.frame.Get(x, y)
}

func (e *appScreen) GetContent(x, y int) (rune, []rune, tcell.Style, int) {
	if e.frame == nil {
		return e.Screen.GetContent(x, y)
	}
	return frameContent(e.frame, x, y)
}

// frameContent is a frame's cell at (x, y) as tcell's GetContent gives it.
func frameContent(f *vt.Frame, x, y int) (rune, []rune, tcell.Style, int) {
	str, st, w := f.Get(x, y)
	r, n := utf8.DecodeRuneInString(str)
	var combc []rune
	if n < len(str) {
		combc = []rune(str[n:])
	}
	return r, combc, st, w
}

func (e *appScreen) Fill(r rune, st tcell.Style) {
	if e.frame == nil {
		e.Screen.Fill(r, st)
		return
	}
	e.frame.Fill(r, st)
}

func (e *appScreen) ShowCursor(x, y int) {
	e.Screen.ShowCursor(x, y) // for tcell's own redraws, and the next user
	if e.frame != nil {
		e.frame.ShowCursor(x, y)
	}
}

func (e *appScreen) HideCursor() { e.ShowCursor(-1, -1) }

// putter is what draws cells: a tcell.Screen, or a test's log of them.
type putter interface {
	Put(x, y int, str string, st tcell.Style) (remain string, width int)
	Colors() int
}

// shown is what a widget knows of its cells on the session's screen: the
// epoch and the place at which it last drew on it.
type shown struct {
	epoch uint64
	r     rect
}

// keep tells whether the widget of sh, now at r, may draw over its last
// frame only what changed since: it drew all of itself at r on the
// session's screen, which has not been cleared since. It records this
// draw, which must be whole when keep says false. Drawing on any other
// screen (a test's) makes the next draw on the session's screen whole.
func (s *session) keep(scr tcell.Screen, sh *shown, r rect) bool {
	if !s.mine(scr) {
		*sh = shown{}
		return false
	}
	ok := sh.epoch == s.screen.epoch && sh.r == r
	*sh = shown{s.screen.epoch, r}
	return ok
}

// mine tells whether scr is the session's screen.
func (s *session) mine(scr tcell.Screen) bool { return scr == tcell.Screen(s.screen) }

// blank is what a cleared cell holds (tcell's Clear).
const blank = " "
