package ui

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/gdamore/tcell/v2"

	"poolroids/game"
	"poolroids/game/daily"
	"poolroids/game/hub"
	"poolroids/game/input"
	"poolroids/game/match"
	"poolroids/game/play"
	"poolroids/pool"
)

// ownGame is what the shows of the player's own game share: its
// play.Game and the keys that play it.
type ownGame struct {
	s      *session
	g      *play.Game
	shared bool // an arena seat: the world plays on whatever the player does
}

// inGame reports whether the player plays a game of their own, which q
// and x would leave.
func (p *ownGame) inGame() bool { return p.g.Phase() == match.Play && !p.g.Stress() }

// playing reports whether the player's keys play: a game in play, not
// paused.
func (p *ownGame) playing() bool { return p.g.Phase() == match.Play && !p.g.Paused() }

// press feeds a key event of a control to the player's keys while the
// player plays, where the screen does not report the keys' releases
// itself (see Screen.Hold).
func (p *ownGame) press(c input.Control, now time.Duration) {
	if p.playing() && !p.s.term.Releases() {
		p.s.keys.Press(c, now)
	}
}

// start leaves the title or game-over screen for a new game.
func (p *ownGame) start() {
	if p.g.Start() {
		p.fresh()
	}
}

func (p *ownGame) wait(on bool) { p.g.Wait(on) }

// fresh shows what the Game started (a new game, the title, a stress game
// in a world of its own) with the pools' figures from zero (the Game lets
// the keys go itself).
func (p *ownGame) fresh() {
	s := p.s
	s.mu.Lock()
	defer s.mu.Unlock()
	s.view.pools[bulletsPool] = poolView{}
	s.view.pools[debrisPool] = poolView{}
}

// key plays the keys a solo game and a seat share: the ship's, starting a
// game and quitting it.
func (p *ownGame) key(ev *tcell.EventKey, now time.Duration) *tcell.EventKey {
	switch ev.Key() {
	case tcell.KeyLeft:
		p.press(input.Left, now)
	case tcell.KeyRight:
		p.press(input.Right, now)
	case tcell.KeyUp:
		p.press(input.Thrust, now)
	case tcell.KeyEnter:
		p.start()
	case tcell.KeyRune:
		switch ev.Rune() {
		case 'q', 'Q':
			if p.s.confirmed('q', now, p.inGame(), p.shared) {
				p.s.end(ReasonQuit, nil)
			}
		case 'a', 'A':
			p.press(input.Left, now)
		case 'd', 'D':
			p.press(input.Right, now)
		case 'w', 'W':
			p.press(input.Thrust, now)
		case ' ':
			if p.g.Phase() == match.Play {
				p.press(input.Fire, now)
			} else {
				p.start()
			}
		case 'h', 'H', 's', 'S':
			p.press(input.Hyper, now)
		default:
			return ev
		}
	default:
		return ev
	}
	return nil
}

// close leaves the game in play, scored if it counts, and returns the
// best score of the games that counted.
func (p *ownGame) close() int {
	p.g.Close()
	return p.g.Best()
}

// soloShow is a solo game: the player's world, stepped on the show's
// goroutine, and offered to watchers where Options.Live says.
type soloShow struct {
	ownGame
	live atomic.Pointer[play.Solo] // the game offered to watchers; nil: none
}

// newSolo makes the solo game Options ask for.
func newSolo(s *session) (show, error) {
	o := &s.opts
	sh := &soloShow{ownGame: ownGame{s: s}}
	cfg := game.Config{
		Levels: o.Levels, Seed: o.Seed, Strategy: o.Strategy,
		Bullets: o.Bullets, Debris: o.Debris,
	}
	sc := play.Scoring{Player: o.Player, Scores: o.Scores}
	stress := o.Stress
	if o.Daily != nil {
		cfg = daily.Config(*o.Daily, o.Levels)
		cfg.Strategy, stress = o.Strategy, false
		sc.Daily = &play.Daily{Day: *o.Daily, Board: o.Board, Dir: o.DailyDir}
	}
	g, err := play.NewSolo(cfg, stress, sc, play.Controls{Keys: s.keys, Clock: s.opts.Clock})
	sh.g, s.scene, s.name = g, g, o.Player
	return sh, err
}

func (sh *soloShow) run(stop <-chan struct{}) {
	sh.offer()
	sh.g.Run(stop)
}

// offer offers the game to watchers when the options ask for it.
func (sh *soloShow) offer() {
	o := &sh.s.opts
	if o.Live == nil {
		return
	}
	name := o.Name
	if name == "" {
		name = o.Player
	}
	sh.live.Store(o.Live.Add(hub.FitName(name), sh.g, !o.Hidden))
}

func (sh *soloShow) gone() <-chan struct{} { return nil }
func (sh *soloShow) why() (string, error)  { return ReasonCanceled, nil }
func (sh *soloShow) help(g *glyphs) []string {
	if sh.s.opts.Daily != nil {
		return dailyHelp[setOf(g)].screen
	}
	return g.helpScreen
}

func (sh *soloShow) bottom() footer {
	if sh.s.opts.Daily != nil {
		return newHelpLine(func(g *glyphs) []helpItem { return dailyHelp[setOf(g)].line })
	}
	if sh.s.opts.Live == nil {
		return newHelpLine(func(g *glyphs) []helpItem { return g.localLine })
	}
	return newHelpLine(func(g *glyphs) []helpItem { return g.keyLine })
}

func (sh *soloShow) switcher(hub.ArenaView) string { return "" }

func (sh *soloShow) pick(bullets, debris pool.Strategy) error {
	return sh.g.SetStrategies(bullets, debris)
}

// key adds to the player's keys those of a game of one's own: pause, the
// stress autopilot, and opening the game to watchers or hiding it.
func (sh *soloShow) key(ev *tcell.EventKey, now time.Duration) *tcell.EventKey {
	if ev.Key() == tcell.KeyRune {
		switch ev.Rune() {
		case 'p', 'P':
			sh.g.TogglePause()
			return nil
		case 'x', 'X':
			if sh.s.opts.Daily != nil {
				sh.s.tell(match.ErrDaily.Error())
				return nil
			}
			if sh.s.confirmed('x', now, sh.inGame(), false) {
				sh.toggleStress()
			}
			return nil
		case 'g', 'G':
			if sh.s.opts.Daily != nil {
				sh.s.tell("ghost: " + sh.g.SwitchGhost().String())
				sh.s.sample() // the panel's title, if it shows the ghost's pools
				return nil
			}
		case 'f', 'F':
			if sh.s.opts.Daily != nil {
				sh.s.ghostPools.Store(!sh.s.ghostPools.Load())
				sh.fresh()
				sh.s.sample() // the panel's title says whose pools
				return nil
			}
		case 'o', 'O':
			if live := sh.live.Load(); live != nil { // local play has no watchers
				live.SetOpen(!live.Open())
			}
			return nil
		}
	}
	return sh.ownGame.key(ev, now)
}

// toggleStress starts or stops the stress autopilot. The player's game it
// takes over is left first, and scored as any game the player leaves.
func (sh *soloShow) toggleStress() {
	err := sh.g.ToggleStress()
	sh.fresh()
	if err != nil {
		sh.s.end(ReasonError, fmt.Errorf("ui: stress: %w", err))
	}
}

func (sh *soloShow) close() int {
	if live := sh.live.Load(); live != nil {
		live.Remove()
	}
	best := sh.ownGame.close()
	sh.s.files = sh.g.DailyFiles()
	return best
}
