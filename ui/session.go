package ui

import (
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"poolroids/game"
	"poolroids/game/input"
	"poolroids/game/match"
	"poolroids/game/play"
	"poolroids/pool"
	"poolroids/ui/vt"
)

// session is one Run, Watch or RunReplay: the widgets, the frame loop and
// the show they show. Its [loop] runs on the caller's goroutine and does
// all the drawing and key handling; the show's goroutine steps or follows
// its game, which has a lock of its own. A frame reads the game once,
// through its scene's View (see take), and hands the widgets what they
// draw. The lock order is the game's (its scene's), then an arena's,
// then the session's: the session's lock is never held while a scene's
// is taken.
type session struct {
	opts  Options
	files []string // the daily games' replays written, once the show is closed (Result.Files)
	show  show     // what the session shows, chosen once (see show)
	scene scene    // the show's game as a frame reads it, set with the show
	// s.take, s.sampleView and s.addSample as func values, made once:
	// passing them allocates nothing.
	takeFn  func(play.View)
	sample1 func(play.View)
	feed    func(game.PoolSample)

	// What differs between the shows' frames, set with the show: whose
	// game it is and the player's name for the header, the game-over
	// screen (a watcher's only leaves), a replay's end (nil: a live
	// game).
	whose, name string
	gameOver    overText
	ending      *replayEnd
	ghostPools  atomic.Bool // the panel shows a daily ghost's pools (f)

	// The loop's goroutine only: the daily game's texts, the pools'
	// strategies of the last View, the screen of the frame being drawn,
	// whether the players box is laid out (see arrange).
	daily     dailyText
	pools     [2]pool.Strategy
	switcher  string // who switches the pools when 1-0 do not here (see show.switcher)
	drawing   tcell.Screen
	playersIn bool

	term    Screen   // the connection's
	screen  *surface // what the widgets draw on: term's cells
	loop    *loop
	arena   *arena
	panel   *panel
	players *players // an arena's players box, for a seat and an arena's watcher; nil elsewhere
	list    *strategyList
	bottom  footer // the show's line under the field
	root    *sessionRoot
	fit     fit         // the layout for the screen's size; the loop's goroutine only
	size    rect        // the screen's size at the last frame (resized)
	ascii   bool        // set as the screen starts
	clock   time.Time   // origin of the press-only hold times and the notices, on the loop's clock
	stats   drawStats   // the loop's goroutine only
	keys    *input.Keys // the player's: the loop's

	mu     sync.Mutex // guards the fields below
	border border     // the notice or question on the field's border
	target target     // the pools a strategy pick switches
	view   view       // the panel's latest sample of the pools
	seen   uint64     // the samples of the show's game fed into view

	life life
}

// drawStats times the frames, for the panel and Options.Frame.
type drawStats struct {
	frames    uint64
	render    time.Duration // total time spent drawing frames
	lastFrame time.Time     // when the last frame was drawn
	sent      vt.Stats      // the screen's output at that frame
}

// life is how a session ends: the first reason given, and the show's
// goroutine, stopped once the loop has stopped showing the session.
type life struct {
	stop    chan struct{} // closed to stop the show's goroutine
	loops   sync.WaitGroup
	endOnce sync.Once
	quit    chan struct{} // closed by end
	reason  string
	err     error
}

// start starts the show's goroutine.
func (s *session) start() {
	s.life.loops.Add(1)
	go func() {
		defer s.life.loops.Done()
		defer s.guard()
		s.show.run(s.life.stop)
	}()
}

// end records why the session ends (the first reason wins): the loop
// then stops showing it.
func (s *session) end(reason string, err error) {
	s.life.endOnce.Do(func() {
		s.life.reason, s.life.err = reason, err
		close(s.life.quit)
	})
}

// guard, deferred at the top of every goroutine and callback of the
// session, turns a panic into the end of the session.
func (s *session) guard() {
	if p := recover(); p != nil {
		s.end(ReasonPanic, fmt.Errorf("ui: panic: %v\n%s", p, debug.Stack()))
	}
}

// every calls f every d until stop is closed: how a show follows a game
// that steps elsewhere (an arena, a watched game).
func every(stop <-chan struct{}, d time.Duration, f func()) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			f()
		}
	}
}

// sampling is how often a seat follows its game, which its arena steps:
// every sampleEvery steps' time, as the pools are sampled.
const sampling = sampleEvery * time.Second / game.TPS

// scene is the game a session shows as a frame reads it: a play.Game,
// a play.Watcher, a play.Replay.
type scene interface {
	View(fn func(v play.View))
}

// now is the time on the session's clock.
func (s *session) now() time.Duration { return s.loop.clock.Now().Sub(s.clock) }

// sample records the pools' statistics for the panel, read from the
// show's game now (at its game time for a replay).
func (s *session) sample() { s.scene.View(s.sample1) }

// sampleView is sample within the scene's View: the game's own samples
// first, then one of the session's.
func (s *session) sampleView(v play.View) {
	at := s.now()
	if s.ending != nil {
		at = gameTime(v.Steps)
	}
	s.sampleIn(&v, at)
}

// sampleIn is sampleView at at, on the session's clock (a replay's: its
// game time).
func (s *session) sampleIn(v *play.View, at time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.drain(v)
	w := v.World
	s.view.title = ""
	if s.ghostShown(v) {
		s.view.title, w = ghostPanelTitle, v.Ghost.World()
	}
	samplePools(&s.view, w, v.Step, at)
	s.view.gen++
}

// drain feeds the panel's view the samples the show's game took on its
// steps since the last drain, in order: of its pools (a solo game's, an
// arena's, a replay's), or of a daily ghost's (f). The caller holds the
// lock.
func (s *session) drain(v *play.View) {
	if ss := s.ring(v); ss != nil {
		s.seen = ss.Since(s.seen, s.feed)
	}
}

// ring is the samples of v the panel shows: of its pools, or of a daily
// ghost's (f); nil: none.
func (s *session) ring(v *play.View) *game.PoolSamples {
	if s.ghostShown(v) {
		return v.GhostSamples
	}
	return v.Samples
}

// ghostShown tells whether the panel shows the pools of v's daily ghost
// (f) rather than the game's.
func (s *session) ghostShown(v *play.View) bool { return s.ghostPools.Load() && v.Ghost != nil }

// sampleFirst is the session's first sample, within the scene's View:
// the samples the game took before (an arena joined late) are none of
// the session's figures.
func (s *session) sampleFirst(v play.View) {
	s.mu.Lock()
	if ss := s.ring(&v); ss != nil {
		s.seen = ss.N()
	}
	s.mu.Unlock()
	s.sampleView(v)
}

// addSample adds a sample the show's game took: at its time on the
// session's clock, or a replay's at the game time of its step. The
// caller holds the lock.
func (s *session) addSample(p game.PoolSample) {
	at := p.At.Sub(s.clock)
	if s.ending != nil {
		at = gameTime(p.Step)
	}
	for i, fresh := range p.Restart {
		if fresh {
			s.view.pools[i].restart()
		}
	}
	s.view.pools[bulletsPool].sample(p.Pools[0], at)
	s.view.pools[debrisPool].sample(p.Pools[1], at)
	s.view.step = p.StepTime
	s.view.gen++
}

// restart starts the rates of the pools the target switches afresh: their
// strategy changed. The caller holds the lock.
func (s *session) restart() {
	if s.target != targetDebris {
		s.view.pools[bulletsPool].restart()
	}
	if s.target != targetBullets {
		s.view.pools[debrisPool].restart()
	}
}

// gameTime is the game time of step: the pools' rates are per second of
// game, whatever the speed.
func gameTime(step uint64) time.Duration { return time.Duration(step) * time.Second / game.TPS }

// samplePools records w's pools and the mean step time into v.
func samplePools(v *view, w *game.World, step, now time.Duration) {
	v.pools[bulletsPool].sample(w.BulletStats(), now)
	v.pools[debrisPool].sample(w.Debris().Stats(), now)
	v.step = step
}

// copyView copies the latest sample into p when it is newer than p's.
// The caller holds the lock.
func (s *session) copyView(p *panel) bool {
	if s.view.gen == p.gen {
		return false
	}
	p.latest, p.gen = s.view, s.view.gen
	return true
}

// take copies what this frame draws out of the scene's View v, under
// the scene's lock: the layout for the players the arena has, the world
// onto the arena's canvas and its header, the pools' new samples for the
// panel, the players box's lines when due, the strategies the list
// shows, the bottom line's status. No widget reads the game.
func (s *session) take(v play.View) {
	s.lay(&v)
	s.give(&v)
}

// lay lays the widgets out on the root's rect for the players the arena
// of v has: tview's flexes put the arena where lay does, so that it
// paints its world at the size it draws it.
func (s *session) lay(v *play.View) {
	x, y, w, h := s.root.GetRect()
	n := s.fit.players
	if s.players != nil {
		n = v.Arena.Players()
	}
	s.fitTo(w, h, n)
	s.arena.SetRect(x, y, w-max(s.fit.form.width(), 0), h-1) // see arrange
}

// give hands the widgets, laid out, what they draw of v (see take).
func (s *session) give(v *play.View) {
	if b, d := v.World.Bullets().Strategy(), v.World.Debris().Strategy(); b != s.list.listed[0] || d != s.list.listed[1] {
		s.pools = [2]pool.Strategy{b, d}
		s.syncList() // another player switched the arena's, the watched game switched, a replay's recorded switch came
	}
	a := s.arena
	if a.place() {
		s.paint(v)
	}
	a.hud = s.hudOf(v)
	if who := s.show.switcher(v.Arena); who != s.switcher {
		s.switcher, s.panel.switcher, s.panel.stale = who, who, true
	}
	s.mu.Lock()
	s.drain(v)
	if s.copyView(s.panel) {
		s.panel.fresh = true
	}
	now := s.now()
	a.hud.notice = s.border.text(now)
	if s.border.waits {
		a.hud.question = questionBoxes[s.border.asking(now)]
	}
	s.mu.Unlock()
	if pl := s.players; pl != nil && s.playersIn {
		pl.g, pl.narrow, pl.now = s.glyphs(), s.fit.form == formCompact, now
		if pl.due(s.drawing) {
			pl.formatView(v.Arena)
		}
	}
	s.bottom.take(s.glyphs(), v.Replay)
}

// paint copies the world of v onto the arena's canvas, with its ghost
// and the players' names: a seat's from the paintings its arena's seats
// share (see paintShared).
func (s *session) paint(v *play.View) {
	a := s.arena
	a.ghost, a.names = v.Ghost, v.Names
	if v.Daily != nil {
		a.ghostName = v.Daily.GhostName
	}
	if ar := v.Arena.Arena(); ar != nil && v.Ship >= 0 {
		a.paintShared(ar, v.World)
	} else {
		a.paintWorld(v.World)
	}
}

// hudOf is the arena's header for v: the score and lives of the ship
// it shows (Ship), or in an arena watched none (the players box has
// them), or in an arena's replay the best; the game-over screen, a
// replay's end, an empty arena's.
func (s *session) hudOf(v *play.View) hud {
	w := v.World
	h := hud{
		level: w.Level().Name, wave: w.Wave(), high: v.High, mode: v.Phase,
		paused: v.Paused, stress: v.Stress, watching: v.Watchers, whose: s.whose,
		hidden: v.Hidden && s.whose == "", // the player's own screen says so
	}
	ar := v.Arena.Arena()
	switch {
	case v.Ship >= 0:
		p := w.Player(v.Ship)
		h.score, h.lives = p.Score, p.Lives
		if v.Phase == match.Play && !v.Assisted {
			h.high = max(h.high, h.score)
		}
	case ar != nil:
		h.board = true
	default:
		h.best = true
	}
	if s.name != "" && h.mode != match.Title && !h.stress { // the demo's and the autopilot's are no one's
		h.name = s.name
	}
	switch {
	case s.ending != nil:
		h.over = s.ending.of(&v.Replay)
	case ar != nil && v.Ship < 0 && v.Arena.Players() == 0: // the world stands still until the arena closes
		h.mode, h.over = match.Over, emptyArenaScreen
	default:
		h.over = s.gameOver.of(v.Over, s.ascii)
	}
	if v.Daily != nil {
		t := s.daily.of(v.Daily, s.ascii)
		h.title, h.status = t.title, t.status
	}
	return h
}

// emptyArenaScreen is a watcher's overlay while the arena it watches has
// no player left: its world stands still until it closes, a few seconds
// later, and the watcher is back in the lobby.
var emptyArenaScreen = []string{"ARENA ENDED", "", "every player left", "it closes in a moment", "", "q: leave"}

// glyphs is the session's set: ASCII where the screen is not UTF-8 or
// Options.ASCII asks for it.
func (s *session) glyphs() *glyphs {
	if s.ascii {
		return plainGlyphs
	}
	return utf8Glyphs
}

// build makes the widgets: the arena on the left, the side panel right
// of it in the form that fits (see arrange), the show's line (the key
// help, a replay's status) at the bottom.
func (s *session) build() {
	s.arena = newArena()
	s.panel = newPanel()
	s.list = &strategyList{List: tview.NewList(), g: utf8Glyphs}
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
	s.bottom = s.show.bottom()
	s.root = &sessionRoot{s: s, Flex: tview.NewFlex().SetDirection(tview.FlexRow).
		AddItem(s.fit.body, 0, 1, true).
		AddItem(s.bottom, 1, 0, false)}
	s.arrange(formFull)
	s.syncList()
}

// fitTo chooses the form for a screen of w×h when its size changed: the
// form the player chose with v holds until then. In an arena, the players
// box takes a row a player (n), so the layout changes with the players
// too.
func (s *session) fitTo(w, h, n int) {
	ft := &s.fit
	if w == ft.w && h == ft.h {
		if n != ft.players {
			ft.players = n
			s.arrange(ft.form)
		}
		return
	}
	narrow := ft.list
	ft.w, ft.h, ft.players, ft.list = w, h, n, false
	// The stats box and the players box take the rows there are: a new
	// size arranges the panel afresh.
	s.arrange(autoForm(w, h))
	if narrow {
		s.syncList() // the list's wide texts
	}
}

// arrange lays the body out for form f: the arena, and right of it the
// side panel's sections for f, top to bottom. The screen is cleared, so
// that the next frame draws every widget whole at its new place. Focus
// stays where it is, even on a list no longer shown, until the next key
// (see focusShown).
func (s *session) arrange(f form) {
	ft := &s.fit
	list := ft.list
	ft.form, ft.restore, ft.list = f, formFull, false
	s.playersIn = false
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
		if ft.list = list; list { // in the players box's place while it shows
			ft.side.AddItem(s.list, 0, 1, false)
		} else {
			s.addPlayers(ft.h - 1 - compactHeight)
		}
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
	if s.list.HasFocus() && s.fit.form != formFull && !s.fit.list {
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
		s.playersIn = true
	}
}

// showHelp puts the key help up or takes it down.
func (s *session) showHelp(on bool) {
	s.fit.help = on
	s.hold()
}

// hold stops or resumes the game: it waits while the too-small notice or
// the key help is up, or a question waits for its answer. Keys held when
// it stops do not act after it resumes. What it depends on changes with
// a key or a resize, never with time, so those call it and a frame does
// not: a frame only shows the game.
func (s *session) hold() {
	s.show.wait(s.fit.small || s.fit.help || s.questionHolds(s.now()))
}

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
	b, d := s.pools[0], s.pools[1]
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
		if used != "" && s.fit.list { // narrow: the compact panel above names the pools'
			used = g.mark
		}
		s.list.setItem(i, fmt.Sprintf("%c %-10s %s", strategyKeys[i], st, used))
		if st == cur {
			s.list.SetCurrentItem(i)
		}
	}
	s.list.title = fmt.Sprintf(" strategy %s %s (b) ", g.arrow, targetNames[t])
	if s.fit.list {
		s.list.title = " strategy "
	}
	s.list.valid = false
	s.panel.stale = true // the compact panel names the target
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
		for i, st := range [2]pool.Strategy{b, d} {
			if st != "" {
				s.pools[i] = st // as the next View will show them
			}
		}
	}
	s.sample() // the panel names the new strategy at once
	s.syncList()
}

// frame draws a frame on the session's screen and shows it; the loop
// calls it at every tick of the frame clock, and at no other time: what
// the keys changed since the last frame shows now, however fast they came.
// It times the draw for the panel, and tells Options.Frame of the frame.
func (s *session) frame() {
	start := time.Now()
	s.screen.resize()
	if w, h := s.screen.Size(); s.stats.frames == 0 || w != s.size.w || h != s.size.h {
		s.resized(w, h)
	}
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

// resized takes the screen's new size, at the first frame and at each
// that finds it changed: too small, the game waits for a larger one.
func (s *session) resized(w, h int) {
	s.size = rect{w: w, h: h}
	s.fit.small = w < minWidth || h < minHeight
	s.hold()
}

// draw draws the session on scr: the widgets laid out for its size, or,
// while it is too small, a notice that holds the game. The strategy list
// shows the pools' strategies first, which an arena's creator, a watched
// player or a replay may have switched.
func (s *session) draw(scr tcell.Screen) {
	w, h := scr.Size()
	if s.fit.small {
		s.drawTooSmall(scr, w, h)
		return
	}
	s.root.SetRect(0, 0, w, h)
	s.root.Draw(scr)
}

// sessionRoot is the session's widgets as the loop and tview draw them:
// its Draw hands every widget what it draws this frame first (hand, and
// take within the scene's one View), so that no widget reads the session
// or the game.
type sessionRoot struct {
	*tview.Flex
	s *session
}

func (r *sessionRoot) Draw(scr tcell.Screen) {
	s := r.s
	s.hand()
	s.drawing = scr
	s.scene.View(s.takeFn) // the frame's one read of the game
	s.drawing = nil
	if h := &s.arena.hud; h.notice == "" && s.opts.Notice != nil {
		h.notice = s.opts.Notice() // the caller's, asked with no lock held
	}
	r.Flex.Draw(scr)
}

// hand hands the widgets what they draw this frame besides the game (see
// take): the glyphs, the key help, the frame figures, the pools' target.
func (s *session) hand() {
	g := s.glyphs()
	a := s.arena
	a.g, a.ascii, a.help = g, s.ascii, nil
	if s.fit.help {
		a.help = s.show.help(g)
	}
	p := s.panel
	p.g, p.held = g, s.term.Releases()
	p.frames, p.drawn = s.stats.frames, s.stats.render
	p.sent, p.sentOK = s.term.Stats()
	s.mu.Lock()
	p.target = s.target
	s.mu.Unlock()
	s.list.g = g

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

// tell shows a notice on the border for noticeFor.
func (s *session) tell(notice string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.border.notice, s.border.noticeAt = notice, s.now()
}

// refused shows why a command was refused, if it was.
func (s *session) refused(err error) {
	if err != nil {
		s.tell(err.Error())
	}
}

// confirmed reports whether k (q or x), pressed at now, acts: at once
// outside a game of the player's own (inGame false), else as the answer
// to the question its first press asked on the field's border (k again,
// or y; n or Esc withdraws it). A solo game waits for the answer (see
// questionHolds); an arena, shared, plays on (shared), and the question
// says so, counting down the confirmFor it waits.
func (s *session) confirmed(k rune, now time.Duration, inGame, shared bool) bool {
	defer s.hold()
	s.mu.Lock()
	defer s.mu.Unlock()
	if !inGame || s.border.asking(now) == k {
		s.border.ask = 0
		return true
	}
	s.border.ask, s.border.askAt, s.border.waits = k, now, !shared
	if shared {
		s.border.setQuestion(questions[k]+s.glyphs().sep+onQuestion, s.glyphs().sep, true)
	} else {
		s.border.setQuestion(questions[k], "", false)
	}
	return false
}

// questionHolds reports whether the game waits at now for the answer to
// a question on the field's border.
func (s *session) questionHolds(now time.Duration) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.border.waits && s.border.asking(now) != 0
}

// asked returns the key whose question waits on the border at now, or
// 0: y answers it as a second press of that key would.
func (s *session) asked(now time.Duration) rune {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.border.asking(now)
}

// withdraw takes the question off the border (n, Esc).
func (s *session) withdraw() {
	s.mu.Lock()
	s.border.ask = 0
	s.mu.Unlock()
	s.hold()
}
