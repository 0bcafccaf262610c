package replay_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	"poolroids/game"
	"poolroids/game/replay"
	"poolroids/levels"
	"poolroids/pool"
)

// A recorded autopilot game, restarts included, replays to every recorded
// checksum and the same final world with every strategy held throughout.
func TestReplayEveryStrategy(t *testing.T) {
	t.Parallel()
	data, want := autopilotGame(t, game.Config{Seed: 7}, replay.Options{}, 3000, true, 0)
	for _, s := range pool.Strategies() {
		t.Run(string(s), func(t *testing.T) {
			p, err := replay.NewPlayer(data, s)
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			w := p.World()
			if got := w.Checksum(); got != want {
				t.Errorf("final checksum %016x, recorded game ended at %016x", got, want)
			}
			if p.Steps() != 3000 || w.Bullets().Strategy() != s {
				t.Errorf("played %d steps with %s, want 3000 with %s", p.Steps(), w.Bullets().Strategy(), s)
			}
		})
	}
}

// A game recorded while switching strategies replays with the recorded
// switches, and also when the replay switches at other steps of its own.
func TestReplayWithSwitches(t *testing.T) {
	t.Parallel()
	data, want := autopilotGame(t, game.Config{Seed: 11}, replay.Options{Every: 100}, 2500, false, 170)
	f, err := replay.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if f.Steps != 2500 || f.Sum != want {
		t.Fatalf("Decode: %d steps ending at %016x, want 2500 ending at %016x", f.Steps, f.Sum, want)
	}

	p, err := replay.NewPlayer(data, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Run(context.Background()); err != nil {
		t.Fatalf("with the recorded switches: %v", err)
	}
	last := pool.Strategies()[(2500/170-1)%len(pool.Strategies())]
	if got := p.World().Debris().Strategy(); got != last {
		t.Errorf("after the recorded switches the debris pool uses %s, want %s", got, last)
	}

	p, err = replay.NewPlayer(data, pool.Scan)
	if err != nil {
		t.Fatal(err)
	}
	strategies := pool.Strategies()
	for i := 0; ; i++ {
		if i%37 == 0 {
			if err := p.World().SetStrategy(strategies[(i/37)%len(strategies)]); err != nil {
				t.Fatal(err)
			}
		}
		err := p.Step()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("switching every 37 steps while replaying: %v", err)
		}
	}
	if got := p.World().Checksum(); got != want {
		t.Errorf("final checksum %016x, want %016x", got, want)
	}
}

// One input changed in the file makes the replay fail at the first
// checksum after it, naming the step, with the last one that matched
// before it.
func TestFlippedInput(t *testing.T) {
	t.Parallel()
	data, _ := autopilotGame(t, game.Config{Seed: 3}, replay.Options{}, 1200, false, 0)
	var flip replay.Event
	for _, ev := range events(t, data) {
		if ev.Kind == replay.Input && ev.Step >= 300 && ev.Steps > 0 && !ev.In.Hyperspace {
			flip = ev
			break
		}
	}
	if flip.Step == 0 {
		t.Fatal("no input event after step 300")
	}
	bad := bytes.Clone(data)
	bad[flip.Offset] ^= 16 // hyperspace: it always moves a living ship
	p, err := replay.NewPlayer(bad, "")
	if err != nil {
		t.Fatal(err)
	}
	err = p.Run(context.Background())
	var m *replay.MismatchError
	if !errors.As(err, &m) {
		t.Fatalf("Run = %v, want a *MismatchError", err)
	}
	// The flipped op plays steps flip.Step+1 onwards.
	if !(m.Matched <= flip.Step && flip.Step < m.Step && m.Step <= m.Matched+replay.DefaultEvery) {
		t.Errorf("mismatch at step %d (matched at %d), want the first checksum after step %d", m.Step, m.Matched, flip.Step+1)
	}
	if m.Want == m.Got {
		t.Errorf("mismatch with equal checksums %016x", m.Want)
	}
}

// The same game recorded to memory and through a writer gives the same
// bytes, and its header gives back what was recorded.
func TestRecordToWriter(t *testing.T) {
	t.Parallel()
	set := levels.Default()
	cfg := game.Config{Levels: set, Seed: 5, Strategy: pool.Bitset, Bullets: 80}
	mem, _ := autopilotGame(t, cfg, replay.Options{Players: []string{"bob"}, Every: 64}, 1000, true, 0)
	var buf bytes.Buffer
	out, _ := autopilotGame(t, cfg, replay.Options{Out: &buf, Players: []string{"bob"}, Every: 64}, 1000, true, 0)
	if out != nil {
		t.Errorf("Bytes with Out set = %d bytes, want nil", len(out))
	}
	if !bytes.Equal(buf.Bytes(), mem) {
		t.Fatalf("written file (%d bytes) differs from the one in memory (%d bytes)", buf.Len(), len(mem))
	}
	f, err := replay.Decode(mem)
	if err != nil {
		t.Fatal(err)
	}
	h := f.Header
	if h.Version != replay.Version || h.Build != replay.Build() || h.Seed != 5 || h.Strategy != pool.Bitset ||
		h.Bullets != 80 || h.Debris != set.Debris || h.Every != 64 || h.Ships != 1 ||
		!reflect.DeepEqual(h.Players, []string{"bob"}) || !reflect.DeepEqual(h.Levels, set) {
		t.Errorf("header = %+v", h)
	}
	if f.Steps != 1000 || !reflect.DeepEqual(f.Names, []string{"bob"}) {
		t.Errorf("Decode: %d steps, players %q; want 1000, [bob]", f.Steps, f.Names)
	}
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// A writer's error comes back from Close, and the game went on regardless.
func TestRecordWriteError(t *testing.T) {
	t.Parallel()
	rec, err := replay.NewRecorder(game.Config{Seed: 1}, replay.Options{Out: failWriter{}, Every: 16})
	if err != nil {
		t.Fatal(err)
	}
	var in game.Inputs
	for range 200 {
		rec.Step(&in)
	}
	if err := rec.Close(); err == nil || rec.World().Steps() != 200 {
		t.Errorf("Close = %v after %d steps, want the write error after 200", err, rec.World().Steps())
	}
}

// Recording a step allocates nothing, in memory and through a writer,
// checksums and hand-overs to the writer included.
func TestRecorderAllocs(t *testing.T) {
	for _, tc := range []struct {
		name string
		out  io.Writer
	}{{"memory", nil}, {"writer", io.Discard}} {
		t.Run(tc.name, func(t *testing.T) {
			rec, err := replay.NewRecorder(game.Config{Seed: 9}, replay.Options{Out: tc.out, Every: 16})
			if err != nil {
				t.Fatal(err)
			}
			defer rec.Close()
			ap := game.Autopilot{Pressure: true}
			var in inputs
			step := func() {
				in[0] = ap.Input(rec.World())
				rec.Step(&in)
			}
			for range 200 { // let the pools and buffers settle
				step()
			}
			// A run is one checksum period, hand-over included: an
			// allocation per period counts whole, while the runtime's own
			// rare ones (its timer heap, under -race) average away. The
			// writer gets its turn after each period, as it would on a
			// core of its own, so chunks come back and are filled again.
			period := func() {
				for range 16 {
					step()
				}
				runtime.Gosched()
			}
			if n := testing.AllocsPerRun(100, period); n != 0 {
				t.Errorf("%v allocations per 16 recorded steps, want 0", n)
			}
		})
	}
}

// A paused world takes no step, and the recording none either.
func TestRecordPaused(t *testing.T) {
	t.Parallel()
	rec, err := replay.NewRecorder(game.Config{Seed: 2}, replay.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var in game.Inputs
	in[0].Thrust = true
	for i := range 300 {
		rec.World().SetPaused(i%3 == 0)
		rec.Step(&in)
	}
	if p := playBack(t, rec); p.Steps() != 200 {
		t.Errorf("replay played %d steps, want 200", p.Steps())
	}
}

// The format stores every field of a level set: a field added to levels
// must be added to the format (and its version raised).
func TestLevelFieldsCovered(t *testing.T) {
	if n := reflect.TypeFor[levels.Level]().NumField(); n != 14 {
		t.Errorf("levels.Level has %d fields, the format stores 14", n)
	}
	if n := reflect.TypeFor[levels.Set]().NumField(); n != 7 {
		t.Errorf("levels.Set has %d fields, the format stores 7", n)
	}
	if n := reflect.TypeFor[levels.Saucers]().NumField(); n != 8 {
		t.Errorf("levels.Saucers has %d fields, the format stores 8", n)
	}
}

// Size targets: a minute of play by hand in at most 2 KiB, a minute of the
// stress autopilot in at most 8 KiB.
func TestSizePerMinute(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{1, 2, 3} {
		if n := len(byHand(t, seed)); n > 2<<10 {
			t.Errorf("a minute by hand (seed %d) takes %d bytes, want <= 2048", seed, n)
		} else {
			t.Logf("a minute by hand (seed %d): %d bytes", seed, n)
		}
	}
	if n := len(stressGame(t)); n > 8<<10 {
		t.Errorf("a minute of the stress autopilot takes %d bytes, want <= 8192", n)
	} else {
		t.Logf("a minute of the stress autopilot: %d bytes", n)
	}
}

// A caller stepping the world itself with Next plays the same game.
func TestNext(t *testing.T) {
	t.Parallel()
	data, want := autopilotGame(t, game.Config{Seed: 12}, replay.Options{Every: 60}, 700, true, 0)
	p, err := replay.NewPlayer(data, pool.Dense)
	if err != nil {
		t.Fatal(err)
	}
	for {
		in, err := p.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		p.World().StepAll(in)
	}
	if got := p.World().Checksum(); p.Steps() != 700 || got != want {
		t.Errorf("%d steps ending at %016x, want 700 ending at %016x", p.Steps(), got, want)
	}
}

// Replaying a step allocates nothing.
func TestPlayerAllocs(t *testing.T) {
	data, _ := autopilotGame(t, game.Config{Seed: 13}, replay.Options{Every: 1}, 3000, true, 0)
	p, err := replay.NewPlayer(data, "")
	if err != nil {
		t.Fatal(err)
	}
	for range 200 {
		if err := p.Step(); err != nil {
			t.Fatal(err)
		}
	}
	n := testing.AllocsPerRun(2000, func() {
		if err := p.Step(); err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 {
		t.Errorf("%v allocations per replayed step, each with a checksum, want 0", n)
	}
}

// Inputs of slots the world does not have are neither played nor recorded.
func TestRecordSlotsBeyondShips(t *testing.T) {
	t.Parallel()
	rec, err := replay.NewRecorder(game.Config{Seed: 6, Ships: 2}, replay.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Join(1, "bea"); err != nil {
		t.Fatal(err)
	}
	var in inputs
	for i := range 400 {
		in[1].Thrust = i%50 < 20
		in[5].Fire = i%2 == 0
		rec.Step(&in)
	}
	playBack(t, rec)
}

// lockedBuffer is a bytes.Buffer the writer goroutine and the test share.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

// With Out, what is recorded reaches the writer every Every steps, before
// Close: a game cut short by a crash keeps all but its last seconds.
func TestRecordFlushesAsItGoes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var out lockedBuffer
		rec, err := replay.NewRecorder(game.Config{Seed: 4}, replay.Options{Out: &out, Every: 100})
		if err != nil {
			t.Fatal(err)
		}
		var in inputs
		for i := range 250 {
			in[0].Fire = i%7 < 3
			rec.Step(&in)
		}
		synctest.Wait() // the writer has written what it was handed
		early := out.Bytes()
		r, err := replay.NewReader(early)
		if err != nil {
			t.Fatalf("after 250 steps the writer has %d bytes: %v", len(early), err)
		}
		var last replay.Event
		for {
			ev, err := r.Next()
			if err != nil {
				break // the rest is not written yet
			}
			last = ev
		}
		if last.Kind != replay.Checksum || last.Step != 200 || r.Offset() != len(early) {
			t.Errorf("written before Close: up to %v at step %d, %d of %d bytes read; want the checksum of step 200 last", last.Kind, last.Step, r.Offset(), len(early))
		}
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
		if all := out.Bytes(); !bytes.HasPrefix(all, early) {
			t.Error("the file written by Close does not continue what was written before")
		}
	})
}

// A header asking for larger pools than a level set may is refused by the
// decoder, before the world and its pools are built: a file of a few
// hundred bytes once made the player allocate 2 GB.
func TestHostileCapacity(t *testing.T) {
	rec, err := replay.NewRecorder(game.Config{Seed: 1, Strategy: pool.FreeList, Bullets: levels.MaxBullets, Debris: levels.MaxDebris}, replay.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	data := rec.Bytes()
	// Offsets in the header: magic, version, build, seed 1, mode, ships,
	// strategy, then the two capacities, varints of 2 and 3 bytes here.
	bullets := 4 + 1 + 1 + len(replay.Build()) + 1 + 1 + 1 + 1 + len(pool.FreeList)
	debris := bullets + 2
	huge := binary.AppendUvarint(nil, pool.MaxCapacity)
	for _, tc := range []struct {
		name      string
		at, width int
		want      string
	}{
		{"bullets", bullets, 2, fmt.Sprintf("byte %d: want the bullet capacity 1..4096, found 16777216", bullets)},
		{"debris", debris, 3, fmt.Sprintf("byte %d: want the debris capacity 1..65536, found 16777216", debris)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := slices.Concat(data[:tc.at], huge, data[tc.at+tc.width:])
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := replay.NewPlayer(bad, "")
			runtime.ReadMemStats(&after)
			if err == nil || err.Error() != tc.want {
				t.Errorf("NewPlayer: %v, want %q", err, tc.want)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
				t.Errorf("refusing the file allocated %d bytes, want under 1 MiB: a pool was made", got)
			}
		})
	}
}

// What the decoder refuses, the recorder does not write.
func TestRecordCapacityBound(t *testing.T) {
	t.Parallel()
	for _, cfg := range []game.Config{{Bullets: levels.MaxBullets + 1}, {Debris: levels.MaxDebris + 1}} {
		if _, err := replay.NewRecorder(cfg, replay.Options{}); err == nil || !strings.Contains(err.Error(), "cannot be recorded, allowed up to 4096 and 65536") {
			t.Errorf("NewRecorder(bullets %d, debris %d): %v, want refused", cfg.Bullets, cfg.Debris, err)
		}
	}
}

// AutoplayGame plays one game to its end and stops there, or stops at
// its steps: the recording replays to the same world, over or left.
func TestAutoplayGame(t *testing.T) {
	t.Parallel()
	for _, steps := range []int{600, 1 << 20} {
		rec, err := replay.NewRecorder(game.Config{Seed: 5, Ships: 1}, replay.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := replay.AutoplayGame(t.Context(), rec, steps); err != nil {
			t.Fatal(err)
		}
		over := rec.World().Phase() == game.GameOver
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
		if n := rec.Steps(); over == (n == uint64(steps)) || n > uint64(steps) {
			t.Errorf("-steps %d: %d steps recorded, game over %v", steps, n, over)
		}
		p, err := replay.NewPlayer(rec.Bytes(), "")
		if err == nil {
			err = p.Run(t.Context())
		}
		if err != nil || p.World().Checksum() != rec.World().Checksum() || (p.World().Phase() == game.GameOver) != over {
			t.Errorf("-steps %d: replayed %v, another world", steps, err)
		}
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	rec, _ := replay.NewRecorder(game.Config{Seed: 5, Ships: 1}, replay.Options{})
	if err := replay.AutoplayGame(ctx, rec, 100); !errors.Is(err, context.Canceled) || rec.Steps() != 0 {
		t.Errorf("cancelled: %v, %d steps", err, rec.Steps())
	}
}
