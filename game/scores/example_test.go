package scores_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"poolroids/game/scores"
)

func Example() {
	dir, _ := os.MkdirTemp("", "scores")
	defer os.RemoveAll(dir)

	store, err := scores.Open(filepath.Join(dir, "scores.json"))
	if err != nil {
		fmt.Println("warning:", err) // the store works anyway
	}
	when := time.Date(2025, 3, 1, 20, 0, 0, 0, time.UTC)
	_, _ = store.Add(scores.Entry{Name: "ann", Score: 4200, Wave: 3, Strategy: "dense", When: when})
	rank, _ := store.Add(scores.Entry{Name: "bob", Score: 9000, Wave: 5, Strategy: "bitset", When: when})
	fmt.Println("bob ranks", rank)
	for i, e := range store.Top(10) {
		fmt.Printf("%d. %-3s %5d  wave %d  %s\n", i+1, e.Name, e.Score, e.Wave, e.Strategy)
	}
	// Output:
	// bob ranks 1
	// 1. bob  9000  wave 5  bitset
	// 2. ann  4200  wave 3  dense
}

func ExampleOpen_corrupt() {
	dir, _ := os.MkdirTemp("", "scores")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "scores.json")
	_ = os.WriteFile(path, []byte("{oops"), 0o644)

	store, err := scores.Open(path)
	var aside *scores.SetAsideError
	if errors.As(err, &aside) {
		fmt.Println("corrupt:", errors.Is(err, scores.ErrCorrupt))
		fmt.Println("kept as:", filepath.Base(aside.Aside)[:len("scores.json.bad-")])
	}
	rank, err := store.Add(scores.Entry{Name: "ann", Score: 10})
	fmt.Println("new table, rank", rank, err)
	// Output:
	// corrupt: true
	// kept as: scores.json.bad-
	// new table, rank 1 <nil>
}

func ExampleStore_AddReplay() {
	dir, _ := os.MkdirTemp("", "scores")
	defer os.RemoveAll(dir)
	store, _ := scores.Open(filepath.Join(dir, "scores.json"))

	// The file of the game, as match.Result.Replay gives it.
	game := []byte("PRPL…")
	_, _ = store.AddReplay(scores.Entry{Name: "ann", Score: 4200, Wave: 3}, game)
	best := store.Top(1)[0]
	data, err := store.ReadReplay(best.Replay)
	fmt.Println(best.Name, len(data) == len(game), err)
	kept, _ := os.ReadDir(filepath.Join(dir, "scores.json.replays"))
	fmt.Println(len(kept), "file beside the table")
	// Output:
	// ann true <nil>
	// 1 file beside the table
}
