package daily_test

import (
	"sync"
	"testing"

	"poolroids/game"
	"poolroids/game/daily"
	"poolroids/game/daily/dailytest"
)

// twenty is the 20-minute daily game BenchmarkVerify proves, made once a
// run: it takes some seconds.
var twenty struct {
	once sync.Once
	data []byte
}

// BenchmarkVerify proves daily games as a server does when one is posted:
// "autopilot" is the autopilot's game of the day, alone, to its end (about
// 7 minutes), "20min" a 20-minute game of the assisted autopilot. ns/op is
// one proof: its decoding, its checks and its re-play, on one core.
func BenchmarkVerify(b *testing.B) {
	ap := game.Autopilot{}
	alone, _ := dailytest.Play(b, daily.Config(day, nil), "autopilot", daily.MaxSteps, ap.Input)
	for _, bc := range []struct {
		name string
		data func(testing.TB) []byte
	}{
		{"autopilot", func(testing.TB) []byte { return alone }},
		{"20min", func(tb testing.TB) []byte {
			twenty.once.Do(func() {
				twenty.data = dailytest.Rerecord(tb, daily.Config(day, nil), "assisted", dailytest.Assisted(tb, day, 20*60*game.TPS))
			})
			return twenty.data
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			data := bc.data(b)
			var p daily.Proof
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if p, err = daily.Verify(b.Context(), data, noon, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(p.Steps)/game.TPS/60, "game-min")
			b.ReportMetric(float64(p.Wave), "wave")
			b.ReportMetric(float64(len(data)), "file-bytes")
			b.ReportMetric(float64(p.Steps)*float64(b.N)/b.Elapsed().Seconds(), "steps/s")
		})
	}
}
