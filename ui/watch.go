package ui

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

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
	return watchOn(ctx, ownTerminal(screen, opts.Keys), w, opts)
}

// watchOn is Watch on scr: a connection of one session.
func watchOn(ctx context.Context, scr Screen, w *play.Watcher, opts Options) (Result, error) {
	l := newLoop(scr, opts.Clock)
	return l.connect(ctx, func() (Result, error) { return l.watch(w, opts) })
}

// watch shows the live game w holds on l: see Watch.
func (l *loop) watch(w *play.Watcher, opts Options) (Result, error) {
	defer w.Stop()
	if opts.Watching != nil {
		opts.Watching(true)
		defer opts.Watching(false)
	}
	s, err := l.session(Options{FPS: opts.FPS, ASCII: opts.ASCII, Keys: opts.Keys}, func(s *session) (show, error) {
		return newWatch(s, w), nil
	})
	if err != nil {
		return Result{}, err
	}
	return s.play()
}

// watchShow is a watcher's show: the live game w holds, read through its
// play.Watcher, sampled at the watcher's own pace. Its keys move nothing.
type watchShow struct {
	s *session
	w *play.Watcher
}

// newWatch makes the show of w: whose game it is for the header, and an
// arena's players box.
func newWatch(s *session, w *play.Watcher) *watchShow {
	s.scene, s.whose, s.gameOver = w, w.Name()+"'s game", overText{watcher: true}
	var ar *hub.Arena
	w.View(func(v play.View) { ar = v.Arena.Arena() })
	if ar != nil {
		s.players = newPlayers(ar)
		s.whose = "arena " + w.Name()
	}
	return &watchShow{s: s, w: w}
}

// Gone tells a watcher why a Watch of w ended with ReasonGone.
func Gone(w *play.Watcher) string { return w.Gone() }

func (sh *watchShow) run(<-chan struct{})   {} // the game steps elsewhere, its samples come in its View
func (sh *watchShow) gone() <-chan struct{} { return sh.w.Done() }
func (sh *watchShow) why() (string, error)  { return ReasonGone, nil }
func (sh *watchShow) help(*glyphs) []string { return watchHelp }
func (sh *watchShow) close() int            { return 0 }
func (sh *watchShow) wait(bool)             {}

func (sh *watchShow) bottom() footer {
	return newHelpLine(func(*glyphs) []helpItem { return watchHelpLine })
}

// switcher is the arena's creator, or the player watched.
func (sh *watchShow) switcher(ar hub.ArenaView) string {
	if ar.Arena() != nil {
		return ar.Creator()
	}
	return sh.w.Name()
}

// errWatching is why a watcher's pick does nothing.
var errWatching = errors.New("you watch: the pools are the players'")

func (sh *watchShow) pick(_, _ pool.Strategy) error { return errWatching }

// key: q leaves, Tab and v change the panel's form, ? shows the keys;
// 1-0 say why they switch nothing; nothing else acts.
func (sh *watchShow) key(ev *tcell.EventKey, _ time.Duration) *tcell.EventKey {
	r := ev.Rune()
	if ev.Key() != tcell.KeyRune {
		r = 0
	}
	switch {
	case r == 'q', r == 'Q':
		sh.s.end(ReasonQuit, nil)
	case ev.Key() == tcell.KeyTab, ev.Key() == tcell.KeyBacktab, r == 'v', r == 'V':
		sh.s.arrange(nextForm(sh.s.fit.form, sh.s.fit.w, sh.s.fit.h))
	case r == '?':
		sh.s.showHelp(true)
	case r != 0 && strings.ContainsRune(strategyKeys, r):
		sh.s.tell(errWatching.Error())
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
