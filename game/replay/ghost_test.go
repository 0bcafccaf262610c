package replay_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"testing"

	"poolroids/game"
	"poolroids/game/replay"
	"poolroids/pool"
)

// shipTrace returns the ship of data's solo game after every step, index
// 0 the start.
func shipTrace(t *testing.T, data []byte) []game.Ship {
	t.Helper()
	p, err := replay.NewPlayer(data, "")
	if err != nil {
		t.Fatal(err)
	}
	ships := []game.Ship{p.World().Ship()}
	for p.Steps() < p.File().Steps {
		if err := p.Step(); err != nil {
			t.Fatal(err)
		}
		ships = append(ships, p.World().Ship())
	}
	return ships
}

// ghostGame records steps of the autopilot named name: a ghost to fly.
func ghostGame(t *testing.T, seed uint64, name string, steps int) []byte {
	t.Helper()
	b, _ := autopilotGame(t, game.Config{Seed: seed}, replay.Options{Players: []string{name}}, steps, false, 0)
	return b
}

// checkGhost fails unless g flies as the ghost of the replay traced in
// want does at step: at that step of its game, or gone past its end.
func checkGhost(t *testing.T, g *replay.Ghost, want []game.Ship, step uint64) {
	t.Helper()
	if step >= uint64(len(want)) { // past its last step
		if !g.Done() || g.Visible() || g.Err() != nil {
			t.Fatalf("step %d, after the ghost's %d: done %v, visible %v, err %v; want it gone", step, len(want)-1, g.Done(), g.Visible(), g.Err())
		}
		return
	}
	if g.Steps() != step || g.Ship() != want[step] || g.Visible() != want[step].Alive || g.Player().Ship != want[step] {
		t.Fatalf("step %d: the ghost is at step %d, ship %+v visible %v; want %+v", step, g.Steps(), g.Ship(), g.Visible(), want[step])
	}
}

// A ghost set at the start flies beside the recorded game step for step,
// changes nothing in it, vanishes when its replay ends, and flies again
// the same in a Watch of the recording.
func TestGhostFlies(t *testing.T) {
	t.Parallel()
	const ghostSteps, steps = 900, 1400
	ghost := ghostGame(t, 21, "ann", ghostSteps)
	want := shipTrace(t, ghost)

	record := func(withGhost bool) *replay.Recorder {
		rec, err := replay.NewRecorder(game.Config{Seed: 22}, replay.Options{Players: []string{"bob"}})
		if err != nil {
			t.Fatal(err)
		}
		if withGhost {
			if err := rec.SetGhost(ghost); err != nil {
				t.Fatal(err)
			}
			if g := rec.Ghost(); g == nil || g.Name() != "ann" || g.Len() != ghostSteps {
				t.Fatalf("Ghost() = %+v, want ann's of %d steps", g, ghostSteps)
			}
			checkGhost(t, rec.Ghost(), want, 0)
		}
		ap := game.Autopilot{}
		var in inputs
		for i := range steps {
			in[0] = ap.Input(rec.World())
			rec.Step(&in)
			if withGhost {
				checkGhost(t, rec.Ghost(), want, uint64(i+1))
			}
		}
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
		return rec
	}
	with, without := record(true), record(false)
	if a, b := with.World().Checksum(), without.World().Checksum(); a != b {
		t.Fatalf("with a ghost the game ended at %016x, without at %016x", a, b)
	}
	if extra := len(with.Bytes()) - len(without.Bytes()); extra <= len(ghost) || extra > len(ghost)+8 {
		t.Errorf("the ghost costs the file %d bytes, want its replay's %d and a few", extra, len(ghost))
	}

	w, err := replay.NewWatch(with.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if w.Ghost() != nil {
		t.Fatal("a ghost flies before the first step of the Watch")
	}
	for w.Step() < steps {
		w.StepOnce()
		checkGhost(t, w.Ghost(), want, w.Step())
	}
	if w.Err() != nil {
		t.Fatal(w.Err())
	}
}

// Ghosts switched during a game fly each at the game's step, the file
// carries each replay once, and a Watch shows the same ghosts at the same
// steps, seeks back and forth included.
func TestGhostSwitch(t *testing.T) {
	t.Parallel()
	a, b := ghostGame(t, 21, "ann", 700), ghostGame(t, 23, "cy", 800)
	traces := map[string][]game.Ship{"ann": shipTrace(t, a), "cy": shipTrace(t, b)}
	switches := map[int][]byte{0: a, 100: b, 250: a, 400: nil, 500: b}
	flying := make([]string, 0, 701) // the ghost's name after each step; "" none

	rec, err := replay.NewRecorder(game.Config{Seed: 24}, replay.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var in inputs
	in[0] = game.Input{Left: true, Fire: true}
	flying = append(flying, "")
	for i := range 700 {
		if data, ok := switches[i]; ok {
			if err := rec.SetGhost(data); err != nil {
				t.Fatal(err)
			}
			if err := rec.SetGhost(data); err != nil { // again: nothing changes
				t.Fatal(err)
			}
		}
		rec.Step(&in)
		name := ""
		if g := rec.Ghost(); g != nil {
			name = g.Name()
			checkGhost(t, g, traces[name], uint64(i+1))
		}
		flying = append(flying, name)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	data := rec.Bytes()

	var numbers []int
	brought := 0
	for _, ev := range events(t, data) {
		if ev.Kind == replay.SetGhost {
			numbers = append(numbers, ev.Ghost)
			if ev.Data != nil {
				brought++
			}
		}
	}
	if want := []int{1, 2, 1, 0, 2}; !slices.Equal(numbers, want) || brought != 2 {
		t.Errorf("ghost ops %v bringing %d replays, want %v bringing 2", numbers, brought, want)
	}

	w, err := replay.NewWatch(data)
	if err != nil {
		t.Fatal(err)
	}
	check := func() {
		t.Helper()
		g, name := w.Ghost(), flying[w.Step()]
		if name == "" {
			if g != nil {
				t.Fatalf("step %d: ghost %s flies, want none", w.Step(), g.Name())
			}
			return
		}
		if g == nil || g.Name() != name {
			t.Fatalf("step %d: ghost %v, want %s", w.Step(), g, name)
		}
		checkGhost(t, g, traces[name], w.Step())
	}
	for _, to := range []uint64{150, 120, 450, 300, 650, 99, 700} {
		if err := w.Seek(to); err != nil {
			t.Fatal(err)
		}
		check()
	}
	if err := w.Seek(0); err != nil {
		t.Fatal(err)
	}
	for w.Step() < 700 {
		w.StepOnce()
		check()
	}
}

// A game flown beside a ghost, taken as a ghost itself, is carried
// without its own ghost: ghosts do not nest, and its game is the same.
func TestGhostNotNested(t *testing.T) {
	t.Parallel()
	first := ghostGame(t, 21, "ann", 300)
	rec, err := replay.NewRecorder(game.Config{Seed: 25}, replay.Options{Players: []string{"bob"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.SetGhost(first); err != nil {
		t.Fatal(err)
	}
	if err := replay.Autoplay(t.Context(), rec, 400, false); err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	second := rec.Bytes()

	rec, err = replay.NewRecorder(game.Config{Seed: 26}, replay.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.SetGhost(second); err != nil {
		t.Fatal(err)
	}
	third := rec.Snapshot()
	var carried []byte
	for _, ev := range events(t, third) {
		if ev.Data != nil {
			carried = ev.Data
		}
	}
	if carried == nil || len(carried) >= len(second)-len(first) {
		t.Fatalf("carried a ghost of %d bytes, want bob's %d without ann's %d", len(carried), len(second), len(first))
	}
	for _, ev := range events(t, carried) {
		if ev.Kind == replay.SetGhost {
			t.Fatalf("the carried ghost has a ghost op of its own: %+v", ev)
		}
	}
	f1, err1 := replay.Decode(second)
	f2, err2 := replay.Decode(carried)
	if err1 != nil || err2 != nil || f1.Steps != f2.Steps || f1.Sum != f2.Sum || f2.Players[0] != "bob" {
		t.Fatalf("bob's game carried plays %+v (%v), want %+v (%v)", f2, err2, f1, err1)
	}
}

// What cannot fly is refused and not recorded: an arena's replay, bytes
// that are no replay, a fifth ghost, a replay over MaxGhost bytes, and
// any ghost after Close.
func TestGhostRefused(t *testing.T) {
	t.Parallel()
	rec, err := replay.NewRecorder(game.Config{Seed: 27}, replay.Options{})
	if err != nil {
		t.Fatal(err)
	}
	arena, _ := tinyFile(t, 2, false)
	huge := hugeFile(t)
	before := bytes.Clone(rec.Bytes())
	var fe *replay.FormatError
	for _, tc := range []struct {
		name string
		data []byte
	}{{"arena", arena}, {"junk", []byte("PRPL junk")}, {"huge", huge}} {
		if err := rec.SetGhost(tc.data); err == nil {
			t.Errorf("%s: SetGhost took it", tc.name)
		} else if tc.name == "junk" && !errors.As(err, &fe) {
			t.Errorf("junk: %v, want a *FormatError", err)
		}
	}
	if !bytes.Equal(rec.Bytes(), before) || rec.Ghost() != nil {
		t.Fatal("a refused ghost was recorded")
	}
	for i := range replay.MaxGhosts {
		if err := rec.SetGhost(ghostGame(t, uint64(40+i), "g", 10)); err != nil {
			t.Fatalf("ghost %d: %v", i+1, err)
		}
	}
	if err := rec.SetGhost(ghostGame(t, 50, "g", 10)); err == nil {
		t.Errorf("a ghost more than MaxGhosts (%d) was taken", replay.MaxGhosts)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if err := rec.SetGhost(nil); err == nil {
		t.Error("SetGhost after Close: nil error")
	}
	if _, err := replay.Decode(rec.Bytes()); err != nil {
		t.Fatal(err)
	}
}

// hugeFile is a solo replay over MaxGhost bytes: strategy switches, some
// twenty bytes each, and no step.
func hugeFile(t *testing.T) []byte {
	t.Helper()
	rec, err := replay.NewRecorder(game.Config{Seed: 3}, replay.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for len(rec.Bytes()) <= replay.MaxGhost {
		if err := rec.SetStrategies(pool.ActiveList, pool.ListRemove); err != nil {
			t.Fatal(err)
		}
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	return rec.Bytes()
}

// A file of an earlier version, played under the rules before the fair
// saucers, is refused, saying so: it would not replay the same.
func TestOlderVersions(t *testing.T) {
	t.Parallel()
	data := smallGame(t)
	if data[4] != replay.Version {
		t.Fatalf("byte 4 is %d, want the version %d", data[4], replay.Version)
	}
	for v := byte(1); v < replay.OldestVersion; v++ {
		data[4] = v
		want := fmt.Sprintf("byte 4: want format version %d, found %d: an older poolroids wrote it, under rules this one no longer plays", replay.Version, v)
		if _, err := replay.NewPlayer(data, ""); err == nil || err.Error() != want {
			t.Errorf("version %d: %v, want %q", v, err, want)
		}
	}
}

// A ghost's step allocates nothing, and neither does recording a step
// with a ghost flying.
func TestGhostAllocs(t *testing.T) {
	ghost := ghostGame(t, 21, "ann", 3000)
	g, err := replay.NewGhost(ghost)
	if err != nil {
		t.Fatal(err)
	}
	for range 200 {
		g.Step()
	}
	if n := testing.AllocsPerRun(1000, g.Step); n != 0 {
		t.Errorf("%v allocations per ghost step, want 0", n)
	}
	rec, err := replay.NewRecorder(game.Config{Seed: 9}, replay.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.SetGhost(ghost); err != nil {
		t.Fatal(err)
	}
	var in inputs
	in[0].Fire = true
	for range 300 {
		rec.Step(&in)
	}
	if n := testing.AllocsPerRun(1000, func() { rec.Step(&in) }); n != 0 {
		t.Errorf("%v allocations per recorded step with a ghost, want 0", n)
	}
	if g := rec.Ghost(); g.Err() != nil || g.Steps() != 1301 {
		t.Fatalf("the recorder's ghost at step %d, err %v; want step 1301 (300 and the 1001 of AllocsPerRun)", g.Steps(), g.Err())
	}
}

// A ghost whose replay plays another game on this build ends at the
// mismatch, with it.
func TestGhostMismatch(t *testing.T) {
	t.Parallel()
	data := ghostGame(t, 21, "ann", 600)
	evs := events(t, data)
	var sum int
	for _, ev := range evs {
		if ev.Kind == replay.Checksum && ev.Step == 512 {
			sum = ev.Offset + 1
		}
	}
	data[sum] ^= 1
	g, err := replay.NewGhost(data)
	if err != nil {
		t.Fatal(err)
	}
	for range 600 {
		g.Step()
	}
	var m *replay.MismatchError
	if !g.Done() || g.Visible() || !errors.As(g.Err(), &m) || m.Step != 512 || g.Steps() != 512 {
		t.Fatalf("done %v at step %d: %v; want a mismatch at step 512", g.Done(), g.Steps(), g.Err())
	}
	if errors.Is(g.Err(), io.EOF) {
		t.Fatal("the mismatch is io.EOF")
	}
}
