package daily_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
	"time"

	"poolroids/game"
	"poolroids/game/daily"
	"poolroids/game/daily/dailytest"
	"poolroids/game/replay"
	"poolroids/levels"
	"poolroids/pool"
)

// reasonOf returns the reason of a refusal, 0 for nil; any other error
// fails the test.
func reasonOf(t *testing.T, err error) daily.Reason {
	t.Helper()
	if err == nil {
		return 0
	}
	var r *daily.RefusedError
	if !errors.As(err, &r) {
		t.Fatalf("%T %v, want a *daily.RefusedError", err, err)
	}
	if !strings.HasPrefix(err.Error(), "daily: refused, "+r.Reason.String()+": ") {
		t.Errorf("message %q does not name its reason %s", err, r.Reason)
	}
	return r.Reason
}

// tooLong is a well-formed start of a daily file asking for more than
// MaxSteps steps: long runs and checksums (whose values are never
// reached), and no end.
func tooLong(t *testing.T) []byte {
	rec, err := replay.NewRecorder(daily.Config(day, nil), replay.Options{Every: replay.MaxEvery})
	if err != nil {
		t.Fatal(err)
	}
	b := bytes.Clone(rec.Bytes())
	for steps := 0; steps <= daily.MaxSteps; steps += replay.MaxEvery {
		b = binary.AppendUvarint(append(b, 0xBF), replay.MaxEvery-64)
		b = append(b, 0xD4, 0, 0, 0, 0, 0, 0, 0, 0)
	}
	return b
}

// Each kind of replay is proven or refused for its reason.
func TestVerify(t *testing.T) {
	t.Parallel()
	game1, w1 := dailytest.HandGame(t, day, nil, "ann", 3, 20000)
	left, wl := dailytest.HandGame(t, day, nil, "bob", 5, 900)
	tiny, _ := dailytest.HandGame(t, day, dailytest.TinySet(), "cy", 7, 2000)
	cfg := daily.Config(day, nil)
	h := dailytest.NewHand(9)
	pilot := func(*game.World) game.Input { return h.Input() }
	other := func(f func(*game.Config)) []byte {
		c := cfg
		f(&c)
		data, _ := dailytest.Play(t, c, "dee", 600, pilot)
		return data
	}
	restarted := func() []byte {
		rec, err := replay.NewRecorder(cfg, replay.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var in game.Inputs
		rec.Step(&in)
		rec.Restart()
		rec.Step(&in)
		rec.Close()
		return rec.Bytes()
	}
	flipped := bytes.Clone(game1)
	flipped[len(flipped)-1] ^= 0x10 // the final checksum
	v2 := bytes.Clone(game1)
	v2[4] = 2

	at := func(d daily.Day, after time.Duration) time.Time { return d.Start().Add(after) }
	for _, tc := range []struct {
		name string
		data []byte
		now  time.Time
		set  *levels.Set
		want daily.Reason // 0: proven
	}{
		{"today", game1, noon, nil, 0},
		{"version 2: older rules", v2, noon, nil, daily.Malformed},
		{"left in play", left, noon, nil, 0},
		{"yesterday's within grace", game1, at(day+1, daily.Grace-time.Second), nil, 0},
		{"yesterday's after grace", game1, at(day+1, daily.Grace), nil, daily.OtherDay},
		{"tomorrow's", game1, at(day-1, 23*time.Hour), nil, daily.OtherDay},
		{"a week old", game1, at(day+7, time.Hour), nil, daily.OtherDay},
		{"no day's seed", other(func(c *game.Config) { c.Seed = 12345 }), noon, nil, daily.Forged},
		{"another set's", tiny, noon, nil, daily.OtherLevels},
		{"a server's own set", tiny, noon, dailytest.TinySet(), 0},
		{"the shipped set on a server of its own", game1, noon, dailytest.TinySet(), daily.OtherLevels},
		{"other bullets", other(func(c *game.Config) { c.Bullets = 64 }), noon, nil, daily.OtherCapacities},
		{"other debris", other(func(c *game.Config) { c.Debris = 512 }), noon, nil, daily.OtherCapacities},
		{"an arena", other(func(c *game.Config) { c.Ships = 2 }), noon, nil, daily.NotSolo},
		{"pvp", other(func(c *game.Config) { c.Mode = game.PvP }), noon, nil, daily.NotSolo},
		{"two games", restarted(), noon, nil, daily.NotSolo},
		{"cut short", game1[:len(game1)-3], noon, nil, daily.Truncated},
		{"the header only", game1[:40], noon, nil, daily.Truncated},
		{"junk after it", append(bytes.Clone(game1), 0xD5), noon, nil, daily.Malformed},
		{"not a replay", []byte("hello"), noon, nil, daily.Malformed},
		{"another checksum", flipped, noon, nil, daily.Altered},
		{"over MaxBytes", append(bytes.Clone(game1), make([]byte, daily.MaxBytes)...), noon, nil, daily.TooLarge},
		{"over MaxSteps", tooLong(t), noon, nil, daily.TooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := daily.Verify(t.Context(), tc.data, tc.now, tc.set)
			if got := reasonOf(t, err); got != tc.want {
				t.Fatalf("%v (%s), want %s", err, got, tc.want)
			}
			if err != nil {
				t.Log(err)
				if p != (daily.Proof{}) {
					t.Errorf("a refusal with a proof: %+v", p)
				}
			}
		})
	}

	for _, tc := range []struct {
		data []byte
		w    *game.World
		name string
		over bool
	}{{game1, w1, "ann", true}, {left, wl, "bob", false}} {
		p, err := daily.Verify(t.Context(), tc.data, noon, nil)
		want := daily.Proof{Day: day, Player: tc.name, Score: tc.w.Score(), Wave: tc.w.Wave(), Steps: tc.w.Steps(), Over: tc.over, Sum: tc.w.Checksum()}
		if err != nil || p != want {
			t.Errorf("%s's game proves %+v, %v; want %+v", tc.name, p, err, want)
		}
	}
	if p, _ := daily.Verify(t.Context(), game1, noon, nil); p.Score == 0 || p.Steps < 1000 {
		t.Errorf("the hand game proves %+v: too little to test with", p)
	}
}

// Strategy switches and ghosts change nothing of a game's proof.
func TestVerifySwitchesAndGhosts(t *testing.T) {
	t.Parallel()
	ghost, _ := dailytest.HandGame(t, day, nil, "ann", 3, 20000)
	plain, w := dailytest.HandGame(t, day, nil, "bob", 11, 3000)
	ins := dailytest.Inputs(t, plain)
	rec, err := replay.NewRecorder(daily.Config(day, nil), replay.Options{Players: []string{"bob"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.SetGhost(ghost); err != nil {
		t.Fatal(err)
	}
	var in game.Inputs
	for i, x := range ins {
		if i%500 == 0 {
			s := pool.Strategies()[i/500%len(pool.Strategies())]
			if err := rec.SetStrategies(s, ""); err != nil {
				t.Fatal(err)
			}
		}
		if i == 1000 {
			if err := rec.SetGhost(nil); err != nil {
				t.Fatal(err)
			}
		}
		in[0] = x
		rec.Step(&in)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	a, err1 := daily.Verify(t.Context(), plain, noon, nil)
	b, err2 := daily.Verify(t.Context(), rec.Bytes(), noon, nil)
	if err1 != nil || err2 != nil || a != b || a.Score != w.Score() {
		t.Fatalf("plain %+v (%v), with switches and a ghost %+v (%v)", a, err1, b, err2)
	}
}

// A claimed score is confirmed only if it is the proven one.
func TestConfirm(t *testing.T) {
	t.Parallel()
	data, w := dailytest.HandGame(t, day, nil, "ann", 3, 20000)
	p, err := daily.Verify(t.Context(), data, noon, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Confirm(w.Score()); err != nil {
		t.Errorf("the game's own score: %v", err)
	}
	for _, claim := range []int{w.Score() + 1, w.Score() - 10, 0, 1 << 40} {
		if got := reasonOf(t, p.Confirm(claim)); got != daily.Claimed {
			t.Errorf("claim %d of a %d game: %s", claim, w.Score(), got)
		}
	}
}

// A cancelled verification stops with the context's error, not a refusal.
func TestVerifyCancelled(t *testing.T) {
	t.Parallel()
	data, _ := dailytest.HandGame(t, day, nil, "ann", 3, 20000)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := daily.Verify(ctx, data, noon, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("%v, want context.Canceled", err)
	}
}

// The reasons name themselves in one word each.
func TestReasonNames(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for r := daily.Malformed; r <= daily.Claimed; r++ {
		s := r.String()
		if s == "" || strings.ContainsAny(s, " _") || strings.HasPrefix(s, "Reason(") || seen[s] {
			t.Errorf("reason %d is named %q", r, s)
		}
		seen[s] = true
	}
	if s := (daily.Claimed + 1).String(); s != "Reason(11)" {
		t.Errorf("an unknown reason is %q", s)
	}
}

// A gate proves and refuses as Verify does.
func TestGateVerify(t *testing.T) {
	t.Parallel()
	data, _ := dailytest.HandGame(t, day, nil, "ann", 3, 20000)
	g := daily.NewGate(1, 0)
	for _, b := range [][]byte{data, data[:len(data)-1]} {
		want, werr := daily.Verify(t.Context(), b, noon, nil)
		got, err := g.Verify(t.Context(), b, noon, nil)
		if got != want || reasonOf(t, err) != reasonOf(t, werr) {
			t.Errorf("through a gate %+v, %v; Verify %+v, %v", got, err, want, werr)
		}
	}
}

// A proof says what it proves in one line.
func TestProofString(t *testing.T) {
	t.Parallel()
	p := daily.Proof{Day: day, Score: 2850, Wave: 3, Steps: 261*game.TPS + 20, Over: true}
	if got, want := p.String(), "the daily game of 2025-06-14, score 2850, wave 3, 4m21s of play, game over"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	p.Over = false
	if got := p.String(); !strings.HasSuffix(got, ", left in play") {
		t.Errorf("a game left: %q", got)
	}
}
