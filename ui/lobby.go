package ui

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"poolroids/game/displayname"
	"poolroids/game/hub"
)

// LobbyArena is an open arena as the lobby lists it.
type LobbyArena struct {
	Name     string // one cell per rune, at most hub.MaxName (hub.ParseName)
	Players  int
	Max      int // players it takes
	Watchers int
	PvP      bool
}

// LobbyGame is a live game that may be watched.
type LobbyGame struct {
	Name     string // what "watch NAME" takes: the arena, or a solo game's player
	Arena    bool   // an arena, not a solo game
	Players  int
	Watchers int
}

// LobbyScore is an entry of the server's high scores.
type LobbyScore struct {
	Name   string // the player, one cell per rune, at most 16
	Score  int
	Wave   int
	Arena  string // the arena it was played in; "" for a solo game
	Replay string // the owner's key of the game's replay; "" for none, and the entry cannot be chosen
	Daily  bool   // a game of today's daily board, whose replay is proven before it plays
}

// LobbyPlace is the player's best on a board of high scores.
type LobbyPlace struct {
	Place int // 1-based; 0: the player has no game on the board
	Score int
}

// LobbyBoard is a board of the high scores of a shorter period than all
// time, shown after those of all time.
type LobbyBoard struct {
	Title  string       // "THIS WEEK", "TODAY"
	Scores []LobbyScore // best first
	You    LobbyPlace
}

// LobbyData is what the lobby shows, as its owner knows it at a refresh.
// The lobby reads it during [Lobby.Refresh] only and keeps no slice of it.
type LobbyData struct {
	Name   string // the player's name, as games here show it and save its scores
	Arenas []LobbyArena
	Games  []LobbyGame
	Scores []LobbyScore // of all time, best first
	You    LobbyPlace   // the player's best of all time; shown with Boards only
	Boards []LobbyBoard
	Notice string // the server's notice (Options.Notice), shown where no status is
	// Daily is the daily game's line under its item: whether the next
	// game counts; "": no daily game is offered.
	Daily string
}

// ChoiceKind is what a player chose in the lobby.
type ChoiceKind uint8

const (
	ChoiceQuit   ChoiceKind = iota // q, Esc or Ctrl-C: leave
	ChoiceSolo                     // play a game of one's own
	ChoiceJoin                     // join the arena Choice.Name
	ChoiceNew                      // open the arena Choice.Name, in the mode Choice.PvP
	ChoiceWatch                    // watch the live game Choice.Name
	ChoiceReplay                   // play the replay of Choice.Score
	ChoiceName                     // play as Choice.Name from now on, as typed (to be cleaned)
	ChoiceDaily                    // play the daily game
)

var choiceNames = [...]string{"quit", "solo", "join", "new", "watch", "replay", "name", "daily"}

func (k ChoiceKind) String() string {
	if int(k) < len(choiceNames) {
		return choiceNames[k]
	}
	return "ChoiceKind(" + strconv.Itoa(int(k)) + ")"
}

// Choice is a player's choice in the lobby. Its zero value is Quit.
type Choice struct {
	Kind  ChoiceKind
	Name  string     // Join and New: the arena; Watch: the game; Name: the player's
	PvP   bool       // New: ships' bullets hit other ships
	Score LobbyScore // Replay: the entry chosen
	// Player is the name the player plays as (LobbyOptions.Name, cleaned),
	// as the lobby hands the choice to [Fleet.Play]: a relay to another
	// server plays there under it. "": the session's own.
	Player string
}

// Lobby is the menu an SSH player meets: play solo, join an open arena,
// open a new one (a small dialog asks its name and mode), watch a live
// game, or play the replay of a high score; and choose the name to play
// under (a dialog asks it too). Arrows (or j/k) move, Tab and ←→ go
// between the columns, Enter or space chooses, n opens a new arena, r
// asks the player's name, q or Esc leaves; a mouse click chooses what it
// clicks. It fits 80×24
// (two columns from 72 cells wide, one below, scrolling when too short).
//
// It takes what it shows from the data function, at [NewLobby] and at
// each [Lobby.Refresh], and reports each choice to the choose function;
// the owner decides what follows (and may say with [Lobby.SetStatus] why
// a choice failed). All its methods, and the two functions, run on the
// goroutine that draws, like any tview primitive's. A refresh of
// unchanged data costs a comparison with the last and allocates nothing;
// text that changed costs one string a line.
type Lobby struct {
	*tview.Box
	data   func() LobbyData
	choose func(Choice)
	last   LobbyData // a copy of what data last returned, for Refresh to compare
	built  bool      // the lines are built of last

	cols   [2][]lobbyLine // left: solo, arenas, new, games; right: scores
	items  []lobbyItem    // what can be chosen, in the order arrows go
	sel    int            // index in items
	status string

	// As last drawn, for the mouse and scrolling.
	twoCols bool
	top     int    // screen row of the first line
	rows    int    // lines shown
	x, w    [2]int // each pane's column and width
	off     [2]int // each pane's first line shown

	form lobbyForm
}

// lobbyLine is one line of a column.
type lobbyLine struct {
	b      []byte
	text   textCache
	st     tcell.Style
	item   int  // index in items; -1 when it cannot be chosen
	indent bool // drawn two cells in, under the items' text
	must   int  // cells always shown; what follows only when 6 more fit
}

// lobbyItem is a line that can be chosen.
type lobbyItem struct {
	col, line int
	choice    Choice // Kind New opens the form
}

// Widths of the lobby's columns, in cells. A high score shows its
// player's name whole (hub.MaxName), as the game-over table does, and its
// arena too at 80 columns.
const (
	lobbyLeftWidth  = 36 // marker, name, players, watchers, mode
	lobbyRightWidth = 34 // marker, rank, name, score, wave; then the arena if 5 cells of it fit
	lobbyGap        = 2  // between the columns, 4 when there is room
	lobbyMarker     = 2  // "> " before the selected item
)

var (
	lobbySelStyle  = tcell.StyleDefault.Foreground(tcell.ColorBlack).Background(tcell.ColorYellow)
	lobbyItemStyle = valueStyle
	lobbyNoteStyle = labelStyle
	lobbyHelp      = []helpItem{{"arrows", "move"}, {"tab", "column"}, {"enter", "choose"}, {"n", "new arena"}, {"r", "your name"}}
)

// NewLobby returns a lobby showing data(), "Play solo" selected.
func NewLobby(data func() LobbyData, choose func(Choice)) *Lobby {
	l := &Lobby{Box: tview.NewBox(), data: data, choose: choose}
	l.SetBorder(true).SetTitle(" poolroids lobby ")
	l.form.box = tview.NewBox()
	l.form.box.SetBorder(true)
	l.Refresh()
	return l
}

// Refresh reads the data function again and shows what it returns, and
// reports whether that changed anything: data equal to the last shows as
// it did. The selection stays on the same arena, game or score when it is
// still listed, else on the line where it was. The owner calls it every
// second or so, on the goroutine that draws.
func (l *Lobby) Refresh() bool {
	d := l.data()
	if l.built && sameLobbyData(&d, &l.last) {
		return false
	}
	l.built = true
	l.last.copyOf(&d)
	var was Choice
	if l.sel < len(l.items) {
		was = l.items[l.sel].choice
	}
	l.cols[0], l.cols[1], l.items = l.cols[0][:0], l.cols[1][:0], l.items[:0]

	l.item(0, Choice{Kind: ChoiceSolo}).str("Play solo")
	l.add(0, lobbyNoteStyle, true).str("as ").str(d.Name).str(" (r: another name)")
	if d.Daily != "" {
		l.item(0, Choice{Kind: ChoiceDaily}).str("Daily game")
		l.add(0, lobbyNoteStyle, true).str(d.Daily)
	}
	l.add(0, tcell.StyleDefault, false)
	l.header(0, "ARENAS", 16).str(" players").right("watch", 5).str(" mode")
	for _, a := range d.Arenas {
		var tmp [48]byte
		who := strconv.AppendInt(tmp[:0], int64(a.Players), 10)
		who = strconv.AppendInt(append(who, '/'), int64(a.Max), 10)
		ln := l.item(0, Choice{Kind: ChoiceJoin, Name: a.Name}).cell(a.Name, 16)
		ln.b = appendRight(append(ln.b, ' '), who, 5)
		ln.num(a.Watchers, 5).str(" ").str(modeName(a.PvP))
	}
	if len(d.Arenas) == 0 {
		l.add(0, lobbyNoteStyle, true).str("no arena open yet")
	}
	l.item(0, Choice{Kind: ChoiceNew}).str("New arena...")
	l.add(0, tcell.StyleDefault, false)
	l.header(0, "WATCH", 16).str(" players").right("watch", 5).str(" game")
	for _, g := range d.Games {
		kind := "solo"
		if g.Arena {
			kind = "arena"
		}
		l.item(0, Choice{Kind: ChoiceWatch, Name: g.Name}).cell(g.Name, 16).num(g.Players, 5).num(g.Watchers, 5).str(" ").str(kind)
	}
	if len(d.Games) == 0 {
		l.add(0, lobbyNoteStyle, true).str("no live game")
	}

	h := l.header(1, "HIGH SCORES", 21).right("score", 5).right("wave", 4)
	h.must = cells(h.b)
	h.str(" arena")
	l.scores(d.Scores)
	if len(d.Boards) > 0 {
		l.you(d.You)
	}
	for _, b := range d.Boards {
		l.add(1, tcell.StyleDefault, false)
		l.header(1, b.Title, 21)
		l.scores(b.Scores)
		l.you(b.You)
	}
	for c := range l.cols {
		for i := range l.cols[c] {
			ln := &l.cols[c][i]
			ln.text.of(ln.b)
			if ln.must == 0 {
				ln.must = cells(ln.b)
			}
		}
	}

	l.sel = min(l.sel, len(l.items)-1)
	for i, it := range l.items {
		if it.choice == was {
			l.sel = i
			break
		}
	}
	return true
}

// sameLobbyData reports whether a and b list the same.
func sameLobbyData(a, b *LobbyData) bool {
	return a.Name == b.Name && slices.Equal(a.Arenas, b.Arenas) && slices.Equal(a.Games, b.Games) &&
		slices.Equal(a.Scores, b.Scores) && a.You == b.You && a.Notice == b.Notice && a.Daily == b.Daily &&
		slices.EqualFunc(a.Boards, b.Boards, func(a, b LobbyBoard) bool {
			return a.Title == b.Title && a.You == b.You && slices.Equal(a.Scores, b.Scores)
		})
}

// copyOf makes d a copy of src that shares no slice with it, reusing d's.
func (d *LobbyData) copyOf(src *LobbyData) {
	d.Name = src.Name
	d.Arenas = append(d.Arenas[:0], src.Arenas...)
	d.Games = append(d.Games[:0], src.Games...)
	d.Scores = append(d.Scores[:0], src.Scores...)
	d.You, d.Notice, d.Daily = src.You, src.Notice, src.Daily
	d.Boards = slices.Grow(d.Boards[:0], len(src.Boards))[:len(src.Boards)]
	for i, b := range src.Boards {
		d.Boards[i] = LobbyBoard{Title: b.Title, Scores: append(d.Boards[i].Scores[:0], b.Scores...), You: b.You}
	}
}

// scores appends a board's entries to the right column; those with a
// replay can be chosen.
func (l *Lobby) scores(list []LobbyScore) {
	for i, s := range list {
		var ln *lobbyLine
		if s.Replay != "" {
			ln = l.item(1, Choice{Kind: ChoiceReplay, Score: s})
		} else {
			ln = l.add(1, lobbyNoteStyle, true)
		}
		ln.b = appendIntRight(ln.b, int64(i+1), 2)
		ln.str(" ").cell(s.Name, hub.MaxName).num(s.Score, 5).num(s.Wave, 4)
		ln.must = cells(ln.b)
		if s.Arena != "" {
			ln.str(" ").str(s.Arena)
		}
	}
	if len(list) == 0 {
		l.add(1, lobbyNoteStyle, true).str("no score yet")
	}
}

// you appends the player's place on a board, its score under the
// entries' scores.
func (l *Lobby) you(p LobbyPlace) {
	ln := l.add(1, lobbyNoteStyle, true).str("   you")
	if p.Place == 0 {
		ln.str(": no game yet")
		return
	}
	ln.b = strconv.AppendInt(append(ln.b, " #"...), int64(p.Place), 10)
	for len(ln.b) < 2+1+hub.MaxName { // an entry's place, space and name
		ln.b = append(ln.b, ' ')
	}
	ln.num(p.Score, 5)
}

// Select moves the selection to c's line when it is listed, so that the
// lobby comes back on the choice that failed or ended: an arena, a game, a
// score, or New arena whatever name the form was given.
func (l *Lobby) Select(c Choice) {
	for i, it := range l.items {
		if it.choice == c || (c.Kind == ChoiceNew && it.choice.Kind == ChoiceNew) {
			l.sel = i
			return
		}
	}
}

func modeName(pvp bool) string {
	if pvp {
		return "pvp"
	}
	return "co-op"
}

// add appends a line to column c, reusing the buffers of a line that was
// there before.
func (l *Lobby) add(c int, st tcell.Style, indent bool) *lobbyLine {
	col := &l.cols[c]
	if len(*col) < cap(*col) {
		*col = (*col)[:len(*col)+1]
	} else {
		*col = append(*col, lobbyLine{})
	}
	ln := &(*col)[len(*col)-1]
	ln.b, ln.st, ln.item, ln.indent, ln.must = ln.b[:0], st, -1, indent, 0
	return ln
}

// item appends a line that can be chosen.
func (l *Lobby) item(c int, ch Choice) *lobbyLine {
	ln := l.add(c, lobbyItemStyle, true)
	ln.item = len(l.items)
	l.items = append(l.items, lobbyItem{col: c, line: len(l.cols[c]) - 1, choice: ch})
	return ln
}

// header appends a section's title, padded to width cells.
func (l *Lobby) header(c int, title string, width int) *lobbyLine {
	return l.add(c, headStyle, false).cell(title, width)
}

func (ln *lobbyLine) str(s string) *lobbyLine { ln.b = append(ln.b, s...); return ln }

// cell appends s cut or padded to width cells.
func (ln *lobbyLine) cell(s string, width int) *lobbyLine {
	ln.b = appendCell(ln.b, s, width)
	return ln
}

// right appends a space and s right-aligned in width cells.
func (ln *lobbyLine) right(s string, width int) *lobbyLine {
	ln.b = append(ln.b, ' ')
	for n := utf8.RuneCountInString(s); n < width; n++ {
		ln.b = append(ln.b, ' ')
	}
	ln.b = append(ln.b, s...)
	return ln
}

// num appends a space and v right-aligned in width cells.
func (ln *lobbyLine) num(v, width int) *lobbyLine {
	ln.b = appendIntRight(append(ln.b, ' '), int64(v), width)
	return ln
}

// SetStatus shows msg (one line, e.g. why the last choice failed) above
// the key help until the next key; "" clears it.
func (l *Lobby) SetStatus(msg string) { l.status = msg }

// Draw draws the lobby and, when open, the new-arena form over it.
func (l *Lobby) Draw(scr tcell.Screen) {
	l.DrawForSubclass(scr, l)
	x, y, w, h := l.GetInnerRect()
	x, w = x+1, w-2 // a blank column inside each border
	if w <= 0 || h <= 0 {
		return
	}
	// The last line is the key help, the one above it the status.
	help := y + h - 1
	l.drawHelp(scr, x, help, w)
	if h >= 2 {
		msg := l.status
		if msg == "" {
			msg = l.last.Notice
		}
		putString(scr, x, help-1, w, msg, alertStyle)
	}
	l.top, l.rows = y, max(h-2, 0)
	l.twoCols = w >= lobbyLeftWidth+lobbyGap+lobbyRightWidth
	if l.twoCols {
		gap := min(w-lobbyLeftWidth-lobbyRightWidth-8, 2*lobbyGap)
		gap = max(gap, lobbyGap)
		right := x + lobbyLeftWidth + gap
		l.x, l.w = [2]int{x, right}, [2]int{lobbyLeftWidth, x + w - right}
	} else {
		l.x, l.w = [2]int{x, x}, [2]int{w, 0}
	}
	for p := range l.panes() {
		l.scroll(p)
		for r := range l.rows {
			if ln := l.paneLine(p, l.off[p]+r); ln != nil {
				l.drawLine(scr, ln, l.x[p], y+r, l.w[p])
			}
		}
	}
	if l.form.open {
		l.form.draw(scr, l)
	}
}

// panes is how many panes show: the two columns side by side, or one
// pane holding the left column, a blank line and the right column.
func (l *Lobby) panes() int {
	if l.twoCols {
		return 2
	}
	return 1
}

func (l *Lobby) paneLen(p int) int {
	if l.twoCols {
		return len(l.cols[p])
	}
	return len(l.cols[0]) + 1 + len(l.cols[1])
}

// paneLine is line i of pane p; nil for a blank.
func (l *Lobby) paneLine(p, i int) *lobbyLine {
	c := p
	if !l.twoCols && i >= len(l.cols[0]) {
		c, i = 1, i-len(l.cols[0])-1
	}
	if i < 0 || i >= len(l.cols[c]) {
		return nil
	}
	return &l.cols[c][i]
}

// itemPos is where item i shows: its pane and its line in the pane.
func (l *Lobby) itemPos(i int) (pane, line int) {
	it := l.items[i]
	if l.twoCols {
		return it.col, it.line
	}
	if it.col == 1 {
		return 0, len(l.cols[0]) + 1 + it.line
	}
	return 0, it.line
}

// scroll sets pane p's first line so that the selection shows in it, with
// the line above it (a section's title) when scrolling up to it.
func (l *Lobby) scroll(p int) {
	if l.sel < len(l.items) {
		if sp, line := l.itemPos(l.sel); sp == p {
			if line-1 < l.off[p] {
				l.off[p] = max(line-1, 0)
			}
			if line >= l.off[p]+l.rows {
				l.off[p] = line - l.rows + 1
			}
		}
	}
	l.off[p] = max(min(l.off[p], l.paneLen(p)-l.rows), 0)
}

func (l *Lobby) drawLine(scr tcell.Screen, ln *lobbyLine, x, y, w int) {
	st, sel := ln.st, ln.item >= 0 && ln.item == l.sel
	if sel {
		st = lobbySelStyle
		for i := range w {
			scr.Put(x+i, y, " ", st)
		}
		putString(scr, x, y, w, ">", st)
	}
	if ln.indent {
		x, w = x+lobbyMarker, w-lobbyMarker
	}
	n := len(ln.text.s)
	if w < ln.must+6 {
		n = len(ln.text.s[:byteOfCell(ln.text.s, ln.must)])
	}
	putString(scr, x, y, w, ln.text.s[:n], st)
}

// byteOfCell is the byte offset of cell n of s (one cell per rune).
func byteOfCell(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

// drawHelp draws the key help: "q quit" at the right end, the others from
// the left as far as they fit.
func (l *Lobby) drawHelp(scr tcell.Screen, x, y, w int) {
	end := x + w - helpQuit.width()
	if end < x {
		return
	}
	helpQuit.draw(scr, end, y)
	for _, it := range lobbyHelp {
		if x+it.width() > end-2 {
			break
		}
		it.draw(scr, x, y)
		x += it.width() + 2
	}
}

// InputHandler reads the lobby's keys, or the form's while it is open.
func (l *Lobby) InputHandler() func(*tcell.EventKey, func(tview.Primitive)) {
	return l.WrapInputHandler(func(ev *tcell.EventKey, _ func(tview.Primitive)) {
		l.status = ""
		if ev.Key() == tcell.KeyCtrlC {
			l.choose(Choice{Kind: ChoiceQuit})
			return
		}
		if l.form.open {
			l.form.key(ev, l)
			return
		}
		switch ev.Key() {
		case tcell.KeyUp:
			l.move(-1)
		case tcell.KeyDown:
			l.move(1)
		case tcell.KeyHome:
			l.sel = 0
		case tcell.KeyEnd:
			l.sel = len(l.items) - 1
		case tcell.KeyPgUp:
			l.move(-max(l.rows-1, 1))
		case tcell.KeyPgDn:
			l.move(max(l.rows-1, 1))
		case tcell.KeyTab, tcell.KeyBacktab, tcell.KeyLeft, tcell.KeyRight:
			l.otherColumn()
		case tcell.KeyEnter:
			l.pick(l.sel)
		case tcell.KeyEscape:
			l.choose(Choice{Kind: ChoiceQuit})
		case tcell.KeyRune:
			switch ev.Rune() {
			case 'k':
				l.move(-1)
			case 'j':
				l.move(1)
			case ' ':
				l.pick(l.sel)
			case 'n', 'N':
				l.form.start(false, "")
			case 'r', 'R':
				l.form.start(true, l.last.Name)
			case 'q', 'Q':
				l.choose(Choice{Kind: ChoiceQuit})
			}
		}
	})
}

// move moves the selection by d items, stopping at either end.
func (l *Lobby) move(d int) { l.sel = max(min(l.sel+d, len(l.items)-1), 0) }

// otherColumn selects the item of the other column nearest to the
// selection's line: the way from the games to the high scores and back.
func (l *Lobby) otherColumn() {
	cur := l.items[l.sel]
	best, dist := -1, 0
	for i, it := range l.items {
		if it.col == cur.col {
			continue
		}
		if d := abs(it.line - cur.line); best < 0 || d < dist {
			best, dist = i, d
		}
	}
	if best >= 0 {
		l.sel = best
	}
}

// pick chooses item i: the form for a new arena, else the owner's choice.
func (l *Lobby) pick(i int) {
	if i < 0 || i >= len(l.items) {
		return
	}
	l.sel = i
	if ch := l.items[i].choice; ch.Kind == ChoiceNew {
		l.form.start(false, "")
	} else {
		l.choose(ch)
	}
}

// MouseHandler chooses the item clicked (or the form's field) and scrolls
// the selection with the wheel.
func (l *Lobby) MouseHandler() func(tview.MouseAction, *tcell.EventMouse, func(tview.Primitive)) (bool, tview.Primitive) {
	return l.WrapMouseHandler(func(action tview.MouseAction, ev *tcell.EventMouse, setFocus func(tview.Primitive)) (bool, tview.Primitive) {
		mx, my := ev.Position()
		if !l.InRect(mx, my) {
			return false, nil
		}
		switch action {
		case tview.MouseLeftDown:
			setFocus(l)
		case tview.MouseLeftClick:
			l.status = ""
			if l.form.open {
				l.form.click(mx, my, l)
			} else if i := l.itemAt(mx, my); i >= 0 {
				l.pick(i)
			}
		case tview.MouseScrollUp:
			if !l.form.open {
				l.move(-1)
			}
		case tview.MouseScrollDown:
			if !l.form.open {
				l.move(1)
			}
		default:
			return false, nil
		}
		return true, nil
	})
}

// itemAt is the item drawn at (x, y), or -1.
func (l *Lobby) itemAt(x, y int) int {
	r := y - l.top
	if r < 0 || r >= l.rows {
		return -1
	}
	for p := range l.panes() {
		if x >= l.x[p] && x < l.x[p]+l.w[p] {
			if ln := l.paneLine(p, l.off[p]+r); ln != nil {
				return ln.item
			}
		}
	}
	return -1
}

// PasteHandler types pasted text into the form's name.
func (l *Lobby) PasteHandler() func(string, func(tview.Primitive)) {
	return l.WrapPasteHandler(func(text string, _ func(tview.Primitive)) {
		if l.form.open && l.form.field == formName {
			for _, r := range text {
				l.form.typeRune(r)
			}
		}
	})
}

// The form's fields, in Tab order (the player's name has no mode).
const (
	formName = iota
	formMode
	formCreate
	formCancel
	numFormFields
)

// lobbyForm asks a new arena's name and mode, or the player's name. An
// arena's name follows hub.ParseName's rule as it is typed: 1 to 16 of
// a-z 0-9 - _ (letters lowercased), the first a letter or digit. A
// player's follows the one name rule (package displayname): up to 16
// characters that each show as one cell, cleaned once more as it is
// chosen; a character the rule refuses, or one past the 16th, says why
// under the name. Other keys are ignored.
type lobbyForm struct {
	box    *tview.Box
	open   bool
	player bool // the player's name, not a new arena
	name   []rune
	picked bool // the name shown at start is selected: a key typed replaces it
	pvp    bool
	field  int
	err    string
	x, y   int // inner top left, as last drawn
}

const (
	formWidth  = 40
	formHeight = 9
	formHint   = "a-z 0-9 - _, up to 16"
	playerHint = "as others see it, up to 16"
	// Why a key typed into a player's name did nothing.
	fullName = "16 characters at most"
	oneCell  = "no emoji: one-cell characters only"
)

// start opens the form: for the player's name, which shows name, or for a
// new arena.
func (f *lobbyForm) start(player bool, name string) {
	f.open, f.player, f.name, f.pvp, f.field, f.err = true, player, append(f.name[:0], []rune(name)...), false, formName, ""
	f.picked = len(f.name) > 0 // as a text field selects what it opens with
	title := " New arena "
	if player {
		title = " Your name "
	}
	f.box.SetTitle(title)
}

// typeRune adds r to the name if the rule allows it there.
func (f *lobbyForm) typeRune(r rune) {
	if f.player {
		switch {
		case len(f.name) >= hub.MaxName:
			f.err = fullName
		case r == ' ' && len(f.name) == 0:
		case r == ' ' || displayname.Allowed(r):
			f.name, f.err = append(f.name, r), ""
		default: // an emoji, a wide or a control character
			f.err = oneCell
		}
		return
	}
	if name := hub.AppendNameRune([]byte(string(f.name)), r); len(name) > len(string(f.name)) {
		f.name, f.err = []rune(string(name)), ""
	}
}

func (f *lobbyForm) submit(l *Lobby) {
	if strings.TrimSpace(string(f.name)) == "" {
		f.err, f.field = "type a name first", formName
		return
	}
	f.open = false
	if f.player {
		l.choose(Choice{Kind: ChoiceName, Name: string(f.name)})
		return
	}
	l.choose(Choice{Kind: ChoiceNew, Name: string(f.name), PvP: f.pvp})
}

// next is the field after (d 1) or before (d -1) the current one: the
// player's name has no mode.
func (f *lobbyForm) next(d int) int {
	i := (f.field + d + numFormFields) % numFormFields
	if f.player && i == formMode {
		i = (i + d + numFormFields) % numFormFields
	}
	return i
}

func (f *lobbyForm) key(ev *tcell.EventKey, l *Lobby) {
	picked := f.picked
	f.picked = false // any key unselects the name, or replaces it
	switch ev.Key() {
	case tcell.KeyEscape:
		f.open = false
	case tcell.KeyTab, tcell.KeyDown:
		f.field = f.next(1)
	case tcell.KeyBacktab, tcell.KeyUp:
		f.field = f.next(-1)
	case tcell.KeyEnter:
		if f.field == formCancel {
			f.open = false
		} else {
			f.submit(l)
		}
	case tcell.KeyLeft, tcell.KeyRight:
		switch f.field {
		case formMode:
			f.pvp = !f.pvp
		case formCreate, formCancel:
			f.field = formCreate + formCancel - f.field
		}
	case tcell.KeyBackspace, tcell.KeyBackspace2:
		if f.field == formName && picked {
			f.name = f.name[:0]
		} else if f.field == formName && len(f.name) > 0 {
			f.name = f.name[:len(f.name)-1]
		}
	case tcell.KeyCtrlU:
		if f.field == formName {
			f.name = f.name[:0]
		}
	case tcell.KeyRune:
		switch r := ev.Rune(); {
		case f.field == formName:
			if picked {
				f.name = f.name[:0]
			}
			f.typeRune(r)
		case f.field == formMode && r == ' ':
			f.pvp = !f.pvp
		case f.field == formCreate && r == ' ':
			f.submit(l)
		case f.field == formCancel && r == ' ':
			f.open = false
		}
	}
}

// Where the form's parts are, from its inner top left.
const (
	formNameRow, formModeRow, formButtonRow, formHintRow = 1, 2, 4, 5
	formFieldCol                                         = 8 // name field, first mode option
	formPvPCol                                           = 19
	formCreateCol, formCancelCol, formButtonWidth        = 8, 20, 10
)

func (f *lobbyForm) click(x, y int, l *Lobby) {
	x, y = x-f.x, y-f.y
	if x < 0 || x >= formWidth-3 {
		return
	}
	switch {
	case y == formNameRow:
		f.field = formName
	case y == formModeRow && x >= formFieldCol && !f.player:
		f.field, f.pvp = formMode, x >= formPvPCol
	case y == formButtonRow && x >= formCreateCol && x < formCreateCol+formButtonWidth:
		f.field = formCreate
		f.submit(l)
	case y == formButtonRow && x >= formCancelCol && x < formCancelCol+formButtonWidth:
		f.open = false
	}
}

// draw draws the form over the middle of the lobby. It formats its text
// on every draw: it shows only while a player types.
func (f *lobbyForm) draw(scr tcell.Screen, l *Lobby) {
	x, y, w, h := l.GetRect()
	fw, fh := min(formWidth, w), min(formHeight, h)
	f.box.SetRect(x+(w-fw)/2, y+(h-fh)/2, fw, fh)
	f.box.Draw(scr)
	ix, iy, iw, _ := f.box.GetInnerRect()
	ix, iw = ix+1, iw-1
	f.x, f.y = ix, iy
	label := func(row, field int, s string) {
		st := lobbyNoteStyle
		if f.field == field {
			st = keyStyle
			putString(scr, ix, iy+row, iw, ">", st)
		}
		putString(scr, ix+2, iy+row, iw-2, s, st)
	}
	label(formNameRow, formName, "name")
	name, nameStyle := string(f.name), valueStyle
	if f.picked {
		nameStyle = lobbySelStyle
	}
	putString(scr, ix+formFieldCol, iy+formNameRow, iw-formFieldCol, name, nameStyle)
	for i := len(f.name); i < 16; i++ {
		st := lobbyNoteStyle
		if i == len(f.name) && f.field == formName {
			st = lobbySelStyle // the cursor
		}
		putString(scr, ix+formFieldCol+i, iy+formNameRow, iw-formFieldCol-i, "_", st)
	}

	if !f.player {
		label(formModeRow, formMode, "mode")
		coop, pvp := "(*) co-op", "( ) pvp"
		if f.pvp {
			coop, pvp = "( ) co-op", "(*) pvp"
		}
		putString(scr, ix+formFieldCol, iy+formModeRow, iw-formFieldCol, coop, valueStyle)
		putString(scr, ix+formPvPCol, iy+formModeRow, iw-formPvPCol, pvp, valueStyle)
	}

	button := func(col, field int, s string) {
		st := valueStyle
		if f.field == field {
			st = lobbySelStyle
		}
		putString(scr, ix+col, iy+formButtonRow, iw-col, s, st)
	}
	ok, hint, st := "[ create ]", formHint, lobbyNoteStyle
	if f.player {
		ok, hint = "[   ok   ]", playerHint // it names the player; the lobby stays
	}
	button(formCreateCol, formCreate, ok)
	button(formCancelCol, formCancel, "[ cancel ]")

	if f.err != "" {
		hint, st = f.err, alertStyle
	}
	putString(scr, ix+2, iy+formHintRow, iw-2, hint, st)
}
