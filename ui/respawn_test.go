package ui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"poolroids/game"
)

// TestRespawnCountdown: while a lost ship waits for its place to clear,
// the field says when it comes back, where it will: never an empty field
// without a word.
func TestRespawnCountdown(t *testing.T) {
	d := newDrawn(t, "UTF-8", 120, 40, Options{Levels: testLevels(t), Seed: 3})
	d.key(tcell.KeyRune, ' ') // play
	w := d.s.world()
	for i := 0; !w.Player(0).Blocked; i++ {
		if i > 10*60*game.TPS || w.Phase() == game.GameOver {
			t.Fatalf("after %d steps (%v): no ship kept from its place", i, w.Phase())
		}
		d.s.step(0)
	}
	d.frame()
	if text := d.text(); !strings.Contains(text, "ship in 3") {
		t.Errorf("a blocked ship, 3 s from coming back, and no countdown:\n%s", text)
	}
	for w.Phase() == game.Respawning {
		d.s.step(0)
	}
	d.frame()
	if text := d.text(); strings.Contains(text, "ship in") || !w.Ship().Alive {
		t.Errorf("the ship is back (%v) and the countdown still shows:\n%s", w.Ship().Alive, text)
	}
}
