package serve

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"

	"poolroids/ui"
)

// uiPlay plays the real game, wired as `poolroids serve` wires it.
func uiPlay(ctx context.Context, screen tcell.Screen, s Session) (int, error) {
	res, err := ui.Run(ctx, screen, ui.Options{Seed: 1, ASCII: s.ASCII, Keys: s.Keys, Player: s.Player()})
	return res.Score, err
}

// strategyRow returns the panel's strategy row: "<bullets> <debris>".
func strategyRow(screen string) string {
	for _, line := range strings.Split(screen, "\n") {
		if _, rest, ok := strings.Cut(line, "│strategy "); ok {
			return strings.Join(strings.Fields(strings.Trim(rest, "│ ")), " ")
		}
	}
	return ""
}

func hasBraille(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r > 0x2800 && r <= 0x28ff })
}

// TestGame plays the real game over SSH: the arena and the panel render,
// keys reach the game (3 switches both pools to listremove), window-change
// resizes it, q ends the session with status 0.
func TestGame(t *testing.T) {
	ts := startServer(t, Config{Play: uiPlay})
	p := play(t, ts.mustDial(t, "kim", newKey(t)), ptyOpts{w: 120, h: 40})
	screen := p.waitScreen(t, "pools", "P O O L R O I D S", "│strategy ", "1 alloc", "0 dense")
	if !hasBraille(screen) {
		t.Errorf("no braille in the arena of a UTF-8 client:\n%s", screen)
	}

	p.keys(t, "3")
	if !waitUntil(t, func() bool { return strategyRow(p.vt.text()) == "listremove listremove" }) {
		t.Fatalf("the panel never named listremove; strategy row %q:\n%s", strategyRow(p.vt.text()), p.vt.text())
	}

	p.vt.resize(60, 20) // the terminal first, as a real one does
	if err := p.sess.WindowChange(20, 60); err != nil {
		t.Fatal(err)
	}
	p.waitScreen(t, "needs at least", "this terminal is 60×20")
	p.vt.resize(100, 30) // the terminal first, as a real one does
	if err := p.sess.WindowChange(30, 100); err != nil {
		t.Fatal(err)
	}
	p.waitScreen(t, "pools", "│strategy ")

	p.keys(t, "q")
	if st := p.exit(t); st != 0 {
		t.Errorf("exit status after q = %d, want 0", st)
	}
	waitLog(t, ts, "msg=disconnect", "user=kim", "reason=quit")
}

// TestGameASCII checks that a client whose locale is not UTF-8 gets the
// ASCII arena and, borders and all, not one byte beyond ASCII.
func TestGameASCII(t *testing.T) {
	ts := startServer(t, Config{Play: uiPlay})
	p := play(t, ts.mustDial(t, "lee", nil), ptyOpts{w: 120, h: 40, env: map[string]string{"LANG": "C"}})
	screen := p.waitScreen(t, "pools", "|strategy ", "+- First contact")
	if hasBraille(screen) {
		t.Errorf("braille sent to a C-locale client:\n%s", screen)
	}
	p.keys(t, "q")
	p.exit(t)
	if i := strings.IndexFunc(p.output(), func(r rune) bool { return r >= utf8.RuneSelf }); i >= 0 {
		t.Errorf("byte %d of the output is beyond ASCII: %q", i, p.output()[max(i-20, 0):min(i+20, len(p.output()))])
	}
}
