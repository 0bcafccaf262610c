package daily_test

import (
	"testing"

	"poolroids/game/daily"
	"poolroids/game/daily/dailytest"
	"poolroids/game/replay"
)

// FuzzVerify: whatever the bytes, Verify refuses them with a reason, or
// proves what their own re-play reaches; it never panics.
func FuzzVerify(f *testing.F) {
	data, _ := dailytest.HandGame(f, day, nil, "ann", 3, 600)
	f.Add(data)
	f.Add(data[:len(data)/2])
	ghosted := func() []byte {
		rec, err := replay.NewRecorder(daily.Config(day, nil), replay.Options{Players: []string{"bob"}})
		if err != nil {
			f.Fatal(err)
		}
		if err := rec.SetGhost(data); err != nil {
			f.Fatal(err)
		}
		return rec.Snapshot()
	}()
	f.Add(ghosted)
	f.Add([]byte("PRPL\x03"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := daily.Verify(t.Context(), data, noon, nil)
		if err != nil {
			if r := reasonOf(t, err); r < daily.Malformed || r >= daily.Claimed {
				t.Fatalf("refused as %s: %v", r, err)
			}
			return
		}
		w := replayed(t, data)
		if p.Score != w.Score() || p.Wave != w.Wave() || p.Steps != w.Steps() || p.Sum != w.Checksum() || p.Day != day || p.Steps > daily.MaxSteps {
			t.Fatalf("proven %+v, its re-play reaches score %d, wave %d, %d steps", p, w.Score(), w.Wave(), w.Steps())
		}
	})
}
