package game_test

import (
	"fmt"

	"poolroids/game"
	"poolroids/pool"
)

// Two worlds from the same seed, fed the same inputs, stay identical step
// for step even though one switches its pools' strategy mid-game.
func Example() {
	a, err := game.New(game.Config{Seed: 2024, Strategy: pool.FreeList})
	if err != nil {
		panic(err)
	}
	b, err := game.New(game.Config{Seed: 2024, Strategy: pool.Dense})
	if err != nil {
		panic(err)
	}
	ap := game.Autopilot{Pressure: true}
	same := true
	for i := range 10 * game.TPS {
		if i == 5*game.TPS {
			if err := b.SetStrategy(pool.Bitset); err != nil {
				panic(err)
			}
		}
		in := ap.Input(a)
		a.Step(in)
		b.Step(in)
		same = same && a.Checksum() == b.Checksum()
	}
	fmt.Println("steps:", a.Steps())
	fmt.Println("same world every step:", same)
	fmt.Println("strategies:", a.Bullets().Strategy(), b.Bullets().Strategy())
	// Output:
	// steps: 600
	// same world every step: true
	// strategies: freelist bitset
}
