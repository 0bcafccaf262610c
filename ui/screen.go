package ui

import (
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"

	"poolroids/game/input"
	"poolroids/ui/kitty"
	"poolroids/ui/vt"
)

// Screen is a connection's display and input as ui drives it: a terminal
// (over a tcell screen) or, where another package implements it, a
// browser. ui draws every frame into Cells, the one back buffer, and
// calls Show, which sends only what differs from what the display shows:
// a cell drawn again as it shows is not sent, and a still frame sends
// nothing. ui calls its methods on the goroutine of the connection's
// loop; the display's own goroutines fill Events.
type Screen interface {
	// Display is what the display shows.
	Display() Display
	// Size is the display's size in cells now; ui resizes Cells to it
	// before each frame.
	Size() (w, h int)
	// Cells is the back buffer.
	Cells() *vt.Frame
	// Show sends what differs between Cells and the display.
	Show()
	// Sync forgets what the display shows (another program drew on it:
	// a relay to another server): the next Show sends every cell.
	Sync()
	// Stats counts what Show sent; ok is false where the bytes are not
	// the screen's to count (tcell writes them).
	Stats() (st vt.Stats, ok bool)
	// Events is the display's input: keys, clicks, resizes, interrupts;
	// an *tcell.EventError ends what the loop shows.
	Events() <-chan tcell.Event
	// Hold has the screen report the player's game keys held into k
	// (Down and Up) from now on, where it can: a kitty terminal, a
	// browser; nil: no longer.
	Hold(k *input.Keys)
	// Releases reports whether the screen reports key releases into the
	// Keys given to Hold now: ui then sends it no presses of its own.
	Releases() bool
}

// Display is what a Screen shows.
type Display struct {
	UTF8   bool // braille and box drawing show; else the ASCII glyphs
	Colors int  // 0: none (NO_COLOR, monochrome)
}

// terminal is the Screen of a tcell screen, the device: it keeps the
// terminal's modes and input, and ui's cells in a vt.Frame.
//
// On a terminal that package vt can drive (256 colours or more, UTF-8: every
// terminal an SSH client runs in today) Show writes what changed to the
// terminal itself, at a fraction of tcell's cost (see package vt). tcell's
// own cells stay blank and locked meanwhile, so that the redraw tcell makes
// by itself when the window changes sends nothing over the game, and
// [terminal.release] hands them back. Elsewhere (fewer colours, another
// character set, a simulation screen) Show hands the changes to tcell's
// buffer (vt.Frame.Changes) and tcell sends them.
type terminal struct {
	dev     tcell.Screen
	once    sync.Once
	initErr error // a screen that could not start must not be drawn on or finalised (tcell panics on both)

	f      vt.Frame
	direct bool        // vt writes the terminal; else tcell does
	tty    io.Writer   // direct: where Show writes …
	lock   sync.Locker // … under tcell's lock: tcell writes too
	out    []byte      // the bytes of the last frame sent, reused
	pen    tcell.Style // not direct: the style a blank takes (see put)
	lw, lh int         // direct: the size of tcell's cells locked

	events <-chan tcell.Event
	quit   chan struct{} // stops the goroutine that reads a screen without an event queue

	keys *kitty.Keys // the kitty filter's held keys, in front of dev; nil: none
	own  bool        // a session's own (Run, Watch, RunReplay): it starts and finalises dev
}

// newTerminal makes the Screen of dev, which start initialises, with the
// held keys of the kitty filter in front of it (nil: none).
func newTerminal(dev tcell.Screen, keys *kitty.Keys) *terminal {
	return &terminal{dev: dev, keys: keys}
}

// ownTerminal is the terminal of one session alone: the session starts
// dev and finalises it.
func ownTerminal(dev tcell.Screen, keys *kitty.Keys) *terminal {
	t := newTerminal(dev, keys)
	t.own = true
	return t
}

// eventQueue is what tcell's screens offer beyond tcell.Screen: their
// event queue, read by the loop directly.
type eventQueue interface{ EventQ() chan tcell.Event }

// start initialises the device the first time it is called, and sets the
// terminal up: mouse reporting, how frames are sent, where events come
// from. Its error is Init's, every time.
func (t *terminal) start() error {
	t.once.Do(func() {
		if t.initErr = t.dev.Init(); t.initErr != nil {
			return
		}
		t.dev.EnableMouse()
		tty, ok := t.dev.Tty()
		lock, locks := t.dev.(sync.Locker)
		if ok && tty != nil && locks && t.dev.Colors() >= 256 && utf8Charset(t.dev.CharacterSet()) {
			t.direct, t.tty, t.lock = true, tty, lock
			t.f.TrueColor = t.dev.Colors() >= 1<<24
		}
		if q, ok := t.dev.(eventQueue); ok {
			t.events = q.EventQ()
			return
		}
		ch := make(chan tcell.Event, 1)
		t.quit = make(chan struct{})
		go t.dev.ChannelEvents(ch, t.quit)
		t.events = ch
	})
	return t.initErr
}

// release gives tcell its cells back and stops the terminal's reading,
// once the connection's loop is over: unlocked, tcell's cells are all
// sent again at its next Show.
func (t *terminal) release() {
	if t.direct {
		w, h := t.dev.Size()
		t.dev.LockRegion(0, 0, w, h, false)
	}
	if t.quit != nil {
		close(t.quit)
		t.quit = nil
	}
}

func (t *terminal) Display() Display {
	return Display{UTF8: utf8Charset(t.dev.CharacterSet()), Colors: t.dev.Colors()}
}

func (t *terminal) Size() (w, h int)           { return t.dev.Size() }
func (t *terminal) Cells() *vt.Frame           { return &t.f }
func (t *terminal) Events() <-chan tcell.Event { return t.events }

// Stats counts the frames vt sent; tcell counts its own.
func (t *terminal) Stats() (vt.Stats, bool) { return t.f.Stats(), t.direct }

// Show sends the cells that differ from what the terminal shows.
func (t *terminal) Show() {
	x, y, on := t.f.Cursor()
	if !on {
		x, y = -1, -1
	}
	t.dev.ShowCursor(x, y) // for tcell's own redraws, and the next user
	if !t.direct {
		t.pen = tcell.StyleDefault
		t.f.Changes(t.dev.Clear, t.put)
		t.dev.Show()
		return
	}
	if w, h := t.f.Size(); w != t.lw || h != t.lh {
		// tcell's cells, blank, locked at the frame's size: its redraw on
		// a window change sends nothing over the frame's.
		t.dev.Clear()
		t.dev.LockRegion(0, 0, w, h, true)
		t.lw, t.lh = w, h
	}
	if t.out = t.f.Render(t.out[:0]); len(t.out) > 0 {
		t.lock.Lock()
		_, _ = t.tty.Write(t.out) // a failed terminal ends the session through its input
		t.lock.Unlock()
	}
}

// Hold forwards the kitty filter's changes of held keys into k.
func (t *terminal) Hold(k *input.Keys) {
	if t.keys == nil {
		return
	}
	if k == nil {
		t.keys.Forward(nil)
		return
	}
	t.keys.Forward(kittySink{k})
}

// Releases reports whether the kitty protocol reports releases now.
func (t *terminal) Releases() bool { return t.keys.Active() }

// kittySink passes kitty's game keys on as the input controls they are.
type kittySink struct{ k *input.Keys }

func (s kittySink) Down(key kitty.Key) { s.k.Down(input.Control(key)) }
func (s kittySink) Up(key kitty.Key)   { s.k.Up(input.Control(key)) }

// put sets one cell of tcell's buffer. A blank in the default style takes
// the style of the cell put before it where it shows the same (a
// foreground colour alone: not on a screen without colours, where tcell
// shows dark colours in reverse video): tcell then sends no style for it.
func (t *terminal) put(x, y int, str string, st tcell.Style, _ int) {
	switch {
	case str == blank && st == tcell.StyleDefault:
		st = t.pen
	case t.dev.Colors() > 0 && blankAlike(st):
		t.pen = st
	default:
		t.pen = tcell.StyleDefault
	}
	t.dev.Put(x, y, str, st)
}

// blankAlike tells whether a blank in style st looks as one in the
// default style: st sets a foreground, no more that shows on a blank.
func blankAlike(st tcell.Style) bool {
	_, bg, attrs := st.Decompose()
	return bg == tcell.ColorDefault && attrs&(tcell.AttrReverse|tcell.AttrBlink|tcell.AttrStrikeThrough) == 0 &&
		st.GetUnderlineStyle() == tcell.UnderlineStyleNone
}

// Sync redraws the whole screen.
func (t *terminal) Sync() {
	if !t.direct {
		t.dev.Sync()
		return
	}
	t.f.Invalidate()
	t.Show()
}

// utf8Charset reports whether name, tcell's name for a terminal's character
// set, is UTF-8: of the sets tcell can encode, the only one with braille.
func utf8Charset(name string) bool {
	return strings.EqualFold(name, "UTF-8") || strings.EqualFold(name, "utf8")
}

// surface is a Screen's back buffer as tview's primitives and ui's widgets
// draw on it: tcell.Screen's drawing methods over the Screen's Cells.
// tview's primitives use SetContent, GetContent, Size and the cursor; ui's
// widgets Put. Every other method of tcell.Screen is the embedded nil
// interface's: never called.
//
// Every frame is drawn whole into the one buffer, and the Screen sends
// what differs from what its display shows: a cell drawn as it shows is
// not sent, nor one changed and changed back. The buffer is cleared only
// when the size changed (resize, at the start of every frame) or the
// layout did (Clear): the blanks the widgets draw every frame are then
// as the buffer holds them, a compare each.
type surface struct {
	tcell.Screen // nil
	scr          Screen
	f            *vt.Frame
	w, h         int    // the size at the last clear; 0×0: never cleared
	clears       uint64 // counts the clears: what a widget showed before one is gone
}

// newSurface is the surface of scr. Its first resize clears what an
// earlier user of scr drew.
func newSurface(scr Screen) *surface { return &surface{scr: scr, f: scr.Cells()} }

// resize clears the buffer when the screen's size changed since the last
// clear: at the first frame, and at the first after the terminal was
// resized.
func (s *surface) resize() {
	w, h := s.scr.Size()
	if w == s.w && h == s.h {
		return
	}
	if fw, fh := s.f.Size(); fw != w || fh != h {
		s.f.Resize(w, h)
	} else {
		s.f.Clear()
	}
	s.w, s.h = w, h
	s.clears++
}

// Clear clears the buffer: the layout changed, and cells no widget
// covers now must show blank. A surface never sized has nothing to
// clear: its first frame clears it.
func (s *surface) Clear() {
	if s.w == 0 && s.h == 0 {
		return
	}
	s.f.Clear()
	s.clears++
}

// Show shows the frame drawn.
func (s *surface) Show() { s.scr.Show() }

func (s *surface) Size() (w, h int) { return s.f.Size() }

func (s *surface) Colors() int { return s.scr.Display().Colors }

func (s *surface) CharacterSet() string {
	if s.scr.Display().UTF8 {
		return "UTF-8"
	}
	return "US-ASCII"
}

func (s *surface) Put(x, y int, str string, st tcell.Style) (string, int) {
	return s.f.Put(x, y, str, st)
}

func (s *surface) PutStr(x, y int, str string) {
	s.PutStrStyled(x, y, str, tcell.StyleDefault)
}

func (s *surface) PutStrStyled(x, y int, str string, st tcell.Style) {
	w, _ := s.f.Size()
	putString(s, x, y, w, str, st)
}

func (s *surface) SetContent(x, y int, mainc rune, combc []rune, st tcell.Style) {
	s.f.SetContent(x, y, mainc, combc, st)
}

func (s *surface) SetCell(x, y int, st tcell.Style, ch ...rune) {
	if len(ch) > 0 {
		s.SetContent(x, y, ch[0], ch[1:], st)
	}
}

func (s *surface) Get(x, y int) (string, tcell.Style, int) { return s.f.Get(x, y) }

// GetContent is a cell as tcell's GetContent gives it.
func (s *surface) GetContent(x, y int) (rune, []rune, tcell.Style, int) {
	str, st, w := s.f.Get(x, y)
	r, n := utf8.DecodeRuneInString(str)
	var combc []rune
	if n < len(str) {
		combc = []rune(str[n:])
	}
	return r, combc, st, w
}

func (s *surface) Fill(r rune, st tcell.Style) { s.f.Fill(r, st) }

func (s *surface) ShowCursor(x, y int) { s.f.ShowCursor(x, y) }

func (s *surface) HideCursor() { s.f.ShowCursor(-1, -1) }
