// Package replaytest makes replays for tests of what plays them: a
// recording of the autopilot whose pools switch strategy halfway, the
// checksum a reference Player reaches at a step of it, and the inputs of
// every step of a replay.
package replaytest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"poolroids/game"
	"poolroids/game/replay"
	"poolroids/pool"
)

// Record records steps of the autopilot in a world of cfg, with opt.
// Halfway the pools switch to bitset, as a player's key would.
func Record(tb testing.TB, cfg game.Config, opt replay.Options, steps int) []byte {
	tb.Helper()
	rec, err := replay.NewRecorder(cfg, opt)
	if err != nil {
		tb.Fatal(err)
	}
	ctx := context.Background()
	if err := replay.Autoplay(ctx, rec, steps/2, false); err != nil {
		tb.Fatal(err)
	}
	if err := rec.SetStrategies(pool.Bitset, pool.Bitset); err != nil {
		tb.Fatal(err)
	}
	if err := replay.Autoplay(ctx, rec, steps-steps/2, false); err != nil {
		tb.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		tb.Fatal(err)
	}
	return bytes.Clone(rec.Bytes())
}

// SumAt is the checksum of data's world after step steps, played by a
// Player of its own.
func SumAt(tb testing.TB, data []byte, step uint64) uint64 {
	tb.Helper()
	p, err := replay.NewPlayer(data, "")
	if err != nil {
		tb.Fatal(err)
	}
	for p.Steps() < step {
		if err := p.Step(); err != nil {
			tb.Fatalf("reference player at step %d: %v", p.Steps(), err)
		}
	}
	return p.World().Checksum()
}

// Inputs is every slot's input at each step of data, as a Player hands
// them out: a game to play again in a world of another configuration.
func Inputs(tb testing.TB, data []byte) []game.Inputs {
	tb.Helper()
	p, err := replay.NewPlayer(data, "")
	if err != nil {
		tb.Fatal(err)
	}
	var ins []game.Inputs
	for {
		in, err := p.Next()
		if errors.Is(err, io.EOF) {
			return ins
		}
		if err != nil {
			tb.Fatalf("reference player at step %d: %v", p.Steps(), err)
		}
		ins = append(ins, *in)
		p.World().StepAll(in)
	}
}
