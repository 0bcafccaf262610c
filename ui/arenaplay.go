package ui

import (
	"errors"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"poolroids/game"
	"poolroids/game/hub"
	"poolroids/game/match"
	"poolroids/game/play"
	"poolroids/pool"
)

// seatShow is an arena seat: the player's ship in the arena's shared
// world, which the arena steps on its own goroutine, asking the seat's
// Game for its keys; the show samples the shared pools and follows the
// seat's game.
type seatShow struct {
	ownGame
	seat *hub.Seat
}

// newSeat makes the show of Options.Arena's seat, with the players box.
func newSeat(s *session) (show, error) {
	seat := s.opts.Arena
	sh := &seatShow{ownGame: ownGame{s: s, shared: true}, seat: seat}
	// The name by the ship, the one the header shows, is the one saved.
	sh.g = play.NewSeat(seat, play.Scoring{Player: seat.Name(), Scores: s.opts.Scores}, play.Controls{Keys: s.keys})
	s.players = newPlayers(seat.Arena())
	return sh, nil
}

// run follows the seat's game until stop, sampling the shared pools.
func (sh *seatShow) run(stop <-chan struct{}) {
	every(stop, sampling, func() {
		sh.s.sample()
		sh.g.Observe()
	})
}

func (sh *seatShow) gone() <-chan struct{}   { return sh.seat.Arena().Done() }
func (sh *seatShow) why() (string, error)    { return ReasonCanceled, sh.seat.Arena().Err() }
func (sh *seatShow) help(g *glyphs) []string { return g.arenaHelp }

func (sh *seatShow) bottom() tview.Primitive {
	return newHelpLine(func(g *glyphs) []helpItem { return g.arenaLine })
}

// paint reads the seat's Game and then the arena, each under its lock,
// held only while copying, one after the other.
func (sh *seatShow) paint(a *arena) hud {
	var h hud
	var counts bool
	sh.g.View(func(v play.View) {
		h = hud{high: v.High, mode: v.Phase, stress: v.Stress, over: sh.over.of(v.Over, sh.s.ascii)}
		counts = h.mode == match.Play && !v.Assisted
	})
	ar := sh.seat.Arena()
	ar.View(func(v hub.ArenaView) {
		w := v.World()
		a.names.of(v)
		a.paintShared(ar, w)
		me := w.Player(sh.seat.Slot())
		h.level, h.score, h.lives, h.wave = w.Level().Name, me.Score, me.Lives, w.Wave()
	})
	if counts {
		h.high = max(h.high, h.score)
	}
	h.watching, h.name = ar.Watchers(), sh.seat.Name()
	return h
}

// samples: the seat samples the arena's pools at its own pace (run).
func (sh *seatShow) samples(seen uint64, _ func(game.PoolSample, time.Duration)) uint64 {
	return seen
}

func (sh *seatShow) sample(v *view, now time.Duration) {
	sh.seat.Arena().View(func(av hub.ArenaView) { samplePools(v, av.World(), av.StepTime(), now) })
}

func (sh *seatShow) strategies() (bullets, debris pool.Strategy) {
	sh.seat.Arena().View(func(v hub.ArenaView) { bullets, debris = v.World().Bullets().Strategy(), v.World().Debris().Strategy() })
	return bullets, debris
}

// pick asks the arena to switch its pools: only its creator may; anyone
// else is told who does.
func (sh *seatShow) pick(bullets, debris pool.Strategy) error {
	err := sh.g.SetStrategies(bullets, debris)
	if errors.Is(err, hub.ErrNotCreator) {
		var by string
		sh.seat.Arena().View(func(v hub.ArenaView) { by = v.Creator() })
		return errors.New("only " + by + " switches the pools")
	}
	return err
}

// key refuses what an arena does not do, and plays the rest.
func (sh *seatShow) key(ev *tcell.EventKey, now time.Duration) *tcell.EventKey {
	if ev.Key() == tcell.KeyRune {
		switch ev.Rune() {
		case 'p', 'P':
			sh.s.tell("an arena plays on: no pause")
			return nil
		case 'x', 'X': // refused (match.ErrShared) before it asks
			sh.s.tell("no stress autopilot in an arena")
			return nil
		case 'o', 'O':
			sh.s.tell("an arena is always open to watchers")
			return nil
		}
	}
	return sh.ownGame.key(ev, now)
}
