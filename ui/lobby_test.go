package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"poolroids/game/hub"
	"poolroids/game/scores"
)

// lobbyData is the lobby of the tests: three arenas (one full), two live
// games, ten high scores of which the third has no replay and the tenth
// a name as long as names go, which shows whole.
func lobbyData() LobbyData {
	d := LobbyData{
		Name: "ann",
		Arenas: []LobbyArena{
			{Name: "alpha", Players: 3, Max: 8, Watchers: 1},
			{Name: "bravo-pvp", Players: 8, Max: 8, PvP: true},
			{Name: "0123456789abcdef", Players: 1, Max: 16, Watchers: 12},
		},
		Games: []LobbyGame{
			{Name: "alice", Players: 1, Watchers: 2},
			{Name: "alpha", Arena: true, Players: 3, Watchers: 1},
		},
	}
	for i := range 10 {
		s := LobbyScore{Name: fmt.Sprintf("player%d", i+1), Score: 20000 - 1500*i, Wave: 9 - i/2, Replay: fmt.Sprintf("r%d", i+1)}
		if i%4 == 1 {
			s.Arena = "alpha"
		}
		if i == 2 {
			s.Replay = ""
		}
		if i == 9 {
			s.Name = "Wolfgang_Amadeus"
		}
		d.Scores = append(d.Scores, s)
	}
	return d
}

// lobbyTest is a lobby drawn on a simulation screen, and the choices it
// reported.
type lobbyTest struct {
	t       *testing.T
	l       *Lobby
	scr     tcell.SimulationScreen
	data    LobbyData
	choices []Choice
}

func newLobbyTest(t *testing.T, w, h int) *lobbyTest {
	lt := &lobbyTest{t: t, scr: newSim(t, "UTF-8", w, h), data: lobbyData()}
	lt.l = NewLobby(func() LobbyData { return lt.data }, func(c Choice) { lt.choices = append(lt.choices, c) })
	lt.l.SetRect(0, 0, w, h)
	lt.draw()
	return lt
}

func (lt *lobbyTest) draw() string {
	lt.scr.Clear()
	lt.l.Draw(lt.scr)
	lt.scr.Show()
	return screenText(lt.scr)
}

// keys sends keys to the lobby, drawing after each as tview does: a rune
// for each character of a string, or a tcell.Key.
func (lt *lobbyTest) keys(keys ...any) {
	h := lt.l.InputHandler()
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			for _, r := range k {
				h(tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone), func(tview.Primitive) {})
				lt.draw()
			}
		case tcell.Key:
			h(tcell.NewEventKey(k, 0, tcell.ModNone), func(tview.Primitive) {})
			lt.draw()
		}
	}
}

// click clicks the first place on the screen where text shows.
func (lt *lobbyTest) click(text string) {
	lt.t.Helper()
	x, y := lt.find(text)
	if x < 0 {
		lt.t.Fatalf("%q is not on the screen:\n%s", text, lt.draw())
	}
	lt.l.MouseHandler()(tview.MouseLeftClick, tcell.NewEventMouse(x, y, tcell.Button1, tcell.ModNone), func(tview.Primitive) {})
	lt.draw()
}

func (lt *lobbyTest) find(text string) (x, y int) {
	for y, line := range strings.Split(screenText(lt.scr), "\n") {
		if i := strings.Index(line, text); i >= 0 {
			return len([]rune(line[:i])), y
		}
	}
	return -1, -1
}

// chose checks that the choices made since the last check are want.
func (lt *lobbyTest) chose(want ...Choice) {
	lt.t.Helper()
	if fmt.Sprint(lt.choices) != fmt.Sprint(want) {
		lt.t.Errorf("choices %+v; want %+v\n%s", lt.choices, want, screenText(lt.scr))
	}
	lt.choices = nil
}

func TestLobbyScreen(t *testing.T) {
	for _, tt := range []struct {
		name string
		w, h int
		keys []any
	}{
		{"80x24", 80, 24, nil},
		{"120x40", 120, 40, nil},
		{"60x20", 60, 20, []any{tcell.KeyTab}}, // one column, scrolled to the scores
		{"80x24-new", 80, 24, []any{"n", "Duel!", tcell.KeyTab, tcell.KeyRight}},
		{"80x24-empty", 80, 24, nil},
		{"120x40-boards", 120, 40, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			lt := newLobbyTest(t, tt.w, tt.h)
			switch {
			case strings.HasSuffix(tt.name, "empty"):
				lt.data = LobbyData{}
				lt.l.Refresh()
			case strings.HasSuffix(tt.name, "boards"):
				// The player's best of all time is 12th; of this week, on
				// the board; of today, none.
				lt.data.Scores = lt.data.Scores[:5]
				lt.data.You = LobbyPlace{Place: 12, Score: 4100}
				lt.data.Boards = []LobbyBoard{
					{Title: "THIS WEEK", Scores: lt.data.Scores[2:5], You: LobbyPlace{Place: 2, Score: 17000}},
					{Title: "TODAY"},
				}
				lt.l.Refresh()
			}
			lt.keys(tt.keys...)
			lt.draw()
			looksLike(t, lt.scr, "lobby-"+tt.name)
		})
	}
}

// The rows listed are the data function's (lobby-80x24), at each refresh
// (lobby-refreshed-80x24: one arena of 7 and no live game).
func TestLobbyLists(t *testing.T) {
	lt := newLobbyTest(t, 80, 24)
	looksLike(t, lt.scr, "lobby-80x24")
	lt.data.Arenas = lt.data.Arenas[:1]
	lt.data.Arenas[0].Players = 7
	lt.data.Games = nil
	lt.l.Refresh()
	lt.draw()
	looksLike(t, lt.scr, "lobby-refreshed-80x24")
}

func TestLobbyKeys(t *testing.T) {
	lt := newLobbyTest(t, 80, 24)
	lt.keys(tcell.KeyEnter)
	lt.chose(Choice{Kind: ChoiceSolo})
	lt.keys(tcell.KeyDown, tcell.KeyDown, tcell.KeyEnter)
	lt.chose(Choice{Kind: ChoiceJoin, Name: "bravo-pvp"})
	lt.keys("j", "j", " ") // the last arena, then New opens the form
	lt.chose()
	lt.keys(tcell.KeyEscape, "k", tcell.KeyEnter)
	lt.chose(Choice{Kind: ChoiceJoin, Name: "0123456789abcdef"})
	lt.keys(tcell.KeyDown, tcell.KeyDown, tcell.KeyDown, tcell.KeyEnter)
	lt.chose(Choice{Kind: ChoiceWatch, Name: "alpha"})
	lt.keys(tcell.KeyDown, tcell.KeyEnter) // on from the left column to the right
	lt.chose(Choice{Kind: ChoiceReplay, Score: lt.data.Scores[0]})
	lt.keys(tcell.KeyEnd, tcell.KeyDown, tcell.KeyEnter) // and no further than the end
	lt.chose(Choice{Kind: ChoiceReplay, Score: lt.data.Scores[9]})
	lt.keys(tcell.KeyPgUp, tcell.KeyPgUp, tcell.KeyEnter)
	lt.chose(Choice{Kind: ChoiceSolo})

	// Tab goes to the nearest score; the third has no replay and is passed.
	lt.keys(tcell.KeyHome, tcell.KeyTab, tcell.KeyEnter)
	lt.chose(Choice{Kind: ChoiceReplay, Score: lt.data.Scores[0]})
	lt.keys(tcell.KeyDown, tcell.KeyDown, tcell.KeyEnter)
	lt.chose(Choice{Kind: ChoiceReplay, Score: lt.data.Scores[3]})
	lt.keys(tcell.KeyLeft, tcell.KeyEnter) // the nearest line: alpha's, beside player4's
	lt.chose(Choice{Kind: ChoiceJoin, Name: "alpha"})

	lt.keys("q")
	lt.chose(Choice{Kind: ChoiceQuit})
	lt.keys(tcell.KeyEscape)
	lt.chose(Choice{Kind: ChoiceQuit})
	lt.keys(tcell.KeyCtrlC)
	lt.chose(Choice{Kind: ChoiceQuit})
}

func TestLobbyNewArena(t *testing.T) {
	lt := newLobbyTest(t, 80, 24)
	// Opened from its line; Enter on an empty name asks for one.
	lt.keys(tcell.KeyHome, tcell.KeyDown, tcell.KeyDown, tcell.KeyDown, tcell.KeyDown, tcell.KeyEnter)
	if x, _ := lt.find("New arena ─"); x < 0 {
		t.Fatalf("New arena... did not open the form:\n%s", lt.draw())
	}
	lt.keys(tcell.KeyEnter)
	if x, _ := lt.find("type a name first"); x < 0 {
		t.Errorf("Enter with no name:\n%s", lt.draw())
	}
	lt.chose()
	// Names follow hub.ParseName: q types, other runes are dropped.
	lt.keys("-_My Arena!q", tcell.KeyEnter)
	lt.chose(Choice{Kind: ChoiceNew, Name: "myarenaq"})

	lt.keys("n", "0123456789abcdefXYZ", tcell.KeyBackspace2, tcell.KeyTab, " ", tcell.KeyEnter)
	lt.chose(Choice{Kind: ChoiceNew, Name: "0123456789abcde", PvP: true})

	// Esc closes the form and nothing is chosen; the next Esc quits.
	lt.keys("n", "x", tcell.KeyEscape)
	lt.chose()
	if x, _ := lt.find("New arena ─"); x >= 0 {
		t.Errorf("Esc left the form open:\n%s", lt.draw())
	}
	lt.keys(tcell.KeyEscape)
	lt.chose(Choice{Kind: ChoiceQuit})

	// Cancel, by Tab and Enter.
	lt.keys("n", "x", tcell.KeyBacktab, tcell.KeyEnter, tcell.KeyHome, tcell.KeyEnter)
	lt.chose(Choice{Kind: ChoiceSolo})

	// Pasted text goes into the name.
	lt.keys("n")
	lt.l.PasteHandler()("Paste\x1b[31m", func(tview.Primitive) {})
	lt.keys(tcell.KeyEnter)
	lt.chose(Choice{Kind: ChoiceNew, Name: "paste31m"})
}

// TestLobbyName: r asks the player's name, showing the one they play
// under (lobby-name-80x24); what is typed follows the one name rule (a
// wide character is dropped), up to 16 characters, and Enter chooses it;
// an empty name is refused, Esc leaves it as it was.
func TestLobbyName(t *testing.T) {
	lt := newLobbyTest(t, 80, 24)
	if x, _ := lt.find("as ann (r: another name)"); x < 0 {
		t.Fatalf("the lobby does not say whose name the player plays under:\n%s", lt.draw())
	}
	lt.keys("r")
	looksLike(t, lt.scr, "lobby-name-80x24")
	lt.keys(tcell.KeyCtrlU, tcell.KeyEnter)
	if x, _ := lt.find("type a name first"); x < 0 {
		t.Errorf("Enter with no name:\n%s", lt.draw())
	}
	lt.chose()
	// A character the name rule refuses says why, as does one too many;
	// the next one typed takes the reason away.
	lt.keys(" Zoë 界")
	if x, _ := lt.find(oneCell); x < 0 {
		t.Errorf("a wide character typed, and no reason why it was not taken:\n%s", lt.draw())
	}
	lt.keys("😀")
	if x, _ := lt.find(oneCell); x < 0 {
		t.Errorf("an emoji typed, and no reason why it was not taken:\n%s", lt.draw())
	}
	lt.keys(" Ångström the Great")
	if x, _ := lt.find(fullName); x < 0 {
		t.Errorf("a 17th character typed, and no reason why it was not taken:\n%s", lt.draw())
	}
	if x, _ := lt.find("[   ok   ]"); x < 0 {
		t.Errorf("the name's button does not say it only names:\n%s", lt.draw())
	}
	lt.keys(tcell.KeyEnter)
	lt.chose(Choice{Kind: ChoiceName, Name: "Zoë  Ångström th"})
	lt.keys("r", "x", tcell.KeyEscape)
	lt.chose()
	if x, _ := lt.find(" Your name "); x >= 0 {
		t.Errorf("Esc left the form open:\n%s", lt.draw())
	}
	// The form opens with the name selected: typed over, it is replaced;
	// a backspace clears it; a move keeps it, to type after.
	lt.keys("r", "Annie", tcell.KeyEnter)
	lt.chose(Choice{Kind: ChoiceName, Name: "Annie"})
	lt.keys("r", tcell.KeyBackspace2, "bo", tcell.KeyEnter)
	lt.chose(Choice{Kind: ChoiceName, Name: "bo"})
	lt.keys("r", tcell.KeyDown, tcell.KeyUp, "b", tcell.KeyEnter)
	lt.chose(Choice{Kind: ChoiceName, Name: "annb"})
}

func TestLobbyMouse(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}, {60, 30}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			lt := newLobbyTest(t, size[0], size[1])
			lt.click("bravo-pvp")
			lt.chose(Choice{Kind: ChoiceJoin, Name: "bravo-pvp"})
			lt.click("alice")
			lt.chose(Choice{Kind: ChoiceWatch, Name: "alice"})
			lt.click("player4")
			lt.chose(Choice{Kind: ChoiceReplay, Score: lt.data.Scores[3]})
			lt.click("player3") // no replay
			lt.click("HIGH SCORES")
			lt.chose()
			lt.click("Play solo")
			lt.chose(Choice{Kind: ChoiceSolo})

			lt.click("New arena...")
			lt.chose()
			lt.keys("duel")
			lt.click("( ) pvp")
			lt.click("[ create ]")
			lt.chose(Choice{Kind: ChoiceNew, Name: "duel", PvP: true})
			lt.click("New arena...")
			lt.click("[ cancel ]")
			lt.chose()
			lt.click("alpha              3/8")
			lt.chose(Choice{Kind: ChoiceJoin, Name: "alpha"})
		})
	}
}

// The selection stays on its arena when the list changes around it, and
// on its line when its arena goes.
func TestLobbyRefreshKeepsSelection(t *testing.T) {
	lt := newLobbyTest(t, 80, 24)
	lt.keys(tcell.KeyDown, tcell.KeyDown) // bravo-pvp
	lt.data.Arenas = append([]LobbyArena{{Name: "new1", Max: 8}}, lt.data.Arenas...)
	lt.l.Refresh()
	lt.keys(tcell.KeyEnter)
	lt.chose(Choice{Kind: ChoiceJoin, Name: "bravo-pvp"})
	lt.data.Arenas = slicesDelete(lt.data.Arenas, 2)
	lt.l.Refresh()
	lt.keys(tcell.KeyEnter)
	lt.chose(Choice{Kind: ChoiceJoin, Name: "0123456789abcdef"})
}

func slicesDelete(s []LobbyArena, i int) []LobbyArena {
	return append(s[:i:i], s[i+1:]...)
}

// On a screen too short for the list, the selection scrolls into view.
func TestLobbyScroll(t *testing.T) {
	lt := newLobbyTest(t, 60, 12)
	for range 30 {
		lt.keys(tcell.KeyDown)
		scr := screenText(lt.scr)
		sel := -1
		for y := range 12 {
			if c, _, _ := lt.scr.Get(3, y); c != "" {
				if _, st, _ := lt.scr.Get(3, y); st == lobbySelStyle {
					sel = y
				}
			}
		}
		if sel < 1 || sel > 8 {
			t.Fatalf("the selection is on row %d, not among the list's rows 1..8:\n%s", sel, scr)
		}
	}
	lt.keys(tcell.KeyEnter)
	lt.chose(Choice{Kind: ChoiceReplay, Score: lt.data.Scores[9]})
}

// TestLobbyRefreshReports: a refresh reports whether the data changed,
// though its owner changes the slices it returned in place.
func TestLobbyRefreshReports(t *testing.T) {
	d := lobbyData()
	d.Boards = []LobbyBoard{{Title: "TODAY", Scores: d.Scores[:2]}}
	l := NewLobby(func() LobbyData { return d }, func(Choice) {})
	for _, change := range []struct {
		name string
		f    func()
	}{
		{"nothing", func() {}},
		{"an arena's players", func() { d.Arenas[1].Players-- }},
		{"a game gone", func() { d.Games = d.Games[:1] }},
		{"a score", func() { d.Scores[5].Score++ }},
		{"a board's score", func() { d.Boards[0].Scores[1].Name = "zed" }},
		{"the player's place", func() { d.Boards[0].You.Place = 3 }},
		{"a board more", func() { d.Boards = append(d.Boards, LobbyBoard{Title: "THIS WEEK"}) }},
	} {
		change.f()
		if got, want := l.Refresh(), change.name != "nothing"; got != want {
			t.Errorf("a refresh after %s reports %v, want %v", change.name, got, want)
		}
		if l.Refresh() {
			t.Errorf("the refresh after %s and its refresh reports a change", change.name)
		}
	}
}

func TestLobbyRefreshAllocs(t *testing.T) {
	d := lobbyData()
	l := NewLobby(func() LobbyData { return d }, func(Choice) {})
	if n := testing.AllocsPerRun(100, func() { l.Refresh() }); n != 0 {
		t.Errorf("a refresh of unchanged data allocates %v times; want 0", n)
	}
	i := 0
	if n := testing.AllocsPerRun(100, func() { i++; d.Arenas[0].Players = i % 8; l.Refresh() }); n > 1 {
		t.Errorf("a refresh with one line changed allocates %v times; want 1", n)
	}
}

// At any size, with the form open or not, drawing, keys and clicks
// anywhere keep the lobby whole: no panic, the selection on an item.
func TestLobbyAnySize(t *testing.T) {
	lt := newLobbyTest(t, 1, 1)
	keys := []tcell.Key{tcell.KeyDown, tcell.KeyUp, tcell.KeyTab, tcell.KeyPgDn, tcell.KeyEnd, tcell.KeyEnter, tcell.KeyBacktab}
	for w := 1; w <= 90; w += 3 {
		for h := 1; h <= 30; h += 2 {
			lt.scr.SetSize(w, h)
			lt.l.SetRect(0, 0, w, h)
			lt.keys(keys[(w+h)%len(keys)], "n"[:(w/3)%2])
			for y := range h {
				for x := range w {
					lt.l.MouseHandler()(tview.MouseLeftClick, tcell.NewEventMouse(x, y, tcell.Button1, tcell.ModNone), func(tview.Primitive) {})
				}
			}
			lt.draw()
			if lt.l.sel < 0 || lt.l.sel >= len(lt.l.items) {
				t.Fatalf("%dx%d: selection %d of %d items", w, h, lt.l.sel, len(lt.l.items))
			}
			lt.choices = nil
		}
	}
}

// Back from a choice that failed or ended, the lobby's selection is on
// it again: the arena that was full, or New arena whatever name was typed.
func TestLobbySelect(t *testing.T) {
	lt := newLobbyTest(t, 80, 24)
	lt.l.Select(Choice{Kind: ChoiceJoin, Name: "bravo-pvp"})
	lt.keys(tcell.KeyEnter)
	lt.chose(Choice{Kind: ChoiceJoin, Name: "bravo-pvp"})
	lt.l.Select(Choice{Kind: ChoiceWatch, Name: "alice"})
	lt.keys(tcell.KeyEnter)
	lt.chose(Choice{Kind: ChoiceWatch, Name: "alice"})
	lt.l.Select(Choice{Kind: ChoiceNew, Name: "pit", PvP: true})
	lt.keys(tcell.KeyUp, tcell.KeyDown, tcell.KeyEnter) // opens the form, empty
	if !lt.l.form.open {
		t.Errorf("New arena not selected: Enter did not open the form\n%s", lt.draw())
	}
}

// TestLobbyListBoards: the lobby's data holds the table's boards of all
// time, this week and today, and the player's best on each.
func TestLobbyListBoards(t *testing.T) {
	store, err := scores.Open(filepath.Join(t.TempDir(), "scores.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []scores.Entry{
		{Name: "old", Score: 900, When: time.Now().AddDate(-1, 0, 0)},
		{Name: "ann", Score: 500, When: time.Now().AddDate(-1, 0, 0)},
		{Name: "ann", Score: 100},
		{Name: "bob", Score: 200},
	} {
		if _, err := store.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	h, err := hub.New(hub.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	d := lobbyList(LobbyOptions{Game: Options{Scores: store, Player: "ann"}, Hub: h})
	got := fmt.Sprintf("%d:%+v", len(d.Scores), d.You)
	for _, b := range d.Boards {
		got += fmt.Sprintf(" %s %d:%+v", b.Title, len(b.Scores), b.You)
	}
	if want := "4:{Place:2 Score:500} THIS WEEK 2:{Place:2 Score:100} TODAY 2:{Place:2 Score:100}"; got != want {
		t.Errorf("lobby data %s\nwant %s", got, want)
	}
}

// fleetStub is a fleet of one other server, which holds the arena far.
type fleetStub struct{}

func (fleetStub) List(d *LobbyData) {
	d.Arenas = append(d.Arenas, LobbyArena{Name: "far", Players: 1, Max: 4})
	d.Games = append(d.Games, LobbyGame{Name: "far", Arena: true, Players: 1})
}

func (fleetStub) Play(context.Context, Choice) (string, bool, error) { return "", false, nil }

// TestLobbyListFleet: the lobby lists the rest of the fleet's rooms with
// this server's.
func TestLobbyListFleet(t *testing.T) {
	h, err := hub.New(hub.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	d := lobbyList(LobbyOptions{Hub: h, Fleet: fleetStub{}})
	if len(d.Arenas) != 1 || d.Arenas[0].Name != "far" || len(d.Games) != 1 || d.Games[0].Name != "far" {
		t.Errorf("lobby data %+v, want the fleet's arena far", d)
	}
}
