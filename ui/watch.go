package ui

import (
	"context"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"poolroids/game/hub"
	"poolroids/game/play"
	"poolroids/pool"
)

// ReasonGone is why a [Watch] ends when the watched game did: its player
// left, hid it, or the arena closed. [Gone] says which.
const ReasonGone = "gone"

// Watch shows the live game w holds on screen, read-only: the world and
// the panel as its players see them, drawn at opts.FPS and the screen's
// own size under the game's read lock held only while copying, so that a
// slow watcher never slows the game. The watcher's keys move nothing: q
// leaves, Tab and v change the panel, ? shows the keys. It returns when the
// watcher quits, ctx is done, or the game ends (ReasonGone), and stops w
// then. Of opts, only FPS, ASCII and Keys count. screen is taken as by
// [Run].
func Watch(ctx context.Context, screen tcell.Screen, w *play.Watcher, opts Options) (Result, error) {
	defer w.Stop()
	if opts.Watching != nil {
		opts.Watching(true)
		defer opts.Watching(false)
	}
	s, err := newSession(screen, Options{FPS: opts.FPS, ASCII: opts.ASCII, Keys: opts.Keys})
	if err != nil {
		return Result{}, err
	}
	s.watchOf(w)
	s.watchSample(0) // the panel shows the game's pools from the first frame
	return s.run(ctx)
}

// watchOf makes s the watcher of w: its world, its players box (an
// arena's), whose game it is for the header.
func (s *session) watchOf(w *play.Watcher) {
	s.watch = w
	s.whose = w.Name() + "'s game"
	if w.Arena != nil { // its size is for good: read without the lock; the first frame lays it out
		s.players = newPlayers(s, w.Arena.World().Ships())
		s.whose = "arena " + w.Name()
	}
}

// sharedArena returns the arena on screen: the seat's, or the watched
// one; nil in a solo game.
func (s *session) sharedArena() *hub.Arena {
	switch {
	case s.seat != nil:
		return s.seat.Arena()
	case s.watch != nil:
		return s.watch.Arena
	}
	return nil
}

// Gone tells a watcher why a Watch of w ended with ReasonGone.
func Gone(w *play.Watcher) string {
	switch {
	case w.Arena != nil:
		return "the arena " + w.Name() + " closed"
	case !w.Solo.Open():
		return w.Name() + " hid their game"
	}
	return w.Name() + " left: the game is over"
}

// watchTick samples the watched game's pools for the panel.
func (s *session) watchTick(now time.Duration) bool {
	s.watchSample(now)
	return true
}

// watchSample samples the pools of the watched game's View, as its
// players' screens sample theirs, at the watcher's own pace.
func (s *session) watchSample(now time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.watch.View(func(v play.View) { s.samplePools(v.World, v.Step, now) })
}

// paintWatch is paint for a watcher: the watched game's world and header,
// copied under its lock.
func (s *session) paintWatch(a *arena) {
	w := s.watch
	if w.Solo != nil {
		s.mu.Lock()
		var h hud
		w.View(func(v play.View) { h = s.viewHUD(v, v.World, a) })
		s.mu.Unlock()
		h.whose, h.watching = s.whose, w.Watchers()
		a.hud = h
		return
	}
	ar := w.Arena
	ar.RLock()
	wd := ar.World()
	s.seatNames(ar)
	a.paintWorld(wd)
	h := hud{level: wd.Level().Name, wave: wd.Wave(), mode: modePlay, whose: s.whose, board: true}
	ar.RUnlock()
	h.watching = w.Watchers()
	a.hud = h
}

// watchedStrategies returns the watched game's strategies, read under its
// lock.
func (s *session) watchedStrategies() (bullets, debris pool.Strategy) {
	s.watch.View(func(v play.View) { bullets, debris = v.World.Bullets().Strategy(), v.World.Debris().Strategy() })
	return bullets, debris
}

// keys is the session's key handler: a watcher's keys play nothing, a
// replay's watcher's drive the replay.
func (s *session) keys() func(*tcell.EventKey) *tcell.EventKey {
	switch {
	case s.watch != nil:
		return s.onWatchKey
	case s.playback != nil:
		return s.playback.onKey
	}
	return s.onKey
}

// mouse is the session's mouse handler: a watcher's clicks switch nothing.
func (s *session) mouse() func(*tcell.EventMouse, tview.MouseAction) (*tcell.EventMouse, tview.MouseAction) {
	if s.watch != nil {
		return func(_ *tcell.EventMouse, a tview.MouseAction) (*tcell.EventMouse, tview.MouseAction) { return nil, a }
	}
	return s.onMouse
}

// onWatchKey is onKey for a watcher: q and Ctrl-C leave, Tab and v change
// the panel's form, ? shows the keys; nothing else acts.
func (s *session) onWatchKey(ev *tcell.EventKey) *tcell.EventKey {
	defer s.guard()
	r := ev.Rune()
	if ev.Key() != tcell.KeyRune {
		r = 0
	}
	switch {
	case ev.Key() == tcell.KeyCtrlC, r == 'q', r == 'Q':
		s.end(ReasonQuit, nil)
	case s.fit.help:
		s.showHelp(false)
	case s.fit.small:
	case ev.Key() == tcell.KeyTab, ev.Key() == tcell.KeyBacktab, r == 'v', r == 'V':
		s.arrange((s.fit.form + 1) % numForms)
	case r == '?':
		s.showHelp(true)
	}
	return nil
}

// watchHelp is the key help of a watcher.
var watchHelp = []string{
	"WATCHING",
	"",
	"you see the game; your keys move nothing",
	"",
	"tab / v  panel: full, compact, hidden",
	"?        this help                    ",
	"q        leave                        ",
	"",
	"any key closes this help",
}

// watchHelpLine is the help line of a watcher.
var watchHelpLine = []helpItem{{"tab/v", "panel"}}

// offer offers a solo game to watchers when the options ask for it. It
// runs once, as the loops start.
func (s *session) offer() {
	if s.opts.Live == nil {
		return
	}
	name := s.opts.Name
	if name == "" {
		name = s.opts.Player
	}
	s.mu.Lock() // a watcher may read s.solo as soon as Add has listed it
	defer s.mu.Unlock()
	s.solo = s.opts.Live.Add(hub.FitName(name), s.game, !s.opts.Hidden)
}

// toggleOpen opens the solo game to watchers or hides it (o); its
// watchers leave when it is hidden. An arena, or local play, has nothing to
// toggle.
func (s *session) toggleOpen() {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.solo != nil:
		s.solo.SetOpen(!s.solo.Open())
	case s.seat != nil:
		s.tell("an arena is always open to watchers")
	}
}
