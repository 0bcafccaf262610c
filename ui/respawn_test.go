package ui

import (
	"regexp"
	"slices"
	"testing"
	"testing/synctest"

	"github.com/gdamore/tcell/v2"

	"poolroids/game"
)

// TestRespawnCountdown: from the loss of a ship until it is back, the
// field says when it comes back, where it will, counting the seconds down
// (respawn-countdown-120x40): to when it is due, then, while its place is
// not clear, it says it waits for a clear spot, and how long at the most,
// "≤" saying it may come sooner: never a count that goes back up. Once it
// is back, the countdown goes (respawn-back-120x40).
func TestRespawnCountdown(t *testing.T) { synctest.Test(t, testRespawnCountdown) }

func testRespawnCountdown(t *testing.T) {
	d := newDrawn(t, "UTF-8", 120, 40, Options{Levels: testLevels(t), Seed: 3})
	d.key(tcell.KeyRune, ' ') // play
	w := d.s.world()
	// The countdowns of the ships lost before one whose place was not
	// clear, and of that one.
	note := regexp.MustCompile(`ship (now|in \d)|waiting for a clear spot · ≤\d s`)
	var shown []string
	for i := 0; ; i++ {
		if i > 10*60*game.TPS || w.Phase() == game.GameOver {
			t.Fatalf("after %d steps (%v): no ship kept from its place", i, w.Phase())
		}
		d.s.step()
		if w.Phase() == game.Respawning {
			d.frame()
			if m := note.FindString(d.text()); m != "" && (len(shown) == 0 || shown[len(shown)-1] != m) {
				shown = append(shown, m)
			}
		} else if len(shown) > 0 && !w.Player(0).Blocked {
			shown = shown[:0] // a ship back from the loss before
		}
		if w.Player(0).Blocked && w.Player(0).Respawn < 2*game.TPS {
			break
		}
	}
	d.looksLike("respawn-countdown-120x40")
	for w.Phase() == game.Respawning {
		d.s.step()
		d.frame()
		if m := note.FindString(d.text()); m != "" && shown[len(shown)-1] != m {
			shown = append(shown, m)
		}
	}
	if want := []string{"ship in 2", "ship in 1", "waiting for a clear spot · ≤3 s", "waiting for a clear spot · ≤2 s"}; len(shown) < len(want) || !slices.Equal(shown[:len(want)], want) {
		t.Errorf("while the ship was away the field said %q, want %q and on", shown, want)
	}
	d.looksLike("respawn-back-120x40")
	if !w.Ship().Alive || note.MatchString(d.text()) {
		t.Error("the ship is not back, or its countdown still shows")
	}
}
