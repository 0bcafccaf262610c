package serve

import "testing"

// The name a player is known by in the high-score table (Session.Player)
// follows the rule of every name others see: escapes removed whole, wide
// and combining runes dropped. It used to keep what was printable only,
// and scores showed "]0;PWNEDevil", "[31mRED[0m" and rows shifted by wide
// names.
func TestPlayerNameCleaned(t *testing.T) {
	ts := startServer(t, Config{})
	key := newKey(t)
	fp := fingerprint(key)[:8]
	for user, want := range map[string]string{
		"\x1b]0;PWNED\x07evil":                  "evil",
		"\x1b[31mRED\x1b[0m":                    "RED",
		"\uff37\uff29\uff24\uff25\u4e2d\u6587x": "x",
		"e\u0301ve":                             "eve",
	} {
		c, err := ts.dial(t, user, key)
		if err != nil {
			t.Fatal(err)
		}
		p := play(t, c, ptyOpts{w: 80, h: 24})
		p.waitScreen(t, "player "+want+" "+fp+"\n")
		p.keys(t, "q")
		p.exit(t)
		c.Close()
	}
}
