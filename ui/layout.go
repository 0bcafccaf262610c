package ui

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"poolroids/game/play"
	"poolroids/game/scores"
	"poolroids/pool"
)

// build makes the widgets: the arena on the left, the side panel right
// of it in the form that fits (see arrange), the show's line (the key
// help, a replay's status) at the bottom.
func (s *session) build() {
	s.arena = newArena(s)
	s.panel = newPanel(s)
	s.list = &strategyList{List: tview.NewList(), s: s}
	s.list.ShowSecondaryText(false).
		SetHighlightFullLine(true).
		SetSelectedStyle(tcell.StyleDefault.Foreground(tcell.ColorBlack).Background(tcell.ColorYellow)).
		SetSelectedFunc(func(i int, _, _ string, _ rune) { s.pick(i) })
	for range pool.Strategies() {
		s.list.AddItem("", "", 0, nil)
	}
	// The list's border is drawn with the session's glyphs (see
	// strategyList.Draw), not tview's, which are the same for every session.
	s.list.SetBorderPadding(1, 1, 1, 1)
	s.fit.side = tview.NewFlex().SetDirection(tview.FlexRow)
	s.fit.body = tview.NewFlex()
	s.root = tview.NewFlex().SetDirection(tview.FlexRow).
		AddItem(s.fit.body, 0, 1, true).
		AddItem(s.show.bottom(), 1, 0, false)
	s.arrange(formFull)
	s.syncList()
}

// form is the side panel's form. The arena takes the rest of the width.
type form uint8

const (
	formFull    form = iota // the stats box over the strategy list
	formCompact             // a few lines: strategy, active/capacity and misses per pool, fps
	formHidden              // none: the arena has the whole width
	numForms
)

// width is the columns the panel takes in form f.
func (f form) width() int {
	switch f {
	case formFull:
		return panelWidth
	case formCompact:
		return compactWidth
	}
	return 0
}

// height is the rows the stats box takes in form f.
func (f form) height() int {
	if f == formCompact {
		return compactHeight
	}
	return panelHeight
}

// fit is how the session fits its screen. It is touched only on the
// loop's goroutine.
type fit struct {
	body, side *tview.Flex
	form       form
	w, h       int  // the screen size form was chosen for
	players    int  // the players the players box was sized for
	small      bool // the screen is smaller than minWidth×minHeight
	help       bool // the key help is up
	// restore is the form Tab left to show the strategy list, which Tab
	// gives back as it leaves the list; formFull: none.
	restore form
}

// listMin is the strategies the full panel shows at least.
const listMin = 5

// autoForm is the form for a w×h screen: the richest one that leaves the
// field at least four fifths of the rows it would have without a panel
// (the full form also needs the height to list listMin strategies). On a
// short screen the field is as wide as the height allows, so the compact
// panel takes only columns the field could not use.
func autoForm(w, h int) form {
	rows := func(f form) int {
		_, fh := fieldSize(w-f.width()-2, h-1-2) // the help line, the arena's border
		return fh
	}
	most := rows(formHidden)
	switch {
	case 5*rows(formFull) >= 4*most && h-1 >= panelHeight+listMin+2:
		return formFull
	case 5*rows(formCompact) >= 4*most:
		return formCompact
	}
	return formHidden
}

// fitTo chooses the form for a screen of w×h when its size changed: the
// form the player chose with v holds until then. In an arena, the players
// box takes a row a player, so the layout changes with the players too.
func (s *session) fitTo(w, h int) {
	ft := &s.fit
	n := ft.players
	if s.players != nil {
		n = s.players.seated()
	}
	if w == ft.w && h == ft.h {
		if n != ft.players {
			ft.players = n
			s.arrange(ft.form)
		}
		return
	}
	ft.w, ft.h, ft.players = w, h, n
	// The stats box and the players box take the rows there are: a new
	// size arranges the panel afresh.
	s.arrange(autoForm(w, h))
}

// arrange lays the body out for form f: the arena, and right of it the
// side panel's sections for f, top to bottom. The screen is cleared, so
// that the next frame draws every widget whole at its new place. Focus
// stays where it is, even on a list no longer shown, until the next key
// (see focusShown).
func (s *session) arrange(f form) {
	ft := &s.fit
	ft.form, ft.restore = f, formFull
	ft.side.Clear()
	ft.body.Clear().AddItem(s.arena, 0, 1, true)
	stats := f // the stats box's form
	switch f {
	case formFull:
		if ft.h > 0 && ft.h-1 < panelHeight+listMin+2 {
			// The full stats would leave the list no row: the compact
			// ones go over it.
			stats = formCompact
		}
		ft.side.AddItem(s.panel, stats.height(), 0, false)
		s.addPlayers(ft.h - 1 - stats.height() - 3) // the list keeps a row and its borders
		ft.side.AddItem(s.list, 0, 1, false)
	case formCompact:
		ft.side.AddItem(s.panel, compactHeight, 0, false)
		s.addPlayers(ft.h - 1 - compactHeight)
	}
	if w := f.width(); w > 0 {
		ft.body.AddItem(ft.side, w, 0, false)
	}
	s.panel.setForm(stats)
	s.screen.Clear()
}

// focusShown gives the keys back to the arena when the strategy list
// that had them is not shown.
func (s *session) focusShown() {
	if s.list.HasFocus() && s.fit.form != formFull {
		s.loop.focus(s.arena)
	}
}

// addPlayers adds an arena's players box to the side panel, as tall as
// its players need and at most rows: a fixed-size item taller than the
// rows left would overflow the screen's bottom, the key help line
// included.
func (s *session) addPlayers(rows int) {
	if s.players != nil {
		s.fit.side.AddItem(s.players, max(min(playersHeight(s.fit.players), rows), 0), 0, false)
	}
}

// showHelp puts the key help up or takes it down.
func (s *session) showHelp(on bool) {
	s.fit.help = on
	s.setHeld(on || s.fit.small || s.questionHolds(s.now()))
}

// setHeld stops or resumes the game: it waits while the too-small notice
// or the key help is up, or a question waits for its answer. Keys held
// when it stops do not act after it resumes.
func (s *session) setHeld(on bool) { s.show.wait(on) }

// strategyKeys are the keys that pick pool.Strategies()[i].
const strategyKeys = "1234567890"

// syncList shows on the list which pool uses which strategy, selects the
// targeted pool's, and names the target in the title. It runs on the
// loop's goroutine (or before the loop runs).
func (s *session) syncList() {
	s.mu.Lock()
	t := s.target
	s.mu.Unlock()
	g := s.glyphs()
	b, d := s.show.strategies()
	s.list.listed = [2]pool.Strategy{b, d}
	cur := b
	if t == targetDebris {
		cur = d
	}
	for i, st := range pool.Strategies() {
		var used string
		switch {
		case st == b && st == d:
			used = g.mark + " both"
		case st == b:
			used = g.mark + " bullets"
		case st == d:
			used = g.mark + " debris"
		}
		s.list.SetItemText(i, fmt.Sprintf("%c %-10s %s", strategyKeys[i], st, used), "")
		if st == cur {
			s.list.SetCurrentItem(i)
		}
	}
	s.list.title = fmt.Sprintf(" strategy %s %s (b) ", g.arrow, targetNames[t])
	s.list.valid = false
	s.panel.stale = true // the compact panel names the target
}

// syncStrategies redraws the strategy list when the pools' strategies
// changed without the player: another player switched the arena's, the
// watched game switched, a replay's recorded switch came. It runs on the
// loop's goroutine.
func (s *session) syncStrategies() {
	if b, d := s.show.strategies(); b != s.list.listed[0] || d != s.list.listed[1] {
		s.syncList()
	}
}

// strategyList is the tview.List of strategies, keyboard and mouse and
// all, whose cells are kept from one draw to the next: tview redraws every
// primitive on every frame, and drawing a List costs hundreds of
// allocations (tcell's SetContent makes a string per cell) where replaying
// its cells with Put costs none. It draws afresh when anything it shows may
// have changed: its place, focus, selection or scroll offsets, or (through
// valid) its items and title. On the session's screen, where its last
// frame stays, it does not even replay them then.
type strategyList struct {
	*tview.List
	s      *session
	listed [2]pool.Strategy // the bullets' and debris' strategies it shows
	title  string
	valid  bool
	state  listState
	cells  []listCell
	shown  shown
}

type listState struct {
	x, y, w, h     int
	focus          bool
	current        int
	offset, hshift int
}

type listCell struct {
	s  string
	st tcell.Style
}

func (l *strategyList) Draw(scr tcell.Screen) {
	x, y, w, h := l.GetRect()
	if w <= 0 || h <= 0 { // squeezed out by the boxes above
		return
	}
	off, hshift := l.GetOffset()
	st := listState{x, y, w, h, l.HasFocus(), l.GetCurrentItem(), off, hshift}
	kept := keep(scr, &l.shown, rect{x, y, w, h})
	if l.valid && st == l.state {
		if kept {
			return
		}
		for j := range h {
			for i, c := range l.cells[j*w : (j+1)*w] {
				scr.Put(x+i, y+j, c.s, c.st)
			}
		}
		return
	}
	if l.valid && h != l.state.h {
		// A new height: scroll afresh, from the top to the selection, so
		// that a list grown back shows every item there is room for.
		l.SetOffset(0, hshift)
	}
	l.List.Draw(scr)
	st.offset, st.hshift = l.GetOffset() // Draw scrolls to the selection
	bst := borderStyle
	if st.focus {
		bst = focusStyle
	}
	drawBorder(scr, l.s.glyphs(), x, y, w, h, bst)
	putString(scr, x+1, y, w-2, l.title, titleStyle)
	l.cells = slices.Grow(l.cells[:0], w*h)[:w*h]
	for j := range h {
		for i := range w {
			c := &l.cells[j*w+i]
			c.s, c.st, _ = scr.Get(x+i, y+j)
		}
	}
	l.valid, l.state = true, st
}

// pick switches the targeted pool(s) to strategy i of pool.Strategies(),
// or shows why the show may not (an arena's creator switches its pools,
// a watcher none).
func (s *session) pick(i int) {
	all := pool.Strategies()
	if i < 0 || i >= len(all) {
		return
	}
	st := all[i]
	s.mu.Lock()
	t := s.target
	s.mu.Unlock()
	var b, d pool.Strategy
	if t != targetDebris {
		b = st
	}
	if t != targetBullets {
		d = st
	}
	if err := s.show.pick(b, d); err != nil {
		s.tell(err.Error())
	} else {
		s.mu.Lock()
		s.restart()
		s.mu.Unlock()
	}
	s.sample() // the panel names the new strategy at once
	s.syncList()
}

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

// frame draws a frame on the session's screen and shows it; the loop
// calls it at every tick of the frame clock, and at no other time: what
// the keys changed since the last frame shows now, however fast they came.
// It times the draw for the panel, and tells Options.Frame of the frame.
func (s *session) frame() {
	start := time.Now()
	s.screen.resize()
	s.draw(s.screen)
	s.stats.frames++
	s.stats.render += time.Since(start)
	s.screen.Show()
	if s.opts.Frame != nil {
		gap := start.Sub(s.stats.lastFrame)
		var cells uint64
		if st, ok := s.term.Stats(); ok {
			cells, s.stats.sent = st.Cells-s.stats.sent.Cells, st
		}
		s.opts.Frame(!s.stats.lastFrame.IsZero() && gap > 2*time.Second/time.Duration(s.opts.FPS), cells)
	}
	s.stats.lastFrame = start
}

// draw draws the session on scr: the widgets laid out for its size, or,
// while it is too small, a notice that holds the game. The strategy list
// shows the pools' strategies first, which an arena's creator, a watched
// player or a replay may have switched.
func (s *session) draw(scr tcell.Screen) {
	w, h := scr.Size()
	s.fit.small = w < minWidth || h < minHeight
	s.setHeld(s.fit.small || s.fit.help || s.questionHolds(s.now()))
	if s.fit.small {
		s.drawTooSmall(scr, w, h)
		return
	}
	s.syncStrategies()
	s.fitTo(w, h)
	s.root.SetRect(0, 0, w, h)
	s.root.Draw(scr)
}

// drawTooSmall asks for a larger terminal, centred on the screen. It
// formats its text on every frame: the game waits meanwhile.
func (s *session) drawTooSmall(scr tcell.Screen, w, h int) {
	times := s.glyphs().times
	lines := [3]string{
		fmt.Sprintf("poolroids needs at least %d%s%d", minWidth, times, minHeight),
		fmt.Sprintf("this terminal is %d%s%d", w, times, h),
		"resize it, or press q to quit",
	}
	y := max(h/2-1, 0)
	for i, l := range lines {
		putString(scr, max((w-utf8.RuneCountInString(l))/2, 0), y+i, w, l, titleStyle)
	}
}

// overText is a game-over screen's text, formatted once for each change
// of the Game's Over.
type overText struct {
	change  uint64
	lines   []string
	watcher bool // the screen is a watcher's, whose keys only leave
}

// of returns the text of o, formatting it if o changed since the last
// call.
func (t *overText) of(o play.Over, ascii bool) []string {
	if o.Change != t.change || t.lines == nil {
		t.change, t.lines = o.Change, overLines(o, ascii, t.watcher)
	}
	return t.lines
}

// overLines is the game-over screen: the score, whether it made the table
// (or why it was not saved), the table, and what to press: a watcher
// only leaves.
func overLines(o play.Over, ascii, watcher bool) []string {
	dot := utf8Glyphs.sep
	if ascii {
		dot = plainGlyphs.sep
	}
	e, top := o.Entry, o.Top
	lines := []string{"GAME OVER", "", fmt.Sprintf("score %d%swave %d", e.Score, dot, e.Wave)}
	switch {
	case o.Err != nil:
		lines = append(lines, o.Err.Error())
	case o.Rank == 1:
		lines = append(lines, "a new high score!")
	case o.Rank > 0:
		lines = append(lines, fmt.Sprintf("number %d in the high scores", o.Rank))
	}
	if len(top) > 0 {
		lines = append(lines, "", "HIGH SCORES")
		where := func(t scores.Entry) string {
			if t.Arena != "" {
				return "arena " + t.Arena
			}
			return t.Strategy
		}
		// Every row as wide as the widest, so that centred they line up.
		width := 0
		for _, t := range top {
			width = max(width, len(where(t))) // strategy and arena names are ASCII
		}
		for i, t := range top {
			name := []rune(t.Name)
			if len(name) > 12 {
				name = name[:12]
			}
			pad := strings.Repeat(" ", 12-len(name)) // %-12s pads bytes, not characters
			lines = append(lines, fmt.Sprintf("%2d %s%s %7d  wave %-3d %-*s", i+1, string(name), pad, t.Score, t.Wave, width, where(t)))
		}
	}
	if watcher {
		return append(lines, "", "q: leave")
	}
	return append(lines, "", "space: play again"+dot+"q: quit")
}
