package stress_test

import (
	"context"
	"fmt"
	"log"

	"poolroids/game/stress"
	"poolroids/pool"
)

// Run two strategies on the same game and check the report before reading
// its figures: every run played the same game, and neither pooled strategy
// allocated.
func ExampleRun() {
	rep, err := stress.Run(context.Background(), stress.Config{
		Strategies: []pool.Strategy{pool.FreeList, pool.Dense},
		Seed:       1,
		Steps:      120,
		Warmup:     60,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("same game in every run:", rep.ChecksumsEqual)
	allocs := 0.0
	for _, r := range rep.Runs {
		allocs = max(allocs, r.AllocsPerStep)
	}
	fmt.Println("allocations per step:", allocs)
	// (rep.WriteTable(os.Stdout) prints the table and the chart.)

	// Output:
	// same game in every run: true
	// allocations per step: 0
}
