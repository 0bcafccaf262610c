package game

import (
	"slices"
	"testing"
	"time"
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
}

// arcadeCap is the longest game played: 20 minutes of game time.
const arcadeCap = 20 * 60 * TPS

// gameTime is the game time of n steps, to a tenth of a second.
func gameTime(n uint64) time.Duration {
	return (time.Duration(n) * time.Second / TPS).Round(time.Second / 10)
}

// playArcade plays one game of the shipped levels with seed, until it is
// over or stop says so, or for arcadeCap steps.
func playArcade(t *testing.T, seed uint64, player func(*World) Input, stop func(*World) bool) arcadeGame {
	w := newWorld(t, Config{Seed: seed})
	g := arcadeGame{firstLoss: gameTime(arcadeCap)}
	for w.Steps() < arcadeCap && w.Phase() != GameOver && !stop(w) {
		w.Step(player(w))
		if w.Phase() != Playing && g.firstLoss == gameTime(arcadeCap) {
			g.firstLoss = gameTime(w.Steps())
		}
	}
	g.wave, g.length = w.Wave(), gameTime(w.Steps())
	return g
}

func median[T int | time.Duration](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// TestArcadeTargets plays scripted games on the shipped levels, 20 seeds
// each, and holds the game to the arcade's bargain: spinning and firing
// blind loses quickly, idling loses within a minute, and aiming (the
// Autopilot) goes further than spinning.
func TestArcadeTargets(t *testing.T) {
	const seeds = 20
	never := func(*World) bool { return false }
	lost := func(w *World) bool { return w.Phase() != Playing }
	players := []struct {
		name string
		new  func() func(*World) Input // a player for one game
		stop func(*World) bool
	}{
		{"spin", func() func(*World) Input { return spin }, never},
		{"idle", func() func(*World) Input { return idle }, lost},
		{"autopilot", func() func(*World) Input { return (&Autopilot{}).Input }, never},
	}
	games := make(map[string][]arcadeGame)
	t.Run("play", func(t *testing.T) {
		for _, p := range players {
			games[p.name] = make([]arcadeGame, seeds)
			for seed := range uint64(seeds) {
				t.Run(p.name, func(t *testing.T) {
					t.Parallel()
					games[p.name][seed] = playArcade(t, seed+1, p.new(), p.stop)
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
	t.Logf("spin: median wave %d, median game %v; waves %v", median(spinWaves), median(spinLengths), spinWaves)
	t.Logf("idle: first ship lost after at most %v; %v", slices.Max(idleLosses), idleLosses)
	t.Logf("autopilot: median wave %d, median game %v; waves %v", median(autoWaves), median(autoLengths), autoWaves)
	if median(spinWaves) > 3 || median(spinLengths) > 3*time.Minute {
		t.Errorf("spin: median wave %d, median game %v; want at most wave 3 and 3 minutes", median(spinWaves), median(spinLengths))
	}
	if m := slices.Max(idleLosses); m > time.Minute {
		t.Errorf("idle: a ship survived %v untouched, want it lost within a minute", m)
	}
	if median(autoWaves) <= median(spinWaves) {
		t.Errorf("autopilot: median wave %d, want more than spin's %d", median(autoWaves), median(spinWaves))
	}
}
