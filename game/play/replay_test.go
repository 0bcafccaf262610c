package play

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"poolroids/game"
	"poolroids/game/match"
	"poolroids/game/replay"
	"poolroids/game/replay/replaytest"
	"poolroids/pool"
)

// recorded records steps of the autopilot in a solo game of seed on the
// shipped levels. Halfway the pools switch to bitset, as a player's key
// would.
func recorded(t testing.TB, seed uint64, steps int) []byte {
	t.Helper()
	return replaytest.Record(t, game.Config{Seed: seed}, replay.Options{Players: []string{"autopilot"}}, steps)
}

// newReplay watches data; the count it returns is of the pools' samples
// read so far (see sampledSince).
func newReplay(t *testing.T, data []byte, strategy pool.Strategy) (*Replay, *uint64) {
	t.Helper()
	r, err := NewReplay(data, strategy)
	if err != nil {
		t.Fatal(err)
	}
	return r, new(uint64)
}

// sampledSince returns the pools' samples of r after the first *n, and
// counts them read.
func sampledSince(r *Replay, n *uint64) []game.PoolSample {
	var got []game.PoolSample
	r.View(func(v View) { *n = v.Samples.Since(*n, func(p game.PoolSample) { got = append(got, p) }) })
	return got
}

// replayView returns r's view; its World is for reading only now, between
// ticks.
func replayView(r *Replay) View {
	var v View
	r.View(func(rv View) { v = rv })
	return v
}

func ticks(r *Replay, n int) {
	for range n {
		r.Tick()
	}
}

// seekDone ticks until the seek under way is over, and returns how many
// ticks it took.
func seekDone(t *testing.T, r *Replay) int {
	t.Helper()
	const most = 10000 // a tick's time budget may run out early on a loaded machine
	for i := range most {
		r.Tick()
		if replayView(r).Replay.State != ReplaySeeking {
			return i + 1
		}
	}
	t.Fatalf("still seeking after %d ticks, at step %d", most, replayView(r).Replay.Step)
	return 0
}

// at checks that r is at step with the recording's world there.
func at(t *testing.T, r *Replay, data []byte, step uint64, what string) {
	t.Helper()
	v := replayView(r)
	if got, want := v.World.Checksum(), replaytest.SumAt(t, data, step); v.Replay.Step != step || got != want {
		t.Errorf("%s: step %d checksum %016x, want %d and %016x", what, v.Replay.Step, got, step, want)
	}
}

// TestReplayRunKeepsPace: Run plays at the recording's pace on its own
// goroutine, plays nothing while the front end waits, and tells the front
// end what it played.
func TestReplayRunKeepsPace(t *testing.T) {
	data := recorded(t, 3, 600)
	synctest.Test(t, func(t *testing.T) {
		r, sampled := newReplay(t, data, "")
		stop, done := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(done)
			r.Run(stop)
		}()
		time.Sleep(2 * time.Second)
		synctest.Wait()
		// A tick on time is a nanosecond early (see TestRunKeepsGameTime).
		got := sampledSince(r, sampled)
		if v := replayView(r); v.Replay.Step != 2*game.TPS-1 || v.Replay.State != ReplayPlaying || len(got) == 0 || got[len(got)-1].Step != v.Replay.Step/game.SampleEvery*game.SampleEvery {
			t.Errorf("2s in: step %d, state %v, pools sampled %+v; want %d, playing, sampled every %d steps", v.Replay.Step, v.Replay.State, got, 2*game.TPS-1, game.SampleEvery)
		}
		r.Wait(true)
		synctest.Wait()
		from := replayView(r).Replay.Step
		time.Sleep(time.Second)
		synctest.Wait()
		if got := replayView(r).Replay.Step; got != from {
			t.Errorf("waiting, the replay went from step %d to %d", from, got)
		}
		close(stop)
		<-done
	})
}

// TestReplaySpeeds: each speed plays its share of steps a tick, ×¼ to
// ×16, as replay.Watch's speed of the same index, and no further.
func TestReplaySpeeds(t *testing.T) {
	r, _ := newReplay(t, recorded(t, 5, 3000), "")
	want := [Speeds]string{"×¼", "×½", "×1", "×2", "×4", "×8", "×16"}
	for range Speeds {
		r.Slower()
	}
	for i := range Speeds + 1 {
		v := replayView(r)
		ticks(r, 8)
		sp := min(i, Speeds-1)
		if got, steps := replayView(r).Replay.Step-v.Replay.Step, uint64(2)<<sp; v.Replay.Speed != sp || got != steps || r.w.Speed() != want[sp] {
			t.Errorf("speed %d (%s): %d steps in 8 ticks, want %d; watch at %s", v.Replay.Speed, want[sp], got, steps, r.w.Speed())
		}
		r.Faster()
	}
}

// TestReplayPause: a paused replay plays nothing but single steps; at the
// end it plays again from the start.
func TestReplayPause(t *testing.T) {
	data := recorded(t, 4, 600)
	r, _ := newReplay(t, data, "")
	ticks(r, 10)
	if err := r.TogglePause(); err != nil {
		t.Fatal(err)
	}
	ticks(r, 30)
	for range 3 {
		if err := r.StepOnce(); err != nil {
			t.Fatal(err)
		}
	}
	if v := replayView(r); v.Replay.Step != 13 || v.Replay.State != ReplayPaused || v.Steps != 13 || v.Phase != match.Play || v.Ship != 0 {
		t.Errorf("paused, then three single steps: step %d (%d), state %v, %v, ship %d; want 13, paused, in play, 0", v.Replay.Step, v.Steps, v.Replay.State, v.Phase, v.Ship)
	}
	if err := r.TogglePause(); err != nil {
		t.Fatal(err)
	}
	ticks(r, 600)
	if v := replayView(r); v.Replay.Step != 600 || v.Replay.State != ReplayEnd || v.Phase != match.Over || v.High != v.World.Player(0).Score {
		t.Errorf("to the end: step %d, state %v, %v, high %d", v.Replay.Step, v.Replay.State, v.Phase, v.High)
	}
	if err := r.StepOnce(); !errors.Is(err, ErrEnd) {
		t.Errorf("a step at the end: %v", err)
	}
	if err := r.TogglePause(); err != nil {
		t.Fatal(err)
	}
	ticks(r, 2)
	at(t, r, data, 1, "space at the end, then two ticks (a seek to 0, a step)")
}

// TestReplaySeek: a seek back replays from the start and reaches the very
// world the recording had there; one before the start stops at it; a
// seek forward plays on. The front end hears of the new world.
func TestReplaySeek(t *testing.T) {
	data := recorded(t, 6, 3000)
	r, sampled := newReplay(t, data, "")
	if err := r.Seek(1800); err != nil {
		t.Fatal(err)
	}
	seekDone(t, r)
	at(t, r, data, 1800, "seek to 0:30")
	if err := r.Seek(-600); err != nil {
		t.Fatal(err)
	}
	sampledSince(r, sampled)
	seekDone(t, r)
	at(t, r, data, 1200, "seek back to 0:20")
	if got := sampledSince(r, sampled); len(got) == 0 || got[0].Restart != [2]bool{true, true} || got[len(got)-1].Step != 1200 {
		t.Errorf("the seek back sampled %+v; want the new world's rates afresh, then step 1200", got)
	}
	if v := replayView(r); v.Replay.State != ReplayPlaying {
		t.Errorf("after the seek: %v", v.Replay.State)
	}
	r.Seek(-600)
	r.Seek(-600) // from where the first goes
	r.Seek(-600) // before the start: to it
	seekDone(t, r)
	at(t, r, data, 0, "seek back past the start")
	r.Seek(600)
	seekDone(t, r)
	at(t, r, data, 600, "seek forward to 0:10")
}

// TestReplaySeekSpread: a long seek is spread over ticks, a tick playing
// at most its chunk of steps or strides until its time is up, and says so
// meanwhile.
func TestReplaySeekSpread(t *testing.T) {
	// On the bubble's clock a tick takes no time, so its time budget
	// never runs out before its chunk: under load it could.
	synctest.Test(t, func(t *testing.T) {
		data := recorded(t, 6, 3000)
		r, _ := newReplay(t, data, "")
		r.chunk = 100
		r.Seek(1200)
		r.Tick()
		if v := replayView(r); v.Replay.State != ReplaySeeking || v.Replay.Step != 100 || v.Replay.SeekTo != 1200 {
			t.Errorf("a tick into the seek: %v at step %d to %d; want seeking at 100 to 1200", v.Replay.State, v.Replay.Step, v.Replay.SeekTo)
		}
		if n := seekDone(t, r); n != 11 {
			t.Errorf("the seek took %d more ticks, want 11", n)
		}
		at(t, r, data, 1200, "the spread seek")

		r.chunk = seekMax
		r.Seek(1200)
		strides := 0
		r.mu.Lock()
		r.seekStrides(func() bool { strides++; return strides == 3 })
		r.mu.Unlock()
		if v := replayView(r); v.Replay.Step != 1200+3*seekStride || v.Replay.State != ReplaySeeking {
			t.Errorf("a tick whose time is up after 3 strides: step %d, %v; want %d, seeking", v.Replay.Step, v.Replay.State, 1200+3*seekStride)
		}
	})
}

// TestReplayHeldStrategies: the watcher's strategies change the pools'
// figures, never the game: the checksums keep matching, the recorded
// switch no longer applies, and they hold through a seek back.
func TestReplayHeldStrategies(t *testing.T) {
	data := recorded(t, 7, 2400)
	r, sampled := newReplay(t, data, "")
	all := pool.Strategies()
	strategies := func() [2]pool.Strategy {
		w := replayView(r).World
		return [2]pool.Strategy{w.Bullets().Strategy(), w.Debris().Strategy()}
	}
	if err := r.SetStrategies(all[2], all[2]); err != nil {
		t.Fatal(err)
	}
	r.Tick()
	if got := sampledSince(r, sampled); len(got) == 0 || got[len(got)-1].Restart != [2]bool{true, true} {
		t.Errorf("the switch was sampled as %+v", got)
	}
	if err := r.Seek(1279); err != nil { // to 1280, past the recorded switch to bitset
		t.Fatal(err)
	}
	seekDone(t, r)
	if got := strategies(); got != [2]pool.Strategy{all[2], all[2]} {
		t.Errorf("past the recorded switch: %v", got)
	}
	at(t, r, data, 1280, "held")
	if err := r.SetStrategies(all[4], ""); err != nil { // the bullets only
		t.Fatal(err)
	}
	want := [2]pool.Strategy{all[4], all[2]}
	r.Seek(-600)
	seekDone(t, r)
	if got := strategies(); got != want {
		t.Errorf("after a seek back: %v, want %v", got, want)
	}
	at(t, r, data, 680, "held, after a seek back")
	r.Seek(3000)
	seekDone(t, r)
	if v := replayView(r); v.Replay.State != ReplayEnd || strategies() != want {
		t.Errorf("to the end with the watcher's strategies: %v, %v, %v", v.Replay.State, strategies(), v.Replay.Err)
	}
	if err := r.SetStrategies("heap", ""); err == nil {
		t.Error("strategy heap: no error")
	}
}

// TestReplayHeldFromStart: a strategy given at the start holds the pools
// from there; an unknown one is an error.
func TestReplayHeldFromStart(t *testing.T) {
	data := recorded(t, 7, 600)
	r, _ := newReplay(t, data, pool.Scan)
	ticks(r, 600)
	w := replayView(r).World
	if b, d := w.Bullets().Strategy(), w.Debris().Strategy(); b != pool.Scan || d != pool.Scan {
		t.Errorf("held to scan, at the end: %s %s", b, d)
	}
	at(t, r, data, 600, "held to scan")
	if _, err := NewReplay(data, "heap"); err == nil {
		t.Error("strategy heap: no error")
	}
	var fe *replay.FormatError
	if _, err := NewReplay([]byte("PRPX"), ""); !errors.As(err, &fe) {
		t.Errorf("a file that is no replay: %v", err)
	}
}

// TestReplayDiffers: a replay that differs from its recording stops at
// the first checksum that differs and says why; it refuses to go on but
// seeks back.
func TestReplayDiffers(t *testing.T) {
	data := recorded(t, 8, 1500)
	rd, err := replay.NewReader(data)
	if err != nil {
		t.Fatal(err)
	}
	var flip replay.Event
	for flip.Step < 600 || flip.Kind != replay.Input || flip.Steps == 0 || flip.In.Hyperspace {
		if flip, err = rd.Next(); err != nil {
			t.Fatalf("no input to flip after step 600: %v", err)
		}
	}
	data[flip.Offset] ^= 16 // hyperspace: it always moves a living ship
	due := (flip.Step/replay.DefaultEvery + 1) * replay.DefaultEvery

	r, _ := newReplay(t, data, "")
	for range 4 {
		r.Faster()
	}
	ticks(r, 100)
	var m *replay.MismatchError
	if v := replayView(r); v.Replay.State != ReplayDiffers || !errors.As(v.Replay.Err, &m) || m.Step != due || v.Replay.Step != due {
		t.Fatalf("stopped at step %d, %v, with %v; want a mismatch at step %d", v.Replay.Step, v.Replay.State, v.Replay.Err, due)
	}
	for name, err := range map[string]error{"pause": r.TogglePause(), "step": r.StepOnce(), "seek on": r.Seek(10)} {
		if !errors.Is(err, ErrDiffers) {
			t.Errorf("%s: %v, want ErrDiffers", name, err)
		}
	}
	if err := r.Seek(-int(due)); err != nil {
		t.Fatal(err)
	}
	seekDone(t, r)
	if v := replayView(r); v.Replay.State != ReplayPlaying || v.Replay.Err != nil || v.Replay.Step != 0 {
		t.Errorf("seek back to the start: %v at %d, %v", v.Replay.State, v.Replay.Step, v.Replay.Err)
	}
}

// TestReplayDiffersAtTheEnd: a final checksum that differs shows at the
// end, however fast the ticks overshoot it.
func TestReplayDiffersAtTheEnd(t *testing.T) {
	data := recorded(t, 8, 1001)
	data[len(data)-1] ^= 1
	r, _ := newReplay(t, data, "")
	for range 4 {
		r.Faster()
	}
	ticks(r, 100)
	if v := replayView(r); v.Replay.State != ReplayDiffers || v.Replay.Step != 1001 {
		t.Errorf("at step %d: %v, %v; want the mismatch at step 1001", v.Replay.Step, v.Replay.State, v.Replay.Err)
	}
}

// TestReplayNames: the names by slot are the header's, then each
// join's, at the step on screen, and again the header's after a seek
// back.
func TestReplayNames(t *testing.T) {
	rec, err := replay.NewRecorder(game.Config{Seed: 9, Ships: 3}, replay.Options{Players: []string{"ann"}})
	if err != nil {
		t.Fatal(err)
	}
	var in game.Inputs
	for i := range 300 {
		switch i {
		case 100:
			if err := rec.Join(1, "bob"); err != nil {
				t.Fatal(err)
			}
		case 150:
			rec.Leave(1)
		case 200:
			if err := rec.Join(1, "cy"); err != nil {
				t.Fatal(err)
			}
		}
		rec.Step(&in)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	r, _ := newReplay(t, rec.Bytes(), "")
	for _, c := range []struct {
		seek int
		want [3]string
	}{
		{50, [3]string{"ann", "", ""}},
		{100, [3]string{"ann", "bob", ""}},
		{100, [3]string{"ann", "cy", ""}},
		{-200, [3]string{"ann", "", ""}},
	} {
		r.Seek(c.seek)
		seekDone(t, r)
		v := replayView(r)
		if v.Ship != -1 {
			t.Errorf("an arena's replay shows ship %d, want none (-1)", v.Ship)
		}
		if got := [3]string(v.Names[:3]); got != c.want {
			t.Errorf("at step %d: %q, want %q", v.Replay.Step, got, c.want)
		}
	}
}

// TestReplayAllocs: a tick, a single step and a look at the replay
// allocate nothing in steady state.
func TestReplayAllocs(t *testing.T) {
	r, _ := newReplay(t, recorded(t, 10, 3000), "")
	ticks(r, 100)
	var step uint64
	fn := func(v View) { step += v.Replay.Step }
	if n := testing.AllocsPerRun(50, func() { r.Tick(); r.View(fn) }); n != 0 {
		t.Errorf("a tick and a view: %v allocs, want 0", n)
	}
	if n := testing.AllocsPerRun(50, func() { _ = r.StepOnce() }); n != 0 {
		t.Errorf("a single step: %v allocs, want 0", n)
	}
}

// TestReplayWhose: a replay's header names whose game it is: its player,
// or an arena's first players and how many more.
func TestReplayWhose(t *testing.T) {
	r, _ := newReplay(t, recorded(t, 3, 60), "")
	if got := r.Whose(); got != "autopilot's game" {
		t.Errorf("a solo replay's Whose = %q, want \"autopilot's game\"", got)
	}
	for _, tt := range []struct {
		players []string
		want    string
	}{
		{nil, ""},
		{[]string{"ann"}, "arena: ann"},
		{[]string{"ann", "bob"}, "arena: ann, bob"},
		{[]string{"ann", "bob", "cy", "di"}, "arena: ann, bob +2"},
	} {
		if got := whose(tt.players, 4); got != tt.want {
			t.Errorf("an arena of %q: Whose = %q, want %q", tt.players, got, tt.want)
		}
	}
	data := replaytest.Record(t, game.Config{Seed: 3, Ships: 4}, replay.Options{}, 60)
	if r, _ := newReplay(t, data, ""); r.Whose() != "arena: autopilot 0, autopilot 1 +2" {
		t.Errorf("an arena of four autopilots: Whose = %q", r.Whose())
	}
}
