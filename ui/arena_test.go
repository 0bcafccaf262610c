package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"

	"poolroids/game"
	"poolroids/game/hub"
	"poolroids/pool"
)

// arenaSession is a session on the seat of a new player in an arena of
// hub h, drawn on a simulation screen of w×h cells.
func arenaSession(t *testing.T, h *hub.Hub, name string, w, ht int) (*session, *hub.Seat) {
	t.Helper()
	seat, err := h.Join(hub.Request{Arena: "den", Player: name})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(seat.Leave)
	s, err := newPlayerSession(ownTerminal(newSim(t, "UTF-8", w, ht), nil), Options{Arena: seat})
	if err != nil {
		t.Fatal(err)
	}
	return s, seat
}

// newHub is a hub of arenas for a test, closed after it.
func newHub(t testing.TB, cfg hub.Config) *hub.Hub {
	t.Helper()
	h, err := hub.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h
}

// TestArenaDraw: an arena session draws every ship, its player's name by
// it and the players box (the golden arena-busy-200x60), and a frame
// allocates nothing once the arena is busy (sixteen autopilots holding
// fire into its pools).
func TestArenaDraw(t *testing.T) {
	// In a bubble the arena steps only while the test sleeps, so the frames
	// measured draw one busy world: a changed score or miss count would
	// cost its line an allocation (textCache), by design.
	synctest.Test(t, func(t *testing.T) {
		h := newHub(t, hub.Config{Size: game.MaxShips})
		s, ann := arenaSession(t, h, "ann", 200, 60)
		ann.SetAutopilot(true)
		for i := 1; i < game.MaxShips; i++ {
			_, seat := arenaSession(t, h, "p"+string(rune('a'+i)), 100, 30)
			seat.SetAutopilot(true)
		}
		ar := s.seat().Arena()
		busy := func() (full bool) {
			ar.View(func(v hub.ArenaView) {
				b := v.World().Bullets()
				full = b.Stats().HighWater == b.Cap()
			})
			return full
		}
		for deadline := time.Now().Add(10 * time.Second); !busy(); time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the arena's bullet pool never filled")
			}
		}
		scr := s.sim()
		s.root.SetRect(0, 0, 200, 60)
		s.root.Draw(scr)
		s.root.Draw(scr)
		scr.Show()
		looksLike(t, scr, "arena-busy-200x60")
		if n := testing.AllocsPerRun(30, func() { s.root.Draw(scr) }); n != 0 {
			t.Errorf("%v allocs per frame, want 0", n)
		}
	})
}

// TestKeptPlayers checks that the players box drawn over its last frame
// on the session's screen shows what a whole redraw shows, while the
// autopilots score and miss and players join and leave, and that a frame
// in which nothing changed sets none of its cells. The bubble's clock
// stands still while the test draws, so the arena steps only between
// frames.
func TestKeptPlayers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const w, ht = 120, 40
		h := newHub(t, hub.Config{Size: 8})
		kept, ann := arenaSession(t, h, "ann", w, ht)
		ann.SetAutopilot(true)
		whole, _ := arenaSession(t, h, "bob", w, ht)
		wholeScr := newSim(t, "UTF-8", w, ht)
		keptScr := kept.sim()
		var late *hub.Seat
		for i := range 40 {
			switch i {
			case 10:
				_, late = arenaSession(t, h, "cat", w, ht)
				late.SetAutopilot(true)
			case 25:
				late.Leave()
			}
			time.Sleep(100 * time.Millisecond) // the arena steps
			for _, s := range []*session{kept, whole} {
				s.root.SetRect(0, 0, w, ht)
			}
			kept.screen.resize() // as every frame does
			kept.root.Draw(kept.screen)
			kept.screen.Show()
			wholeScr.Clear()
			whole.root.Draw(wholeScr)
			wholeScr.Show()
			a, aw, _ := keptScr.GetContents()
			b, _, _ := wholeScr.GetContents()
			x, y, pw, ph := kept.players.GetRect()
			for r := y; r < y+ph; r++ {
				for c := x; c < x+pw; c++ {
					if !sameLook(a[r*aw+c], b[r*aw+c]) {
						t.Fatalf("frame %d: cell (%d,%d) of the players box shows %q, a whole redraw %q\nkept:\n%s\nwhole:\n%s",
							i, c, r, string(a[r*aw+c].Runes), string(b[r*aw+c].Runes), screenText(keptScr), screenText(wholeScr))
					}
				}
			}
		}
		looksLike(t, keptScr, "arena-cat-left-120x40") // the news of cat leaving
		// Nothing stepped since the last frame: the next sets no cell of
		// the box, so a mark on its border and one on its first line stay.
		x, y, _, _ := kept.players.GetRect()
		keptScr.Put(x, y, "#", tcell.StyleDefault)
		keptScr.Put(x+1, y+1, "#", tcell.StyleDefault)
		kept.screen.resize()
		kept.root.Draw(kept.screen)
		kept.screen.Show()
		a, aw, _ := keptScr.GetContents()
		if got := string(a[y*aw+x].Runes) + string(a[(y+1)*aw+x+1].Runes); got != "##" {
			t.Errorf("an unchanged frame drew over the players box: the marks show %q", got)
		}
	})
}

// TestArenaFits: at every common size the players box shows and stops
// above the key help line, which stays whole on the bottom row.
func TestArenaFits(t *testing.T) {
	h := newHub(t, hub.Config{Size: 8})
	for _, sz := range [][2]int{{80, 24}, {100, 30}, {120, 40}} {
		w, ht := sz[0], sz[1]
		s, _ := arenaSession(t, h, fmt.Sprintf("p%d", w), w, ht)
		lines := strings.Split(strings.TrimRight(drawArena(s, w, ht), "\n"), "\n")
		if last := lines[len(lines)-1]; !strings.HasSuffix(strings.TrimRight(last, " "), "q quit") {
			t.Errorf("%dx%d: the bottom row is not the key help:\n%s", w, ht, strings.Join(lines, "\n"))
		}
		top, bottom, col := -1, -1, 0 // the players box's rows and column
		for i, l := range lines {
			r := []rune(l)
			at := strings.Index(l, "┌─ arena den") // "┌─ den" in the compact panel
			if at < 0 {
				at = strings.Index(l, "┌─ den ·")
			}
			switch {
			case at >= 0:
				top, col = i, len([]rune(l[:at]))
			case top >= 0 && bottom < 0 && len(r) > col && r[col] == '└':
				bottom = i
			}
		}
		if top < 0 || bottom < 0 || bottom >= ht-1 {
			t.Errorf("%dx%d: the players box spans rows %d..%d of %d, want it whole above the key help:\n%s", w, ht, top, bottom, ht, strings.Join(lines, "\n"))
		}
	}
}

// putLog is a putter that records every cell set.
type putLog map[[2]int][]string

func (p putLog) Put(x, y int, str string, _ tcell.Style) (string, int) {
	r, size := utf8.DecodeRuneInString(str)
	p[[2]int{x, y}] = append(p[[2]int{x, y}], string(r))
	return str[size:], 1
}

func (putLog) Colors() int { return 256 }

// TestLabelsOverlap: where two names overlap the later shows, and a name
// cut by the overlay does not show.
func TestLabelsOverlap(t *testing.T) {
	a := &arena{frame: rect{10, 5, 40, 10}}
	a.cv.w, a.cv.h = 40, 10
	a.labels = []label{{x: 2, y: 1, name: "alpha"}, {x: 4, y: 1, name: "bob"}, {x: 0, y: 6, name: "cut"}}
	log := putLog{}
	a.drawLabels(log, &a.cv, a.frame, rect{x: 10, y: 11, w: 5, h: 1}) // the overlay over "cut"
	var got strings.Builder
	for x := range 20 {
		if s, ok := log[[2]int{10 + x, 6}]; ok {
			got.WriteString(s[len(s)-1])
		}
	}
	if got.String() != "albob" || len(log) != 5 {
		t.Errorf("the names show %q in %d cells, want \"albob\" in 5: %v", got.String(), len(log), log)
	}
}

// TestPlayersBoxGrows: the players box takes a row a player present, not
// a row a seat, so that the strategy list below it keeps its rows in an
// arena of few players; a join grows it at the next frame.
func TestPlayersBoxGrows(t *testing.T) {
	h := newHub(t, hub.Config{Size: 8})
	s, _ := arenaSession(t, h, "ann", 120, 40)
	scr := s.sim()
	frame := func() (box, strategies int) {
		s.root.SetRect(0, 0, 120, 40)
		s.screen.resize() // as every frame does
		s.root.Draw(s.screen)
		s.screen.Show()
		_, _, _, box = s.players.GetRect()
		text := screenText(scr)
		for _, st := range pool.Strategies() {
			if strings.Contains(text, " "+string(st)+" ") {
				strategies++
			}
		}
		return box, strategies
	}
	box, shown := frame()
	if box != playersHeight(1) || shown < listMin {
		t.Errorf("one player: the players box is %d rows (want %d), the list shows %d strategies (want %d or more):\n%s",
			box, playersHeight(1), shown, listMin, screenText(scr))
	}
	arenaSession(t, h, "bob", 80, 24)
	if box, _ := frame(); box != playersHeight(2) {
		t.Errorf("two players: the players box is %d rows, want %d", box, playersHeight(2))
	}
}

// A key that does nothing says why under the field, where every size
// shows it: at 80×24 the players box has no room for a line more. The
// golden arena-refused-switch-80x24 shows bob told that only ann switches.
func TestNoticeUnderField(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHub(t, hub.Config{})
		arenaSession(t, h, "ann", 80, 24)
		s, _ := arenaSession(t, h, "bob", 80, 24)
		s.syncList()
		drawArena(s, 80, 24)
		s.onKey(tcell.NewEventKey(tcell.KeyRune, '5', tcell.ModNone))
		drawArena(s, 80, 24)
		looksLike(t, s.sim(), "arena-refused-switch-80x24")
	})
}

// TestArenaRefusesStress: x in an arena says the stress autopilot is not
// for a shared world, and the ship stays the player's.
// The golden arena-refused-stress-80x24 shows the refusal.
func TestArenaRefusesStress(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHub(t, hub.Config{})
		s, _ := arenaSession(t, h, "ann", 80, 24)
		s.syncList()
		drawArena(s, 80, 24)
		for range 2 { // a second x would answer a question, had one been asked
			s.onKey(tcell.NewEventKey(tcell.KeyRune, 'x', tcell.ModNone))
		}
		drawArena(s, 80, 24)
		looksLike(t, s.sim(), "arena-refused-stress-80x24")
		if s.game().Stress() {
			t.Error("x started the stress autopilot in an arena")
		}
	})
}

// sim is the simulation screen a test made s on.
func (s *session) sim() tcell.SimulationScreen {
	return s.term.(*terminal).dev.(tcell.SimulationScreen)
}

// drawArena draws an arena session's frame at w×h, as beforeDraw and
// tview would, and returns the screen's text.
func drawArena(s *session, w, h int) string {
	scr := s.sim()
	s.root.SetRect(0, 0, w, h)
	s.root.Draw(scr)
	scr.Show()
	return screenText(scr)
}

// The players box says who switched the pools last while they hold the
// switch, and who holds it once they left, not a switch by someone gone.
func TestPoolsLineFollowsCreator(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHub(t, hub.Config{})
		_, ann := arenaSession(t, h, "ann", 120, 40)
		s, _ := arenaSession(t, h, "bob", 120, 40)
		if err := ann.SetStrategies(pool.Dense, pool.Dense); err != nil {
			t.Fatal(err)
		}
		drawArena(s, 120, 40)
		looksLike(t, s.sim(), "arena-switched-120x40") // the switch by ann
		ann.Leave()
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			text := drawArena(s, 120, 40)
			if strings.Contains(text, "pools: bob switches") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("bob not shown as the one who switches once ann left:\n%s", text)
			}
		}
	})
}

// TestPlaceLabels: names go under their ships where there is room, else
// over, right or left of them, never into another name or over another
// ship; a name with no room at all is left out rather than drawn into
// the others.
func TestPlaceLabels(t *testing.T) {
	a := &arena{}
	a.cv.w, a.cv.h = 60, 20
	ship := func(name string, sx, sy int) label {
		return label{x: max(sx-len(name)/2, 0), y: sy + 1, sx: sx, sy: sy, name: name}
	}
	// Four ships in a row a few cells apart, one more right under the
	// first, and one at the bottom edge.
	a.labels = []label{
		ship("ann", 10, 5), ship("bob", 14, 5), ship("cat", 18, 5), ship("dan", 22, 5),
		ship("eve", 10, 6), ship("Wolfgang_Amadeus", 40, 19),
	}
	a.placeLabels(&a.cv)
	for i, l := range a.labels {
		if l.y < 0 {
			continue
		}
		w := len(l.name)
		if l.x < 0 || l.x+w > a.cv.w || l.y >= a.cv.h {
			t.Errorf("%s placed off the field at (%d,%d)", l.name, l.x, l.y)
		}
		for j, o := range a.labels {
			if j == i {
				continue
			}
			if o.sy == l.y && o.sx >= l.x && o.sx < l.x+w {
				t.Errorf("%s at (%d,%d) covers %s's ship at (%d,%d)", l.name, l.x, l.y, o.name, o.sx, o.sy)
			}
			if o.y == l.y && j < i && l.x < o.x+len(o.name) && o.x < l.x+w {
				t.Errorf("%s at (%d,%d) runs into %s at (%d,%d)", l.name, l.x, l.y, o.name, o.x, o.y)
			}
		}
	}
	if l := a.labels[0]; l.y != 4 { // under (row 6) is eve's ship: over it
		t.Errorf("ann at row %d, want 4 (over its ship: eve's is under it)", l.y)
	}
	if l := a.labels[5]; l.y != 18 {
		t.Errorf("a name at the bottom edge at row %d, want 18, over its ship", l.y)
	}
	shown := 0
	for _, l := range a.labels {
		if l.y >= 0 {
			shown++
		}
	}
	if shown < 4 {
		t.Errorf("only %d of 6 names placed: %+v", shown, a.labels)
	}
}

// The help line and the key help offer only keys that act: an arena
// neither pauses nor hides from watchers, and local play has no watchers.
// The goldens: an arena's help line (arena-help-line-200x60) without
// pause, watchers or stress; its key help (arena-key-help-200x60)
// without p, o or x; local play's help line (help-line-200x60) with
// pause and without watchers.
func TestHelpLineKeysAct(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHub(t, hub.Config{})
		s, _ := arenaSession(t, h, "ann", 200, 60)
		s.syncList()
		drawArena(s, 200, 60)
		looksLike(t, s.sim(), "arena-help-line-200x60")
		s.showHelp(true)
		drawArena(s, 200, 60)
		looksLike(t, s.sim(), "arena-key-help-200x60")
		d := newDrawn(t, "UTF-8", 200, 60, Options{Seed: 2})
		looksLike(t, d.scr, "help-line-200x60")
	})
}

// In the compact panel (80×24) the players box keeps what matters in its
// 16 columns: the arena's name and mode, each player's name and score.
// The golden is arena-narrow-80x24: Wolfgang_Amadeus, too long to share
// a line with a score, whole on a line of its own, the score under it.
func TestPlayersBoxNarrow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHub(t, hub.Config{})
		arenaSession(t, h, "Wolfgang_Amadeus", 80, 24)
		s, _ := arenaSession(t, h, "bob", 80, 24)
		drawArena(s, 80, 24) // lays the boxes out
		text := drawArena(s, 80, 24)
		if !strings.Contains(text, "│Wolfgang_Amadeus│\n") {
			t.Errorf("the players box cuts a name:\n%s", text)
		}
		// Cut short, it keeps the lines it shows for the latest news: bob's
		// joining, not Wolfgang's before it, which takes two.
		if !strings.Contains(text, "│bob joined      │\n") {
			t.Errorf("the players box does not show the latest news:\n%s", text)
		}
		looksLike(t, s.sim(), "arena-narrow-80x24")
	})
}

// TestNewsWrapped: the players box's news wraps at blanks to the box's
// width, a word longer than a line cut; it shows the latest items whole
// as far as they fit, and the latest cut short only when it alone does
// not fit.
func TestNewsWrapped(t *testing.T) {
	for _, tt := range []struct {
		s    string
		w    int
		want []string
	}{
		{"Wolfgang_Amadeus joined", 16, []string{"Wolfgang_Amadeus", "joined"}},
		{"ann switched to dense", 16, []string{"ann switched to", "dense"}},
		{"Wolfgang_Amadeus_Mozart left", 16, []string{"Wolfgang_Amadeus", "_Mozart left"}},
		{"bob joined", 32, []string{"bob joined"}},
		{"exactly sixteen! then", 16, []string{"exactly sixteen!", "then"}},
		{"", 16, nil},
	} {
		if got := wrapText(nil, tt.s, tt.w); !slices.Equal(got, tt.want) {
			t.Errorf("wrapText(%q, %d) = %q, want %q", tt.s, tt.w, got, tt.want)
		}
	}
	news := func(texts ...string) []hub.News {
		var ns []hub.News
		for _, s := range texts {
			ns = append(ns, hub.News{Text: s})
		}
		return ns
	}
	var scratch []string
	for _, tt := range []struct {
		news []hub.News
		want []string
	}{
		{news("ann joined", "bob joined", "Wolfgang_Amadeus joined"), []string{"bob joined", "Wolfgang_Amadeus", "joined"}},
		{news("ann joined", "Wolfgang_Amadeus switched to listremove"), []string{"Wolfgang_Amadeus", "switched to", "listremove"}},
		{news("Wolfgang_Amadeus joined", "cat left"), []string{"Wolfgang_Amadeus", "joined", "cat left"}},
		{news("Wolfgang_Amadeus switched to listremove", "cat left"), []string{"cat left"}},
		{news("Wolfgang_Amadeus switched to the freelist of its own"), []string{"Wolfgang_Amadeus", "switched to the", "freelist of its"}},
		{nil, nil},
	} {
		if got := latestNews(nil, &scratch, tt.news, 16, 3); !slices.Equal(got, tt.want) {
			t.Errorf("latestNews(%+v) = %q, want %q", tt.news, got, tt.want)
		}
	}
}
