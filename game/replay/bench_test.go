package replay_test

import (
	"context"
	"io"
	"testing"

	"poolroids/game"
	"poolroids/game/replay"
	"poolroids/game/replay/replaytest"
)

// BenchmarkReplay replays a minute of game headless, checksums included:
// steps/s is the replay speed of `poolroids replay --check`.
func BenchmarkReplay(b *testing.B) {
	for _, bc := range []struct {
		name string
		data []byte
	}{{"hand", byHand(b, 1)}, {"stress", stressGame(b)}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			steps := 0
			for b.Loop() {
				p, err := replay.NewPlayer(bc.data, "")
				if err != nil {
					b.Fatal(err)
				}
				if err := p.Run(context.Background()); err != nil {
					b.Fatal(err)
				}
				steps += int(p.Steps())
			}
			b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
		})
	}
}

// BenchmarkRecord is what recording adds to a game: a minute of the
// autopilot from a new world, played on the world alone ("play") and
// through a Recorder writing to a discarding writer ("record").
func BenchmarkRecord(b *testing.B) {
	const steps = 60 * game.TPS
	cfg := game.Config{Seed: 1}
	b.Run("play", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			w, err := game.New(cfg)
			if err != nil {
				b.Fatal(err)
			}
			ap := game.Autopilot{}
			for range steps {
				if w.Phase() == game.GameOver {
					w.Restart()
					ap = game.Autopilot{}
				}
				w.Step(ap.Input(w))
			}
		}
	})
	b.Run("record", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rec, err := replay.NewRecorder(cfg, replay.Options{Out: io.Discard})
			if err != nil {
				b.Fatal(err)
			}
			if err := replay.Autoplay(context.Background(), rec, steps, false); err != nil {
				b.Fatal(err)
			}
			if err := rec.Close(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkGhost is what a ghost costs a live game: three minutes of the
// autopilot on the shipped levels, stepped as a world with the recorded
// inputs ("world": the live game's own step) and as a Ghost of its replay
// ("ghost": what flying it beside costs), world or ghost built afresh each
// time. ns/step compares them.
func BenchmarkGhost(b *testing.B) {
	const steps = 3 * 60 * game.TPS
	cfg := game.Config{Seed: 1}
	data, end := autopilotGame(b, cfg, replay.Options{Players: []string{"ann"}}, steps, false, 0)
	ins := replaytest.Inputs(b, data)
	b.Run("world", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			w, err := game.New(cfg)
			if err != nil {
				b.Fatal(err)
			}
			for i := range ins {
				w.StepAll(&ins[i])
			}
			if w.Checksum() != end {
				b.Fatal("the world played another game than the recorded one: the autopilot's restarted")
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*steps), "ns/step")
	})
	b.Run("ghost", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			g, err := replay.NewGhost(data)
			if err != nil {
				b.Fatal(err)
			}
			for range steps {
				g.Step()
			}
			if g.Err() != nil || g.Steps() != steps {
				b.Fatalf("the ghost stopped at step %d: %v", g.Steps(), g.Err())
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*steps), "ns/step")
	})
}
