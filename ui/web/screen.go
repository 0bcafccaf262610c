package web

import (
	"context"
	"sync"

	"github.com/gdamore/tcell/v2"

	"poolroids/game/input"
	"poolroids/ui"
	"poolroids/ui/vt"
)

// Screen is a [Conn] as package ui drives a display: a [ui.Screen], on
// which the lobby, the games, watching and replays play in a browser as
// they play in a terminal. ui draws into its cells; Show hands the cells
// that changed to a Grid of the Screen's own, which the Conn sends as
// their difference from what the page shows. The page's keys come as
// tcell's key events, each key once as it goes down (a browser's repeats
// are not sent, and ui needs none), and, while ui holds a player's keys
// (Hold), the game's keys go down and up in them as they go down and up
// in the browser: a held key acts exactly as long as it is held. The
// page's resizes are tcell's resize events.
//
// Make one with [NewScreen]; it lives as long as its Conn's session, and
// may show one ui session after another. Its methods are ui's to call
// (see ui.Screen): Show, Sync, Size and Cells on the goroutine that
// draws, Hold from any.
type Screen struct {
	c      *Conn
	f      vt.Frame
	g      *Grid // what Show hands the Conn: the page's grid once sent
	wiped  bool  // Show: the frame asked for a clear
	put    func(x, y int, str string, st tcell.Style, width int)
	pen    Cell // Show: the colours a blank in the default ones takes (see putCell)
	wipe   func()
	events chan tcell.Event
	names  chan string // the names given in the page, the latest waiting

	mu   sync.Mutex
	keys *input.Keys // Hold's; nil: none
	down uint16      // the game keys' physical keys held (see gameKeys)
}

// NewScreen makes the Screen of c and starts reading c's input, until ctx
// (the session's) is done.
func NewScreen(ctx context.Context, c *Conn) *Screen {
	s := &Screen{c: c, g: new(Grid), events: make(chan tcell.Event, 64), names: make(chan string, 1)}
	s.put = s.putCell
	s.wipe = func() { s.g.Clear(); s.wiped = true }
	go s.read(ctx)
	return s
}

// Display is a browser's: every character, 24-bit colour.
func (s *Screen) Display() ui.Display { return ui.Display{UTF8: true, Colors: 1 << 24} }

// Size is the grid the page has room for.
func (s *Screen) Size() (w, h int) { return s.c.Size() }

// Cells is the back buffer ui draws into.
func (s *Screen) Cells() *vt.Frame { return &s.f }

// Events is the page's input as tcell's events.
func (s *Screen) Events() <-chan tcell.Event { return s.events }

// Renames receives the names the player gives in the page's name field,
// for the lobby (see ui's lobby): the latest only, when several came
// while it was not read.
func (s *Screen) Renames() <-chan string { return s.names }

// Releases is true: a browser reports every key's release.
func (s *Screen) Releases() bool { return true }

// Stats counts the frames and cells Show sent, and the bytes the Conn
// wrote for them.
func (s *Screen) Stats() (vt.Stats, bool) {
	st := s.f.Stats()
	st.Bytes = s.c.FrameBytes()
	return st, true
}

// Show hands the Conn the cells that changed since the last Show; a still
// frame hands it nothing.
func (s *Screen) Show() {
	w, h := s.f.Size()
	if gw, gh := s.g.Size(); gw != w || gh != h {
		s.g.Resize(w, h)
	}
	s.wiped, s.pen = false, Cell{}
	before := s.f.Stats().Cells
	s.f.Changes(s.wipe, s.put)
	if s.wiped || s.f.Stats().Cells != before {
		s.c.showChanged(s.g)
	}
}

// Sync sends every cell again at the next Show.
func (s *Screen) Sync() { s.f.Invalidate() }

// putCell sets a cell of the grid from one of the frame's.
func (s *Screen) putCell(x, y int, str string, st tcell.Style, width int) {
	fg, bg, attrs := st.Decompose()
	var a Attr
	if attrs&tcell.AttrBold != 0 {
		a |= Bold
	}
	if attrs&tcell.AttrDim != 0 {
		a |= Dim
	}
	if attrs&tcell.AttrItalic != 0 {
		a |= Italic
	}
	if attrs&tcell.AttrReverse != 0 {
		a |= Reverse
	}
	if st.GetUnderlineStyle() != tcell.UnderlineStyleNone {
		a |= Underline
	}
	c := Cell{Text: str, Fg: colorOf(fg), Bg: colorOf(bg), Attr: a, Wide: width > 1}
	switch {
	case c == Cell{Text: " "}:
		// A blank in the default colours shows as one in the foreground
		// before it: it takes it, and the page no style change.
		c.Fg, c.Attr = s.pen.Fg, s.pen.Attr
	case c.Bg == DefaultColor && c.Attr&(Reverse|Underline) == 0:
		s.pen = c
	default:
		s.pen = Cell{}
	}
	s.g.Set(x, y, c)
}

// colorOf is tcell's colour c as the page's.
func colorOf(c tcell.Color) Color {
	switch {
	case c&tcell.ColorValid == 0 || c&tcell.ColorSpecial != 0:
		return DefaultColor
	case c&tcell.ColorIsRGB != 0:
		r, g, b := c.RGB()
		return RGBColor(uint8(r), uint8(g), uint8(b))
	}
	return PaletteColor(uint8(c - tcell.ColorValid))
}

// Hold has the game's keys go down and up in k as they do in the browser,
// from now on (nil: no longer). The keys held in the Keys it replaces are
// let go.
func (s *Screen) Hold(k *input.Keys) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.keys != nil {
		for c := range input.NumControls {
			s.keys.Up(c)
		}
	}
	s.keys, s.down = k, 0
}

// gameKeys are the keys that play the game, each a physical key (a bit of
// Screen.down) of one control: holding ← and a together and letting go of
// one still leaves Left held.
var gameKeys = [...]struct {
	key Key
	c   input.Control
}{
	{KeyLeft, input.Left}, {'a', input.Left}, {'A', input.Left},
	{KeyRight, input.Right}, {'d', input.Right}, {'D', input.Right},
	{KeyUp, input.Thrust}, {'w', input.Thrust}, {'W', input.Thrust},
	{' ', input.Fire},
	{'h', input.Hyper}, {'H', input.Hyper}, {'s', input.Hyper}, {'S', input.Hyper},
}

// hold passes a game key's press or release on to the Keys held.
func (s *Screen) hold(ev Event) {
	for i, g := range gameKeys {
		if g.key != ev.Key || ev.Mod&(ModCtrl|ModAlt|ModMeta) != 0 && ev.Type == KeyPress {
			continue
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.keys == nil {
			return
		}
		bit := uint16(1) << i
		if ev.Type == KeyPress {
			s.down |= bit
			s.keys.Down(g.c)
			return
		}
		if s.down&bit == 0 {
			return
		}
		s.down &^= bit
		for j, o := range gameKeys {
			if o.c == g.c && s.down&(1<<j) != 0 {
				return // another key of the control is still held
			}
		}
		s.keys.Up(g.c)
		return
	}
}

// read turns the Conn's input into tcell's events until ctx is done.
func (s *Screen) read(ctx context.Context) {
	for {
		var ev tcell.Event
		select {
		case <-ctx.Done():
			return
		case <-s.c.Resized():
			w, h := s.c.Size()
			ev = tcell.NewEventResize(w, h)
		case in := <-s.c.Events():
			switch in.Type {
			case KeyPress, KeyRelease:
				s.hold(in)
				if in.Type == KeyPress {
					ev = keyEvent(in)
				}
			case NameChange:
				select {
				case <-s.names: // a name not taken yet: the new one stands for it
				default:
				}
				s.names <- in.Text
			case TextInput:
				for _, r := range in.Text {
					if !s.send(ctx, tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone)) {
						return
					}
				}
			}
		}
		if ev != nil && !s.send(ctx, ev) {
			return
		}
	}
}

// send passes ev to ui, unless ctx is done first.
func (s *Screen) send(ctx context.Context, ev tcell.Event) bool {
	select {
	case s.events <- ev:
		return true
	case <-ctx.Done():
		return false
	}
}

// namedKeys are tcell's keys for the page's named keys, from KeyEnter on;
// 0: none (the modifiers alone).
var namedKeys = [...]tcell.Key{
	tcell.KeyEnter, tcell.KeyTab, tcell.KeyBackspace2, tcell.KeyEscape,
	tcell.KeyUp, tcell.KeyDown, tcell.KeyLeft, tcell.KeyRight,
	tcell.KeyHome, tcell.KeyEnd, tcell.KeyPgUp, tcell.KeyPgDn, tcell.KeyInsert, tcell.KeyDelete,
	0, 0, 0, 0,
	tcell.KeyF1, tcell.KeyF2, tcell.KeyF3, tcell.KeyF4, tcell.KeyF5, tcell.KeyF6,
	tcell.KeyF7, tcell.KeyF8, tcell.KeyF9, tcell.KeyF10, tcell.KeyF11, tcell.KeyF12,
}

// keyEvent is the tcell key event of a key that went down, as a terminal
// sends it; nil for a modifier alone.
func keyEvent(ev Event) tcell.Event {
	var mod tcell.ModMask
	if ev.Mod&ModAlt != 0 {
		mod |= tcell.ModAlt
	}
	if ev.Mod&ModMeta != 0 {
		mod |= tcell.ModMeta
	}
	if ev.Key >= KeyEnter {
		k := namedKeys[ev.Key-KeyEnter]
		if k == 0 {
			return nil
		}
		if ev.Mod&ModShift != 0 {
			if k == tcell.KeyTab {
				k = tcell.KeyBacktab
			}
			mod |= tcell.ModShift
		}
		if ev.Mod&ModCtrl != 0 {
			mod |= tcell.ModCtrl
		}
		return tcell.NewEventKey(k, 0, mod)
	}
	r := rune(ev.Key)
	if ev.Mod&ModCtrl != 0 {
		switch {
		case r >= 'a' && r <= 'z':
			return tcell.NewEventKey(tcell.KeyCtrlA+tcell.Key(r-'a'), 0, mod|tcell.ModCtrl)
		case r >= 'A' && r <= 'Z':
			return tcell.NewEventKey(tcell.KeyCtrlA+tcell.Key(r-'A'), 0, mod|tcell.ModCtrl)
		}
	}
	return tcell.NewEventKey(tcell.KeyRune, r, mod)
}
