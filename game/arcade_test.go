package game

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"poolroids/levels"
)

// The scripted players of TestArcadeTargets. Each one returns its intent
// for the next step of w.
var (
	// spin holds Left and taps Fire every other step, never aiming.
	spin = func(w *World) Input { return Input{Left: true, Fire: w.Steps()%2 == 0} }
	// idle presses nothing.
	idle = func(*World) Input { return Input{} }
)

// arcadeGame is how one scripted game on the shipped levels went.
type arcadeGame struct {
	wave      int           // the wave reached
	length    time.Duration // game time until the game ended, or the cap
	firstLoss time.Duration // game time until the first ship was lost; the cap if none was
	losses    int           // ships lost
	shot      int           // … to a saucer's shot
}

// arcadeCap is the longest game played: 20 minutes of game time; a
// tapper's is 10.
const (
	arcadeCap = 20 * 60 * TPS
	tapperCap = 10 * 60 * TPS
)

// gameTime is the game time of n steps, to a tenth of a second.
func gameTime(n uint64) time.Duration {
	return (time.Duration(n) * time.Second / TPS).Round(time.Second / 10)
}

// playArcade plays one game of set (nil: the shipped levels) with seed,
// until it is over or stop says so, or for limit steps.
func playArcade(t *testing.T, set *levels.Set, seed uint64, limit uint64, player func(*World) Input, stop func(*World) bool) arcadeGame {
	w := newWorld(t, Config{Seed: seed, Levels: set})
	g := arcadeGame{firstLoss: gameTime(limit)}
	for w.Steps() < limit && w.Phase() != GameOver && !stop(w) {
		shot := aboutToBeShot(w)
		w.Step(player(w))
		if p := w.Player(0); p.Deaths > g.losses {
			g.losses = p.Deaths
			if shot {
				g.shot++
			}
		}
		if w.Phase() != Playing && g.firstLoss == gameTime(limit) {
			g.firstLoss = gameTime(w.Steps())
		}
	}
	g.wave, g.length = w.Wave(), gameTime(w.Steps())
	return g
}

// aboutToBeShot reports whether a saucer's shot will be inside the ship
// after the next step: a ship lost then is lost to it.
func aboutToBeShot(w *World) bool {
	s := w.Player(0).Ship
	for _, b := range w.Bullets().All() {
		if b.Hostile && delta(s.Pos.add(s.Vel.scale(1.0/TPS)), b.Pos.add(b.Vel.scale(1.0/TPS))).len() < ShipRadius+1 {
			return true
		}
	}
	return false
}

// withoutSaucers is the shipped levels and the harder waves past them
// that a game of tapperCap reaches, every saucer taken out.
func withoutSaucers() *levels.Set {
	s := levels.Default()
	n := len(s.Levels)
	for i := range levels.Ramp {
		l := s.Level(n + i)
		l.Name = fmt.Sprintf("past the last %d", i+1)
		s.Levels = append(s.Levels, l)
	}
	for i := range s.Levels {
		s.Levels[i].Saucer = false
	}
	return s
}

func median[T int | time.Duration](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// TestArcadeTargets plays scripted games on the shipped levels, 20 seeds
// each, and holds the game to the arcade's bargain: spinning and firing
// blind loses quickly, idling loses within a minute, aiming (the
// Autopilot) goes further than spinning; and a player who aims by taps
// and reacts as a person does (the tapper) reaches wave 4 in ten minutes,
// the saucers costing it at most a wave and most of its ships not lost to
// their shots.
func TestArcadeTargets(t *testing.T) {
	const seeds = 20
	never := func(*World) bool { return false }
	lost := func(w *World) bool { return w.Phase() != Playing }
	players := []struct {
		name  string
		new   func(seed uint64) func(*World) Input // a player for one game
		stop  func(*World) bool
		set   func() *levels.Set
		limit uint64
	}{
		{"spin", func(uint64) func(*World) Input { return spin }, never, levels.Default, arcadeCap},
		{"idle", func(uint64) func(*World) Input { return idle }, lost, levels.Default, arcadeCap},
		{"autopilot", func(uint64) func(*World) Input { return (&Autopilot{}).Input }, never, levels.Default, arcadeCap},
		{"tapper", func(seed uint64) func(*World) Input { return newTapper(seed).Input }, never, levels.Default, tapperCap},
		{"tapper without saucers", func(seed uint64) func(*World) Input { return newTapper(seed).Input }, never, withoutSaucers, tapperCap},
	}
	games := make(map[string][]arcadeGame)
	t.Run("play", func(t *testing.T) {
		for _, p := range players {
			games[p.name] = make([]arcadeGame, seeds)
			for seed := range uint64(seeds) {
				t.Run(p.name, func(t *testing.T) {
					t.Parallel()
					games[p.name][seed] = playArcade(t, p.set(), seed+1, p.limit, p.new(seed+1), p.stop)
				})
			}
		}
	})
	figures := func(name string) (waves []int, lengths, losses []time.Duration) {
		for _, g := range games[name] {
			waves, lengths, losses = append(waves, g.wave), append(lengths, g.length), append(losses, g.firstLoss)
		}
		return waves, lengths, losses
	}
	spinWaves, spinLengths, _ := figures("spin")
	_, _, idleLosses := figures("idle")
	autoWaves, autoLengths, _ := figures("autopilot")
	tapWaves, _, _ := figures("tapper")
	calmWaves, _, _ := figures("tapper without saucers")
	shipsLost, shot := 0, 0
	for _, g := range games["tapper"] {
		shipsLost, shot = shipsLost+g.losses, shot+g.shot
	}
	t.Logf("spin: median wave %d, median game %v; waves %v", median(spinWaves), median(spinLengths), spinWaves)
	t.Logf("idle: first ship lost after at most %v; %v", slices.Max(idleLosses), idleLosses)
	t.Logf("autopilot: median wave %d, median game %v; waves %v", median(autoWaves), median(autoLengths), autoWaves)
	t.Logf("tapper: median wave %d in %v; waves %v; %d of %d ships lost to a saucer's shot", median(tapWaves), gameTime(tapperCap), tapWaves, shot, shipsLost)
	t.Logf("tapper without saucers: median wave %d; waves %v", median(calmWaves), calmWaves)
	if median(spinWaves) > 3 || median(spinLengths) > 3*time.Minute {
		t.Errorf("spin: median wave %d, median game %v; want at most wave 3 and 3 minutes", median(spinWaves), median(spinLengths))
	}
	if m := slices.Max(idleLosses); m > time.Minute {
		t.Errorf("idle: a ship survived %v untouched, want it lost within a minute", m)
	}
	if median(autoWaves) <= median(spinWaves) {
		t.Errorf("autopilot: median wave %d, want more than spin's %d", median(autoWaves), median(spinWaves))
	}
	if median(tapWaves) < 4 {
		t.Errorf("tapper: median wave %d in %v, want at least 4", median(tapWaves), gameTime(tapperCap))
	}
	if median(calmWaves)-median(tapWaves) > 1 {
		t.Errorf("tapper: median wave %d with saucers, %d without; want at most one wave lost to them", median(tapWaves), median(calmWaves))
	}
	if 2*shot >= shipsLost {
		t.Errorf("tapper: %d of %d ships lost to a saucer's shot, want fewer than half", shot, shipsLost)
	}
}
