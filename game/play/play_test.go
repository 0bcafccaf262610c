package play

import (
	"errors"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"poolroids/game"
	"poolroids/game/clock"
	"poolroids/game/input"
	"poolroids/game/match"
	"poolroids/game/scores"
)

// newSolo makes ann's solo game, saving to st (nil: none); no key is
// held. steps reads how many steps it took.
func newSolo(t *testing.T, st *scores.Store) (g *Game, steps func() uint64) {
	t.Helper()
	g, err := NewSolo(game.Config{Seed: 1}, false, Scoring{Player: "ann", Scores: st}, Controls{})
	if err != nil {
		t.Fatal(err)
	}
	return g, func() uint64 { return view(g).Steps }
}

// newStore opens an empty high-score table in a directory of the test's.
func newStore(t *testing.T) *scores.Store {
	t.Helper()
	st, err := scores.Open(filepath.Join(t.TempDir(), "scores.json"))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// view returns what a frame of g shows.
func view(g *Game) View {
	var v View
	g.View(func(gv View) { v = gv })
	return v
}

// play plays g's game until it ends (see playOut), and returns how it
// ended.
func play(t *testing.T, g *Game) Over {
	t.Helper()
	if !playOut(g) {
		t.Fatalf("no game over in 10 minutes: %v", g.Phase())
	}
	return view(g).Over
}

// playOut starts a game and plays it, shooting and jumping often (which
// scores a little and loses every ship soon), for at most 10 minutes of
// game time; it reports whether the game ended. It may run on a goroutine
// of its own.
func playOut(g *Game) bool {
	g.Start()
	for i := 0; g.Phase() == match.Play && i < 600*game.TPS; i++ {
		g.Step(game.Input{Fire: i%8 == 0, Left: true, Hyperspace: i%30 == 0})
	}
	return g.Phase() == match.Over
}

// TestRunKeepsGameTime: Run steps at game.TPS on its own goroutine, and
// returns when stopped.
func TestRunKeepsGameTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g, steps := newSolo(t, nil)
		stop, done := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(done)
			g.Run(stop)
		}()
		time.Sleep(2 * time.Second)
		synctest.Wait()
		// A tick on time is a nanosecond early (the period rounds down): the
		// step it is due comes with the next.
		if got := steps(); got != 2*game.TPS-1 {
			t.Errorf("%d steps in 2s, want %d", got, 2*game.TPS-1)
		}
		close(stop)
		<-done
	})
}

// TestWaitingDoesNotStep: while the game waits (the key help is up, say),
// the world stands still.
func TestWaitingDoesNotStep(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g, steps := newSolo(t, nil)
		g.Wait(true)
		stop := make(chan struct{})
		go g.Run(stop)
		time.Sleep(time.Second)
		synctest.Wait()
		close(stop)
		at := view(g).World.Steps()
		if steps() != 0 || at != 0 {
			t.Errorf("waiting, the game took %d steps (world at %d)", steps(), at)
		}
	})
}

// TestEndedIsSaved: a game the player plays to its end shows its result
// in the View at once, and is saved, with its replay, on a goroutine of
// its own: once saved, the View shows its rank, the table and the new
// high score.
func TestEndedIsSaved(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		st := newStore(t)
		g, _ := newSolo(t, st)
		o := play(t, g)
		if o.Entry.Score == 0 || o.Entry.Name != "ann" || o.Err != nil || g.Best() != o.Entry.Score {
			t.Fatalf("ended %+v, best %d; want ann's scoring game", o, g.Best())
		}
		g.Close() // waits for the save
		v := view(g)
		if o := v.Over; o.Saving || o.Rank != 1 || o.Err != nil || len(o.Top) != 1 || o.Top[0].Score != o.Entry.Score {
			t.Errorf("once saved: %+v; want rank 1 of a table of one", o)
		}
		if v.High != o.Entry.Score || v.Over.Change == o.Change {
			t.Errorf("high %d, change %d after %d; want %d, a new change", v.High, v.Over.Change, o.Change, o.Entry.Score)
		}
		top := st.Top(0)
		if len(top) != 1 || top[0].Replay == "" {
			t.Errorf("the table holds %+v; want the game with its replay", top)
		}
	})
}

// TestAssistedIsNotSaved: a game the stress autopilot plays does not
// count: its game-over screen says so, and the table stays empty.
func TestAssistedIsNotSaved(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		st := newStore(t)
		g, _ := newSolo(t, st)
		if err := g.ToggleStress(); err != nil {
			t.Fatal(err)
		}
		for range game.TPS {
			g.Step(game.Input{})
		}
		g.Close()
		if o := view(g).Over; !errors.Is(o.Err, ErrAssisted) || o.Rank != 0 {
			t.Errorf("a stress game left: %+v; want ErrAssisted", o)
		}
		if top := st.Top(0); len(top) != 0 {
			t.Errorf("the table holds %+v", top)
		}
	})
}

// TestLeavingScores: a game left in play (the player quits, or hands it
// to the stress autopilot) is scored as it stands.
func TestLeavingScores(t *testing.T) {
	for _, leave := range []struct {
		name string
		do   func(g *Game)
	}{
		{"close", (*Game).Close},
		{"stress", func(g *Game) {
			if err := g.ToggleStress(); err != nil {
				t.Fatal(err)
			}
			g.saves.Wait() // not Close, which would leave the stress game
		}},
	} {
		t.Run(leave.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				st := newStore(t)
				g, _ := newSolo(t, st)
				g.Start()
				for i := 0; view(g).World.Score() == 0; i++ {
					if i > 60*game.TPS {
						t.Fatal("no score in a minute")
					}
					g.Step(game.Input{Fire: i%8 == 0, Left: true})
				}
				score := view(g).World.Score()
				leave.do(g)
				if o := view(g).Over; o.Entry.Score != score || o.Rank != 1 {
					t.Errorf("left at %d: %+v; want it saved first", score, o)
				}
				if top := st.Top(0); len(top) != 1 || top[0].Score != score {
					t.Errorf("the table holds %+v", top)
				}
			})
		})
	}
}

// TestStepTimeKept: the View's step time is a mean of the last
// StepSample steps, the same however often it is read.
func TestStepTimeKept(t *testing.T) {
	g, _ := newSolo(t, nil)
	for range StepSample - 1 {
		g.Step(game.Input{})
	}
	if d := view(g).Step; d != 0 {
		t.Errorf("before a sample: step %v", d)
	}
	g.Step(game.Input{})
	d := view(g).Step
	if d <= 0 || view(g).Step != d {
		t.Errorf("step %v, then %v; want the same mean twice", d, view(g).Step)
	}
}

// TestCommandsRefused: outside a game there is nothing to pause or
// leave, and a second Start during one does nothing.
func TestCommandsRefused(t *testing.T) {
	g, _ := newSolo(t, nil)
	if g.TogglePause() {
		t.Error("paused the title")
	}
	if _, left := g.Leave(); left {
		t.Error("left the title")
	}
	g.Start()
	if g.Start() {
		t.Error("started a game during one")
	}
	if !g.TogglePause() || !g.Paused() {
		t.Error("a game in play did not pause")
	}
}

// TestViewAllocatesNothing: a frame's look at the game is free.
func TestViewAllocatesNothing(t *testing.T) {
	g, _ := newSolo(t, nil)
	var score int
	fn := func(v View) { score += v.World.Score() }
	if n := testing.AllocsPerRun(100, func() { g.View(fn) }); n != 0 {
		t.Errorf("View allocates %v times", n)
	}
}

// TestGameReadsItsKeys: a Game's step reads the keys its front end wrote,
// only in play; what is pressed while it waits acts no more.
func TestGameReadsItsKeys(t *testing.T) {
	var keys input.Keys
	g, err := NewSolo(game.Config{Seed: 1}, false, Scoring{}, Controls{Keys: &keys})
	if err != nil {
		t.Fatal(err)
	}
	angle := func() float64 { return view(g).World.Player(0).Ship.Angle }
	keys.Down(input.Left)
	keys.Up(input.Left)
	g.step() // the title: the tap plays nothing, and is dropped
	if !g.Start() {
		t.Fatal("no game started")
	}
	for range game.TPS {
		g.step() // the ship appears
	}
	before := angle()
	keys.Press(input.Left, 0)
	g.step()
	if angle() == before {
		t.Error("a press of left did not turn the ship")
	}
	g.Wait(true)
	keys.Press(input.Right, time.Second)
	g.step()
	g.Wait(false)
	before = angle()
	for range 10 {
		g.step()
	}
	if a := angle(); a != before {
		t.Errorf("a press while the game waited turned the ship from %v to %v", before, a)
	}
}

// TestSamplesOnTheStep: a Game samples its pools on its step, every
// game.SampleEvery steps, paused too, and its View holds the samples.
func TestSamplesOnTheStep(t *testing.T) {
	g, _ := newSolo(t, nil)
	g.Start()
	for range 2 * game.SampleEvery {
		g.Step(game.Input{Fire: true})
	}
	g.TogglePause()
	for range game.SampleEvery {
		g.Step(game.Input{})
	}
	var got []uint64
	g.View(func(v View) {
		v.Samples.Since(0, func(p game.PoolSample) {
			got = append(got, p.Step)
			if p.Pools[0] != v.World.BulletStats() && p.Step == v.Steps {
				t.Errorf("the last sample's bullets %+v, the world's %+v", p.Pools[0], v.World.BulletStats())
			}
		})
	})
	if want := []uint64{game.SampleEvery, 2 * game.SampleEvery, 3 * game.SampleEvery}; !slices.Equal(got, want) {
		t.Errorf("sampled at steps %v, want %v", got, want)
	}
}

// TestStepsOnManual: Steps keeps game time on the clock it is given: a
// tick a step, and a tick that comes late takes the steps it missed, up
// to maxCatchUp. A Manual clock drives it step by step.
func TestStepsOnManual(t *testing.T) {
	clk := clock.NewManual(time.Unix(0, 0))
	stop, done := make(chan struct{}), make(chan struct{})
	stepped := make(chan struct{})
	go func() {
		defer close(done)
		StepsOn(stop, clk, func() { stepped <- struct{}{} })
	}()
	for clk.Tickers() == 0 {
		runtime.Gosched()
	}
	tick := time.Second / game.TPS
	steps := func(d time.Duration, want int) {
		t.Helper()
		clk.Advance(d)
		for range want {
			<-stepped
		}
		select {
		case <-stepped:
			t.Errorf("after %v: more than %d steps", d, want)
		default:
		}
	}
	steps(tick, 0) // a tick is a hair short of 1/60 s: game time is whole steps
	steps(tick, 1)
	steps(tick, 1)
	steps(3*tick, 3)           // one tick, late: the steps it missed
	steps(10*tick, maxCatchUp) // later still: no more than maxCatchUp
	steps(tick, 1)
	close(stop)
	<-done
}
