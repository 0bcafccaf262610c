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

// BenchmarkRecordStep is what recording adds to a step: compare "step"
// (the world alone) with "record", keys changing every step.
func BenchmarkRecordStep(b *testing.B) {
	cfg := game.Config{Seed: 1}
	b.Run("step", func(b *testing.B) {
		w, err := game.New(cfg)
		if err != nil {
			b.Fatal(err)
		}
		var in game.Input
		for b.Loop() {
			in.Left = !in.Left
			w.Step(in)
		}
	})
	b.Run("record", func(b *testing.B) {
		rec, err := replay.NewRecorder(cfg, replay.Options{Out: io.Discard})
		if err != nil {
			b.Fatal(err)
		}
		var in game.Inputs
		for b.Loop() {
			in[0].Left = !in[0].Left
			rec.Step(&in)
		}
		rec.Close()
	})
}
