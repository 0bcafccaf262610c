package ui

import (
	"testing"
	"testing/synctest"

	"github.com/gdamore/tcell/v2"

	"poolroids/game"
)

// TestRespawnCountdown: while a lost ship waits for its place to clear,
// the field says when it comes back, where it will: never an empty field
// without a word (respawn-countdown-120x40); once it is back, the
// countdown goes (respawn-back-120x40).
func TestRespawnCountdown(t *testing.T) { synctest.Test(t, testRespawnCountdown) }

func testRespawnCountdown(t *testing.T) {
	d := newDrawn(t, "UTF-8", 120, 40, Options{Levels: testLevels(t), Seed: 3})
	d.key(tcell.KeyRune, ' ') // play
	w := d.s.world()
	for i := 0; !w.Player(0).Blocked; i++ {
		if i > 10*60*game.TPS || w.Phase() == game.GameOver {
			t.Fatalf("after %d steps (%v): no ship kept from its place", i, w.Phase())
		}
		d.s.step(0)
	}
	d.looksLike("respawn-countdown-120x40")
	for w.Phase() == game.Respawning {
		d.s.step(0)
	}
	d.looksLike("respawn-back-120x40")
	if !w.Ship().Alive {
		t.Error("the ship is not back")
	}
}
