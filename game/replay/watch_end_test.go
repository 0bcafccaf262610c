package replay_test

import (
	"errors"
	"testing"

	"poolroids/game"
	"poolroids/game/replay"
)

// A watch that reaches the end checks the final checksum, which the end
// record holds, whether a checksum fell due at the last step or not, and
// whether the tick had more steps to play or not.
func TestWatchEndChecksum(t *testing.T) {
	t.Parallel()
	for _, steps := range []int{1000, 4 * replay.DefaultEvery} {
		data, _ := autopilotGame(t, game.Config{Seed: 33}, replay.Options{}, steps, false, 0)
		w, err := replay.NewWatch(data)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Seek(uint64(steps)); err != nil || !w.Done() {
			t.Errorf("%d steps: a good file to its end: %v, done %v", steps, err, w.Done())
		}

		data[len(data)-1] ^= 1 // the final checksum
		if w, err = replay.NewWatch(data); err != nil {
			t.Fatal(err)
		}
		for range 4 {
			w.Faster() // ×16: the last tick has steps to spare
		}
		for !w.Done() {
			w.Tick()
		}
		var m *replay.MismatchError
		if err := w.Err(); !errors.As(err, &m) || m.Step != uint64(steps) {
			t.Errorf("%d steps, final checksum changed: %v at step %d; want a mismatch at step %d", steps, err, w.Step(), steps)
		}
	}
}
