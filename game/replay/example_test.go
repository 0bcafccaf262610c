package replay_test

import (
	"context"
	"fmt"

	"poolroids/game"
	"poolroids/game/replay"
	"poolroids/pool"
)

// Record ten seconds of the autopilot, then replay them with another
// strategy: every recorded checksum matches.
func Example() {
	rec, err := replay.NewRecorder(game.Config{Seed: 2024, Strategy: pool.FreeList}, replay.Options{Players: []string{"ada"}})
	if err != nil {
		panic(err)
	}
	if err := replay.Autoplay(context.Background(), rec, 10*game.TPS, false); err != nil {
		panic(err)
	}
	if err := rec.Close(); err != nil {
		panic(err)
	}

	p, err := replay.NewPlayer(rec.Bytes(), pool.Bitset)
	if err != nil {
		panic(err)
	}
	fmt.Println("players:", p.File().Names)
	fmt.Println("replay:", p.Run(context.Background()))
	fmt.Println("steps:", p.Steps(), "strategy:", p.World().Bullets().Strategy())
	fmt.Println("same game:", p.World().Checksum() == rec.World().Checksum())
	// Output:
	// players: [ada]
	// replay: <nil>
	// steps: 600 strategy: bitset
	// same game: true
}
