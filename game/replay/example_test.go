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

// Watching a replay: a front end ticks the watch at 60 Hz and draws its
// world; the watcher changes the speed, seeks and switches strategy, and
// the game stays the one recorded.
func ExampleWatch() {
	rec, err := replay.NewRecorder(game.Config{Seed: 7}, replay.Options{})
	if err != nil {
		panic(err)
	}
	if err := replay.Autoplay(context.Background(), rec, 20*game.TPS, true); err != nil {
		panic(err)
	}
	if err := rec.Close(); err != nil {
		panic(err)
	}

	w, err := replay.NewWatch(rec.Bytes())
	if err != nil {
		panic(err)
	}
	for range game.TPS { // one second at ×1
		w.Tick()
	}
	w.Faster()
	w.Faster()
	for range game.TPS { // one second at ×4
		w.Tick()
	}
	fmt.Println("step", w.Step(), "of", w.Len(), "at", w.Speed())
	if err := w.SetStrategy(pool.Dense); err != nil {
		panic(err)
	}
	if err := w.Seek(w.Len()); err != nil { // to the end, checking every checksum
		panic(err)
	}
	fmt.Println("done:", w.Done(), "same game:", w.World().Checksum() == rec.World().Checksum())
	// Output:
	// step 300 of 1200 at ×4
	// done: true same game: true
}

// A ghost flies beside a recorded game: ann's ten seconds beside bob's
// twenty. It vanishes when ann's replay ends, and a watch of bob's replay
// shows it where it flew.
func ExampleRecorder_SetGhost() {
	ann, err := replay.NewRecorder(game.Config{Seed: 5}, replay.Options{Players: []string{"ann"}})
	if err != nil {
		panic(err)
	}
	if err := replay.Autoplay(context.Background(), ann, 10*game.TPS, false); err != nil {
		panic(err)
	}
	if err := ann.Close(); err != nil {
		panic(err)
	}

	bob, err := replay.NewRecorder(game.Config{Seed: 5}, replay.Options{Players: []string{"bob"}})
	if err != nil {
		panic(err)
	}
	if err := bob.SetGhost(ann.Bytes()); err != nil {
		panic(err)
	}
	var in game.Inputs
	var at5 game.Ship
	for range 20 * game.TPS {
		in[0] = game.Input{Right: true, Fire: true}
		bob.Step(&in) // steps the ghost too
		if g := bob.Ghost(); bob.Steps() == 5*game.TPS {
			fmt.Println("at 5 s:", g.Name(), "flies:", g.Visible(), "its step:", g.Steps())
			at5 = g.Ship()
		}
	}
	fmt.Println("at 20 s:", bob.Ghost().Name(), "flies:", bob.Ghost().Visible())
	if err := bob.Close(); err != nil {
		panic(err)
	}

	w, err := replay.NewWatch(bob.Bytes())
	if err != nil {
		panic(err)
	}
	if err := w.Seek(5 * game.TPS); err != nil {
		panic(err)
	}
	fmt.Println("watched at 5 s:", w.Ghost().Name(), "where it flew:", w.Ghost().Ship() == at5)
	// Output:
	// at 5 s: ann flies: true its step: 300
	// at 20 s: ann flies: false
	// watched at 5 s: ann where it flew: true
}
