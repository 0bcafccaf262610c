package ui

import (
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"poolroids/pool"
	"poolroids/ui/scores"
)

// build lays the screen out: the arena on the left; on the right the stats
// box over the strategy list; one line of key help at the bottom.
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
	s.list.SetBorder(true).SetTitleAlign(tview.AlignLeft)
	side := tview.NewFlex().SetDirection(tview.FlexRow).
		AddItem(s.panel, panelHeight, 0, false)
	if s.seat != nil {
		side.AddItem(newPlayers(s, s.world.Ships()), playersHeight(s.world.Ships()), 0, false)
	}
	side.AddItem(s.list, 0, 1, false)
	body := tview.NewFlex().
		AddItem(s.arena, 0, 1, true).
		AddItem(side, panelWidth, 0, false)
	s.root = tview.NewFlex().SetDirection(tview.FlexRow).
		AddItem(body, 0, 1, true).
		AddItem(&helpLine{Box: tview.NewBox(), s: s}, 1, 0, false)
	s.syncList()
}

// strategyKeys are the keys that pick pool.Strategies()[i].
const strategyKeys = "1234567890"

// syncList shows on the list which pool uses which strategy, selects the
// targeted pool's, and names the target in the title. It runs on tview's
// goroutine (or before Run starts it).
func (s *session) syncList() {
	s.mu.Lock()
	t := s.target
	s.mu.Unlock()
	b, d := s.strategies()
	s.listed = [2]pool.Strategy{b, d}
	mark, arrow := "◂", "→"
	if s.ascii {
		mark, arrow = "<", "->"
	}
	cur := b
	if t == targetDebris {
		cur = d
	}
	for i, st := range pool.Strategies() {
		var used string
		switch {
		case st == b && st == d:
			used = mark + " both"
		case st == b:
			used = mark + " bullets"
		case st == d:
			used = mark + " debris"
		}
		s.list.SetItemText(i, fmt.Sprintf("%c %-10s %s", strategyKeys[i], st, used), "")
		if st == cur {
			s.list.SetCurrentItem(i)
		}
	}
	s.list.SetTitle(fmt.Sprintf(" strategy %s %s (b) ", arrow, targetNames[t]))
	s.list.valid = false
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
	s     *session
	valid bool
	state listState
	cells []listCell
	shown shown
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
	kept := l.s.keep(scr, &l.shown, rect{x, y, w, h})
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
	l.List.Draw(scr)
	st.offset, st.hshift = l.GetOffset() // Draw scrolls to the selection
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
// between two steps: it holds the lock the stepping goroutine steps under.
func (s *session) pick(i int) {
	all := pool.Strategies()
	if i < 0 || i >= len(all) {
		return
	}
	st := all[i]
	s.mu.Lock()
	var err error
	switch {
	case s.seat != nil:
		err = s.arenaPick(st)
	case s.target == targetBoth:
		err = s.match.SetStrategies(st, st)
		s.view.pools[bulletsPool].restart()
		s.view.pools[debrisPool].restart()
	case s.target == targetBullets:
		err = s.match.SetStrategies(st, "")
		s.view.pools[bulletsPool].restart()
	case s.target == targetDebris:
		err = s.match.SetStrategies("", st)
		s.view.pools[debrisPool].restart()
	}
	s.sample(time.Since(s.clock)) // the panel names the new strategy at once
	s.mu.Unlock()
	if err != nil {
		s.end(ReasonError, fmt.Errorf("ui: switching to %s: %w", st, err))
		return
	}
	s.syncList()
}

// helpLine is the bottom line of key help. "q quit" always shows, at the
// right end; the other keys show from the left as far as they fit.
type helpLine struct {
	*tview.Box
	s     *session
	shown shown
	ascii bool // as last drawn
}

type helpItem struct{ key, what string }

var (
	helpItems = []helpItem{
		{"←→↑/wasd", "move"}, {"space", "fire"}, {"h", "hyperspace"}, {"p", "pause"},
		{"1-0", "strategy"}, {"b", "pool"}, {"x", "stress"}, {"tab", "panel"},
	}
	helpASCII = []helpItem{
		{"arrows/wasd", "move"}, {"space", "fire"}, {"h", "hyperspace"}, {"p", "pause"},
		{"1-0", "strategy"}, {"b", "pool"}, {"x", "stress"}, {"tab", "panel"},
	}
	helpQuit  = helpItem{"q", "quit"}
	keyStyle  = tcell.StyleDefault.Foreground(tcell.ColorYellow).Bold(true)
	helpStyle = tcell.StyleDefault.Foreground(tcell.ColorSilver)
)

func (it helpItem) width() int {
	return utf8.RuneCountInString(it.key) + 1 + utf8.RuneCountInString(it.what)
}

func (it helpItem) draw(scr tcell.Screen, x, y int) {
	x += putString(scr, x, y, it.width(), it.key, keyStyle)
	putString(scr, x+1, y, it.width(), it.what, helpStyle)
}

func (h *helpLine) Draw(scr tcell.Screen) {
	defer h.s.guard()
	x, y, w, ht := h.GetRect()
	if h.s.keep(scr, &h.shown, rect{x, y, w, ht}) && h.ascii == h.s.ascii {
		return // it never changes: its last frame stays
	}
	h.ascii = h.s.ascii
	for i := range w {
		scr.Put(x+i, y, blank, tcell.StyleDefault)
	}
	items := helpItems
	if h.s.ascii {
		items = helpASCII
	}
	end := x + w - helpQuit.width() - 1
	if end < x {
		return
	}
	helpQuit.draw(scr, end, y)
	x++
	for _, it := range items {
		if x+it.width() > end-2 {
			break
		}
		it.draw(scr, x, y)
		x += it.width() + 2
	}
}

// onKey sees every key before tview. The frame request draws; keys the
// focused strategy list navigates with go to it; all others play.
func (s *session) onKey(ev *tcell.EventKey) *tcell.EventKey {
	defer s.guard()
	if ev == s.frameKey {
		s.frameDue = true
		if s.seat != nil {
			s.syncArenaList()
		}
		return nil // tview draws after a consumed key
	}
	if s.list.HasFocus() {
		switch ev.Key() {
		case tcell.KeyUp, tcell.KeyDown, tcell.KeyEnter, tcell.KeyHome, tcell.KeyEnd, tcell.KeyPgUp, tcell.KeyPgDn:
			return ev
		}
	}
	now := time.Since(s.clock)
	switch ev.Key() {
	case tcell.KeyCtrlC:
		s.end(ReasonQuit, nil)
	case tcell.KeyTab, tcell.KeyBacktab:
		if s.list.HasFocus() {
			s.app.SetFocus(s.arena)
		} else {
			s.app.SetFocus(s.list)
		}
	case tcell.KeyLeft:
		s.press(ctlLeft, now)
	case tcell.KeyRight:
		s.press(ctlRight, now)
	case tcell.KeyUp:
		s.press(ctlThrust, now)
	case tcell.KeyEnter:
		s.startGame()
	case tcell.KeyRune:
		s.onRune(ev.Rune(), now)
	}
	return nil
}

func (s *session) onRune(r rune, now time.Duration) {
	switch r {
	case 'q', 'Q':
		s.end(ReasonQuit, nil)
	case 'a', 'A':
		s.press(ctlLeft, now)
	case 'd', 'D':
		s.press(ctlRight, now)
	case 'w', 'W':
		s.press(ctlThrust, now)
	case ' ':
		s.mu.Lock()
		playing := s.match.Phase() == modePlay
		s.mu.Unlock()
		if playing {
			s.press(ctlFire, now)
		} else {
			s.startGame()
		}
	case 'h', 'H':
		s.mu.Lock()
		s.hyper = s.playing()
		s.mu.Unlock()
	case 'p', 'P':
		s.mu.Lock()
		switch {
		case s.seat != nil:
			s.tell("an arena plays on: no pause")
		case s.match.TogglePause():
			s.hold.releaseAll()
		}
		s.mu.Unlock()
	case 'x', 'X':
		s.mu.Lock()
		err := s.match.ToggleStress()
		if s.seat == nil {
			s.newGame()
		}
		s.mu.Unlock()
		if err != nil {
			s.end(ReasonError, fmt.Errorf("ui: stress: %w", err))
		}
	case 'b', 'B':
		s.mu.Lock()
		s.target = (s.target + 1) % numTargets
		s.mu.Unlock()
		s.syncList()
	default:
		for i, k := range strategyKeys {
			if r == k {
				s.pick(i)
			}
		}
	}
}

// press feeds a key event of a held control to the press-only hold logic.
// With the kitty protocol active the real held state is read instead.
func (s *session) press(c control, now time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.playing() && !s.opts.Keys.Active() {
		s.hold.press(c, now)
	}
}

// startGame leaves the title or game-over screen for a new game.
func (s *session) startGame() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.match.Start() {
		s.newGame()
	}
}

// beforeDraw starts the goroutines on the first draw, times each frame,
// and shows a notice instead of the game while the terminal is too small.
//
// tview draws after every key, mouse and resize event too; only the
// frames frameLoop asks for are drawn, so the frame rate stays what was
// asked for however fast the input comes: a client pasting keys cannot
// make the server draw for each one. What the input changed shows at the
// next frame.
func (s *session) beforeDraw(scr tcell.Screen) bool {
	defer s.guard()
	s.startOnce.Do(s.startLoops)
	if !s.frameDue {
		s.screen.skipShow = true
		return true
	}
	s.frameDue = false
	s.drawStart = time.Now()
	w, h := scr.Size()
	if w >= minWidth && h >= minHeight {
		return false
	}
	s.drawTooSmall(scr, w, h)
	return true
}

func (s *session) afterDraw(tcell.Screen) {
	s.frames++
	s.render += time.Since(s.drawStart)
}

// drawTooSmall asks for a larger terminal, centred on the screen. It
// formats its text on every frame: the game is not running meanwhile.
func (s *session) drawTooSmall(scr tcell.Screen, w, h int) {
	times := "×"
	if s.ascii {
		times = "x"
	}
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

// overLines is the game-over screen: the score, whether it made the table
// (or why it was not saved), the table, and what to press.
func overLines(e scores.Entry, rank int, err error, top []scores.Entry, ascii bool) []string {
	dot := " · "
	if ascii {
		dot = " - "
	}
	lines := []string{"GAME OVER", "", fmt.Sprintf("score %d%swave %d", e.Score, dot, e.Wave)}
	switch {
	case err != nil:
		lines = append(lines, err.Error())
	case rank == 1:
		lines = append(lines, "a new high score!")
	case rank > 0:
		lines = append(lines, fmt.Sprintf("number %d in the high scores", rank))
	}
	if len(top) > 0 {
		lines = append(lines, "", "HIGH SCORES")
		for i, t := range top {
			name := []rune(t.Name)
			if len(name) > 12 {
				name = name[:12]
			}
			where := t.Strategy
			if t.Arena != "" {
				where = "arena " + t.Arena
			}
			lines = append(lines, fmt.Sprintf("%2d %-12s %7d  wave %-3d %-10s", i+1, string(name), t.Score, t.Wave, where))
		}
	}
	return append(lines, "", "space: play again"+dot+"q: quit")
}
