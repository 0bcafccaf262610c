package ui

import (
	"errors"
	"time"

	"github.com/gdamore/tcell/v2"

	"poolroids/game/hub"
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
	s.scene, s.name = sh.g, seat.Name()
	s.players = newPlayers(seat.Arena())
	return sh, nil
}

// run follows the seat's game until stop; the arena samples its pools
// on its steps, into the View.
func (sh *seatShow) run(stop <-chan struct{}) {
	every(stop, sampling, func() { sh.g.Observe() })
}

func (sh *seatShow) gone() <-chan struct{}   { return sh.seat.Arena().Done() }
func (sh *seatShow) why() (string, error)    { return ReasonCanceled, sh.seat.Arena().Err() }
func (sh *seatShow) help(g *glyphs) []string { return g.arenaHelp }

func (sh *seatShow) bottom() footer {
	return newHelpLine(func(g *glyphs) []helpItem {
		if sh.s.switcher != "" {
			return g.guestLine
		}
		return g.arenaLine
	})
}

// switcher is the arena's creator, unless it is this seat.
func (sh *seatShow) switcher(ar hub.ArenaView) string {
	if c := ar.Creator(); c != sh.seat.Name() {
		return c
	}
	return ""
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
