package ui

import (
	"sync"
	"time"

	"github.com/gdamore/tcell/v2"

	"poolroids/game"
	"poolroids/game/hub"
	"poolroids/game/match"
	"poolroids/game/play"
	"poolroids/pool"
)

// Tests reach the game a session shows through these, to read or step it
// between frames.

// player returns the player's own game's show: a solo game's or a seat's.
func (s *session) player() *ownGame {
	switch sh := s.show.(type) {
	case *soloShow:
		return &sh.ownGame
	case *seatShow:
		return &sh.ownGame
	}
	panic("ui: the session shows no game of the player's")
}

// game returns the player's Game.
func (s *session) game() *play.Game { return s.player().g }

// world returns the world of the player's Game.
func (s *session) world() *game.World {
	var w *game.World
	s.game().View(func(v play.View) { w = v.World })
	return w
}

// seat returns a seat's seat.
func (s *session) seat() *hub.Seat { return s.show.(*seatShow).seat }

// solo returns the solo game as offered to watchers; nil: not offered.
func (s *session) solo() *play.Solo { return s.show.(*soloShow).live.Load() }

// offer offers a solo game to watchers, as its goroutine does first.
func (s *session) offer() { s.show.(*soloShow).offer() }

// stepInput is a solo game's keys for its next step, taken as its step
// takes them, and whether it steps.
func (s *session) stepInput() (game.Input, bool) {
	if s.game().Waiting() {
		return s.keys.Step(false), false
	}
	return s.keys.Step(s.player().inGame()), true
}

// step steps a solo game once with the keys, as its Game's Run does on
// the real clock.
func (s *session) step() { s.game().Tick() }

// startGame starts a game, as space on the title does.
func (s *session) startGame() { s.player().start() }

// newReplaySession makes the session RunReplay runs.
func newReplaySession(screen tcell.Screen, data []byte, opts Options) (*session, error) {
	return newSession(ownTerminal(screen, nil), opts, func(s *session) (show, error) { return newReplay(s, data) })
}

// newWatchSession makes the session Watch runs.
func newWatchSession(screen tcell.Screen, w *play.Watcher, opts Options) (*session, error) {
	return newSession(ownTerminal(screen, nil), opts, func(s *session) (show, error) { return newWatch(s, w), nil })
}

// worldShow shows a world the test steps itself, as a solo game's is
// drawn, in play: its own scene.
type worldShow struct {
	s     *session
	w     *game.World
	names [game.MaxShips]string // the players by slot
}

// showWorld makes s show w.
func showWorld(s *session, w *game.World) {
	sh := &worldShow{s: s, w: w}
	s.show, s.scene, s.ending = sh, sh, nil
}

func (sh *worldShow) View(fn func(play.View)) {
	fn(play.View{World: sh.w, Phase: match.Play, Names: sh.names})
}

func (sh *worldShow) run(stop <-chan struct{}) { <-stop }
func (sh *worldShow) gone() <-chan struct{}    { return nil }
func (sh *worldShow) why() (string, error)     { return ReasonCanceled, nil }
func (sh *worldShow) help(g *glyphs) []string  { return g.helpScreen }
func (sh *worldShow) close() int               { return 0 }
func (sh *worldShow) wait(bool)                {}

func (sh *worldShow) bottom() footer {
	return newHelpLine(func(g *glyphs) []helpItem { return g.keyLine })
}

func (sh *worldShow) switcher(hub.ArenaView) string { return "" }

func (sh *worldShow) pick(bullets, debris pool.Strategy) error {
	return sh.w.SetStrategies(bullets, debris)
}

func (sh *worldShow) key(ev *tcell.EventKey, _ time.Duration) *tcell.EventKey { return ev }

// sampleAt samples the pools for the panel as sample does, at now on the
// session's clock.
func (s *session) sampleAt(now time.Duration) {
	s.scene.View(func(v play.View) { s.sampleIn(&v, now) })
}

// handWidgets hands the widgets what they draw of the scene, as a
// frame does, without laying them out: a test draws them where it put
// them, on scr.
func (s *session) handWidgets(scr tcell.Screen) {
	s.hand()
	s.drawing = scr
	fn, ok := gives.Load(s)
	if !ok {
		fn, _ = gives.LoadOrStore(s, func(v play.View) { s.give(&v) })
	}
	s.scene.View(fn.(func(play.View)))
	s.drawing = nil
}

// gives are the sessions' handWidgets callbacks, each made once so that
// a frame's allocations count none.
var gives sync.Map // *session → func(play.View)
