package replay_test

import (
	"context"
	"io"
	"testing"

	"poolroids/game"
	"poolroids/game/replay"
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
