package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"poolroids/game"
	"poolroids/game/scores"
)

// TestTapTurnInTmux plays by taps and a hold in a terminal without
// release events (a tmux pane, which sends a key's press and nothing when
// it is let go): four taps of ← 100 ms apart turn the ship four taps'
// steps, as four taps 200 ms apart do (a tap is a 21st of a turn); a
// hold of 1 s, emulated as a terminal's auto-repeat sends it (a press,
// then after its repeat delay a repeat every 40 ms), turns a tap, pauses
// for the delay, then turns steadily from its first repeat and stops
// within a tap of its last. The heading is read off the braille field
// each time, by fitting the ship's outline once it has stopped turning.
func TestTapTurnInTmux(t *testing.T) {
	s := newTmux(t)
	// A large pane draws the ship large enough to read its heading to a
	// degree or two, at its own size.
	if out, err := s.run("resize-window", "-t", "e2e", "-x", "300", "-y", "100"); err != nil {
		t.Fatalf("tmux resize-window: %v\n%s", err, out)
	}
	// Seed 12 leaves a still ship alone for the longest: the test takes
	// some 15 s of play.
	home := t.TempDir()
	s.send(fmt.Sprintf("HOME=%s XDG_CONFIG_HOME=%s LANG=C.UTF-8 %s --seed 12; echo exit=$?", home, home, buildBinary(t)), "Enter")
	s.waitFor("the title screen", func(p string) bool { return strings.Contains(p, "P O O L R O I D S") }, nil)
	s.send("Space")
	// still waits until the ship's heading, once moved says so, has held
	// for a second of captures, and returns it: a turn is over.
	still := func(what string, moved func(deg float64) bool) float64 {
		var held float64
		var since time.Time
		s.waitFor(what, func(p string) bool {
			deg, dots := shipHeading(p)
			switch {
			case dots < 8 || !moved(deg):
				since = time.Time{}
			case since.IsZero() || math.Abs(math.Remainder(deg-held, 360)) >= 1:
				held, since = deg, time.Now()
			default:
				return time.Since(since) >= time.Second
			}
			return false
		}, nil)
		return held
	}
	// turn sends Left at the offsets at (from now) and returns the ship's
	// heading after, and how far it turned in the game's steps of turning
	// (4.5 rad/s at 60 a second): positive to the left.
	step := 4.5 / 60 * 180 / math.Pi
	turn := func(what string, at []time.Duration) (after, steps float64, sent []time.Duration) {
		before := still("the ship, still", func(float64) bool { return true })
		sent = s.paced("Left", at)
		after = still(what, func(deg float64) bool { return math.Abs(math.Remainder(deg-before, 360)) >= 1 })
		return after, -math.Remainder(after-before, 360) / step, sent
	}
	const tap = 4 // a tap's steps of turning
	// A ship turned by taps alone points at one of the headings a tap
	// apart from its first, straight up (-90°): taps counts them.
	taps := func(deg float64) (n int, off float64) {
		k := math.Remainder(-90-deg, 360) / (tap * step)
		n = int(math.Round(k))
		return n, (k - float64(n)) * tap * step
	}
	ms := time.Millisecond
	for i, gap := range []time.Duration{100 * ms, 200 * ms} {
		after, steps, _ := turn(fmt.Sprintf("4 taps %v apart to turn the ship", gap), []time.Duration{0, gap, 2 * gap, 3 * gap})
		n, off := taps(after)
		t.Logf("4 taps %v apart turned %.1f steps, to %.1f°: %d taps from the first heading, %.1f° off it", gap, steps, after, n, off)
		if want := 4 * (i + 1); n != want || math.Abs(off) > 5 {
			t.Errorf("after 4 more taps %v apart the ship points %d taps from its first heading (%.1f° off one), want %d", gap, n, off, want)
		}
	}
	// A hold of a second: the press, then a repeat every 40 ms from 600
	// ms on. It turns a tap for the press and one for the first repeat,
	// then on for the time from the first repeat to the last, as sent: a
	// tap after that at most. A machine too busy to send the repeats
	// within a terminal's pace (50 ms apart at the slowest) emulates no
	// hold: that try is not counted.
	at := []time.Duration{0}
	for r := 600 * ms; r <= time.Second; r += 40 * ms {
		at = append(at, r)
	}
	for try := 1; ; try++ {
		_, steps, sent := turn("a held ← to turn the ship", at)
		if gap := longestGap(sent[1:]); gap > 50*ms {
			t.Logf("try %d: repeats sent up to %v apart, not a terminal's pace", try, gap)
			if try < 3 {
				continue
			}
			t.Fatalf("no hold emulated in %d tries: repeats sent up to %v apart", try, gap)
		}
		held := (sent[len(sent)-1] - sent[1]).Seconds() * 60
		t.Logf("a hold of %v turned %.1f steps; its repeats span %.1f", sent[len(sent)-1], steps, held)
		if want := 2*tap + held; math.Abs(steps-want) > 1.5 {
			t.Errorf("a hold turned %.1f steps, want %.1f: a tap for the press, then steadily from the first repeat until a tap after the last", steps, want)
		}
		break
	}
	s.send("q", "q")
	s.exited()
}

// paced sends key at each offset in at from now, as a person's taps or
// a terminal's auto-repeat would, and returns the offsets it was sent at:
// the pace is what the test tries, so unlike every other wait of these
// tests it is kept by the clock.
func (s *tmuxSession) paced(key string, at []time.Duration) []time.Duration {
	s.t.Helper()
	start := time.Now()
	sent := make([]time.Duration, len(at))
	for i, d := range at {
		time.Sleep(time.Until(start.Add(d)))
		sent[i] = time.Since(start)
		s.send(key)
	}
	return sent
}

// longestGap is the longest time between two successive offsets.
func longestGap(at []time.Duration) time.Duration {
	var gap time.Duration
	for i := 1; i < len(at); i++ {
		gap = max(gap, at[i]-at[i-1])
	}
	return gap
}

// shipHeading reads the heading (the game's angle, in degrees: -90 is
// up, less is to the left) of the ship at the centre of the braille field
// in pane, and the number of dots it read it from: the angle whose outline
// (game.Ship.Points) lies closest to the dots.
func shipHeading(pane string) (deg float64, n int) {
	lines := strings.Split(pane, "\n")
	top, left, right, bottom := -1, -1, -1, -1
	for y, l := range lines {
		r := []rune(l)
		if top < 0 {
			for x, c := range r {
				if c == '┌' {
					top, left = y, x
					break
				}
			}
			if top >= 0 {
				for x := left + 1; x < len(r); x++ {
					if r[x] == '┐' {
						right = x
						break
					}
				}
			}
			continue
		}
		if left < len(r) && r[left] == '└' {
			bottom = y
			break
		}
	}
	if top < 0 || right < 0 || bottom < 0 {
		return 0, 0
	}
	// The field's dots, and the world units each covers.
	dw, dh := 2*(right-left-1), 4*(bottom-top-1)
	sx, sy := float64(dw)/game.Width, float64(dh)/game.Height
	centre := game.Vec{X: game.Width / 2, Y: game.Height / 2}
	var pts []game.Vec
	for y := top + 1; y < bottom; y++ {
		r := []rune(lines[y])
		for x := left + 1; x < right && x < len(r); x++ {
			bits := r[x] - 0x2800
			if bits <= 0 || bits > 0xff {
				continue
			}
			for i, row := range [4][2]rune{{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}} {
				for j, bit := range row {
					if bits&bit == 0 {
						continue
					}
					p := game.Vec{X: (float64(2*(x-left-1)+j) + 0.5) / sx, Y: (float64(4*(y-top-1)+i) + 0.5) / sy}
					if math.Hypot(p.X-centre.X, p.Y-centre.Y) < 30 {
						pts = append(pts, p)
					}
				}
			}
		}
	}
	if len(pts) == 0 {
		return 0, 0
	}
	best, bestCost := 0.0, math.Inf(1)
	for a := -180.0; a < 180; a += 0.5 {
		for ox := -4.0; ox <= 4; ox += 2 {
			for oy := -4.0; oy <= 4; oy += 2 {
				ship := game.Ship{Pos: game.Vec{X: centre.X + ox, Y: centre.Y + oy}, Angle: a * math.Pi / 180}
				if c := outlineCost(ship.Points(nil), pts); c < bestCost {
					best, bestCost = a, c
				}
			}
		}
	}
	return best, len(pts)
}

// outlineCost is how far the dots pts lie from the closed outline and the
// outline from the dots: the mean distance each way.
func outlineCost(outline, pts []game.Vec) float64 {
	toOutline := 0.0
	for _, p := range pts {
		d := math.Inf(1)
		for i := range outline {
			d = min(d, segmentDist(p, outline[i], outline[(i+1)%len(outline)]))
		}
		toOutline += d
	}
	toDots, samples := 0.0, 0
	for i := range outline {
		a, b := outline[i], outline[(i+1)%len(outline)]
		for k := range 8 {
			f := float64(k) / 8
			q := game.Vec{X: a.X + (b.X-a.X)*f, Y: a.Y + (b.Y-a.Y)*f}
			d := math.Inf(1)
			for _, p := range pts {
				d = min(d, math.Hypot(p.X-q.X, p.Y-q.Y))
			}
			toDots += d
			samples++
		}
	}
	return toOutline/float64(len(pts)) + toDots/float64(samples)
}

// segmentDist is the distance from p to the segment ab.
func segmentDist(p, a, b game.Vec) float64 {
	dx, dy := b.X-a.X, b.Y-a.Y
	f := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		f = max(0, min(1, ((p.X-a.X)*dx+(p.Y-a.Y)*dy)/l))
	}
	return math.Hypot(p.X-a.X-f*dx, p.Y-a.Y-f*dy)
}

// TestEscInTmux opens the key help and presses Esc alone: the help must
// close at once, not when the next key comes (the filter held a lone ESC
// until then, waiting for the rest of a sequence).
func TestEscInTmux(t *testing.T) {
	s := newTmux(t)
	s.playGame(buildBinary(t), "LANG=C.UTF-8")
	s.waitFor("the title screen", func(p string) bool { return strings.Contains(p, "P O O L R O I D S") }, nil)
	s.send("?")
	s.waitFor("the key help", func(p string) bool { return strings.Contains(p, "any key closes this help") }, nil)
	s.send("Escape")
	start := time.Now()
	if !eventually(2*time.Second, func() bool { return !strings.Contains(s.capture(), "any key closes this help") }) {
		t.Fatal("the key help is still up 2 s after Esc")
	}
	t.Logf("Esc closed the help within %v", time.Since(start).Round(10*time.Millisecond))
	s.send("q")
	s.exited()
}

// TestPlayScoresFileInTmux plays with --scores FILE, a table a server may
// share: its best score is the high score on the field's border.
func TestPlayScoresFileInTmux(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shared.json")
	store, err := scores.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Add(scores.Entry{Name: "ann", Score: 4321, Wave: 3, Strategy: "dense", When: time.Now()}); err != nil {
		t.Fatal(err)
	}
	s := newTmux(t)
	home := t.TempDir()
	s.send(fmt.Sprintf("HOME=%s XDG_CONFIG_HOME=%s LANG=C.UTF-8 %s --seed 1 --scores %s; echo exit=$?", home, home, buildBinary(t), path), "Enter")
	s.waitFor("the table's high score", func(p string) bool { return strings.Contains(p, "high 4321") }, nil)
	s.send("q")
	s.exited()
}
