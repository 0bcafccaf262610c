package route

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gdamore/tcell/v2"

	"poolroids/game"
	"poolroids/game/hub"
	"poolroids/game/play"
	"poolroids/ui"
	"poolroids/ui/serve"
	"poolroids/ui/serve/fleet"
)

// fakeDir is a fleet's directory without a database: rooms are the other
// servers', hops says who holds each name (the holder of a claim too; a
// name it lacks cannot be claimed: the database is away).
type fakeDir struct {
	rooms []fleet.Room
	hops  map[string]string
	lost  map[string]string // rooms here the directory gives to another
	down  bool              // no claim is answered

	mu     sync.Mutex
	claims []string
}

func (d *fakeDir) Rooms() []fleet.Room { return slices.Clone(d.rooms) }

func (d *fakeDir) Elsewhere(name string) (string, bool) {
	for _, r := range d.rooms {
		if r.Name == name {
			return d.hops[name], true
		}
	}
	return "", false
}

func (d *fakeDir) Claim(ctx context.Context, name string) (string, error) {
	d.mu.Lock()
	d.claims = append(d.claims, name)
	d.mu.Unlock()
	if h, ok := d.hops[name]; ok && !d.down {
		return h, nil
	}
	return "", errors.New("the database is away")
}

func (d *fakeDir) Lost(name string) (string, bool) {
	h, ok := d.lost[name]
	return h, ok
}

func (d *fakeDir) Stats() fleet.Stats { return fleet.Stats{} }

func (d *fakeDir) Close() {}

// testMember is r's place in a fleet listed in dir, as "a:2223".
func testMember(r *Router, dir directory) *member {
	return &member{dir: dir, hop: "a:2223", hub: r.hub, live: r.live, log: slog.New(slog.DiscardHandler)}
}

// TestHolder: what this server holds, and an arena it claims, are played
// here; what another server holds or claimed first is played there, and so
// is an arena here whose name the directory gives another; without the
// directory, an arena last seen elsewhere is played there and none opens
// here.
func TestHolder(t *testing.T) {
	t.Parallel()
	r := newRouter(t, 2)
	seat(t, r, hub.Request{Arena: "here", Player: "bob"})
	seat(t, r, hub.Request{Arena: "twin", Player: "cy"})
	dir := &fakeDir{
		rooms: []fleet.Room{{Name: "far", Arena: true}, {Name: "solo"}, {Name: "twin", Arena: true}},
		hops:  map[string]string{"far": "b:2223", "solo": "b:2223", "mine": "a:2223", "race": "c:2223", "twin": "b:2223"},
		lost:  map[string]string{"twin": "b:2223"},
	}
	m := testMember(r, dir)
	for _, c := range []struct {
		choice ui.Choice
		want   string
		err    error
	}{
		{ui.Choice{Kind: ui.ChoiceJoin, Name: "here"}, "", nil},
		{ui.Choice{Kind: ui.ChoiceNew, Name: "here"}, "", nil}, // refused here: the name is taken
		{ui.Choice{Kind: ui.ChoiceJoin, Name: "far"}, "b:2223", nil},
		{ui.Choice{Kind: ui.ChoiceNew, Name: "race", PvP: true}, "c:2223", nil},
		{ui.Choice{Kind: ui.ChoiceJoin, Name: "mine"}, "", nil},
		{ui.Choice{Kind: ui.ChoiceJoin, Name: "twin"}, "b:2223", nil},
		{ui.Choice{Kind: ui.ChoiceJoin, Name: "away"}, "", errNoDirectory},
		{ui.Choice{Kind: ui.ChoiceNew, Name: "away"}, "", errNoDirectory},
		{ui.Choice{Kind: ui.ChoiceWatch, Name: "here"}, "", nil},
		{ui.Choice{Kind: ui.ChoiceWatch, Name: "solo"}, "b:2223", nil},
		{ui.Choice{Kind: ui.ChoiceWatch, Name: "nobody"}, "", nil},
	} {
		if got, err := m.holder(context.Background(), c.choice); got != c.want || err != c.err {
			t.Errorf("holder(%+v) = %q, %v; want %q, %v", c.choice, got, err, c.want, c.err)
		}
	}
	if want := []string{"far", "race", "mine", "away", "away"}; !slices.Equal(dir.claims, want) {
		t.Errorf("claimed %q, want %q: an arena open here, or a watch, claims nothing", dir.claims, want)
	}
	dir.down = true
	if got, err := m.holder(context.Background(), ui.Choice{Kind: ui.ChoiceJoin, Name: "far"}); got != "b:2223" || err != nil {
		t.Errorf("without the directory, far (last seen on b): %q, %v; want b:2223", got, err)
	}
}

// TestPlayRoutesAcrossFleet: a command for what another server holds is
// relayed there (here by a session of no server, whose relay fails: the
// holder is "gone"), unless the session is itself a relay: it plays here.
func TestPlayRoutesAcrossFleet(t *testing.T) {
	t.Parallel()
	r := newRouter(t, 1)
	r.fleet = testMember(r, &fakeDir{rooms: []fleet.Room{{Name: "far"}}, hops: map[string]string{"far": "b:2223"}})
	watch := session(serve.Command{Verb: serve.VerbWatch, Name: "far"})

	_, err := r.Play(context.Background(), tcell.NewSimulationScreen(""), watch)
	if got, want := refusal(t, err), "the server that holds far is gone"; got != want {
		t.Errorf("relayed: refused with %q, want %q", got, want)
	}

	watch.Relayed = true
	_, err = r.Play(context.Background(), nil, watch)
	if got := refusal(t, err); !strings.HasPrefix(got, play.ErrNoGame.Error()) {
		t.Errorf("a relay: refused with %q, want %q", got, play.ErrNoGame)
	}
}

// TestPlayWebAcrossFleet: a browser's session asking for what another
// server holds is relayed there, as an SSH session's is (here to a hop
// that cannot be reached: the page is told so); the lobby's choice of it
// likewise. The relays themselves are the root package's fleet tests.
func TestPlayWebAcrossFleet(t *testing.T) {
	t.Parallel()
	r := newRouter(t, 1)
	r.fleet = testMember(r, &fakeDir{rooms: []fleet.Room{{Name: "far"}}, hops: map[string]string{"far": "127.0.0.1:1"}})
	watch := session(serve.Command{Verb: serve.VerbWatch, Name: "far"})
	watch.Web = true
	_, err := r.PlayWeb(context.Background(), nil, watch)
	want := "the server that holds far cannot be reached, try later"
	if got := refusal(t, err); got != want {
		t.Errorf("refused with %q, want %q", got, want)
	}
	status, elsewhere, err := lobby{m: r.fleet, s: watch}.Play(context.Background(), ui.Choice{Kind: ui.ChoiceJoin, Name: "far"})
	if !elsewhere || err != nil || status != want {
		t.Errorf("the lobby's choice: %q, %v, %v; want %q", status, elsewhere, err, want)
	}
}

// solo is a solo game that never steps.
func solo(t *testing.T) *play.Game {
	t.Helper()
	g, err := play.NewSolo(game.Config{}, false, play.Scoring{}, play.Controls{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestHoldings: the directory lists the arenas with players and the solo
// games open to watchers, not the hidden ones.
func TestHoldings(t *testing.T) {
	t.Parallel()
	r := newRouter(t, 2)
	seat(t, r, hub.Request{Arena: "coop", Player: "bob"})
	seat(t, r, hub.Request{Arena: "duel", Player: "cy", Mode: game.PvP})
	r.live.Add("ann", solo(t), true)
	r.live.Add("dan", solo(t), false)
	got := testMember(r, &fakeDir{}).holdings(nil)
	want := []fleet.Room{
		{Name: "coop", Arena: true, Players: 1, Size: 2},
		{Name: "duel", Arena: true, Players: 1, Size: 2, PvP: true},
		{Name: "ann", Players: 1},
	}
	if !slices.Equal(got, want) {
		t.Errorf("holdings:\n got %+v\nwant %+v", got, want)
	}
}

// TestHoldingsArenaFirst: an arena opened under the name of a solo game
// here (join bob, bob playing alone) is listed, and the game it hides
// from watchers by name is not: the directory kept the one row the game
// wrote last, and the arena was open and counted, and listed nowhere.
func TestHoldingsArenaFirst(t *testing.T) {
	t.Parallel()
	r := newRouter(t, 2)
	r.live.Add("bob", solo(t), true)
	seat(t, r, hub.Request{Arena: "bob", Player: "ann"})
	got := testMember(r, &fakeDir{}).holdings(nil)
	want := []fleet.Room{{Name: "bob", Arena: true, Players: 1, Size: 2}}
	if !slices.Equal(got, want) {
		t.Errorf("holdings:\n got %+v\nwant %+v", got, want)
	}
}

// TestSoloNamesAvoidFleet: a solo game does not take a name another
// server of the fleet holds.
func TestSoloNamesAvoidFleet(t *testing.T) {
	t.Parallel()
	r := newRouter(t, 1)
	if got := r.live.Add("bob", solo(t), true).Name(); got != "bob" {
		t.Errorf("alone: named %q, want bob", got)
	}
	r.fleet = testMember(r, &fakeDir{rooms: []fleet.Room{{Name: "eve"}}})
	if got := r.live.Add("eve", solo(t), true).Name(); got != "eve-2" {
		t.Errorf("in a fleet: named %q, want eve-2", got)
	}
}

// TestLobbyList: the other servers' rooms join this one's in the lobby's
// order: arenas by name; games, arenas first, each by name.
func TestLobbyList(t *testing.T) {
	t.Parallel()
	r := newRouter(t, 1)
	l := lobby{m: testMember(r, &fakeDir{rooms: []fleet.Room{
		{Name: "zed", Arena: true, Players: 2, Size: 4, Watchers: 1},
		{Name: "amy", Players: 1},
		{Name: "bea", Arena: true, Players: 1, Size: 4, PvP: true},
	}})}
	d := ui.LobbyData{
		Arenas: []ui.LobbyArena{{Name: "cat", Players: 1, Max: 1}},
		Games:  []ui.LobbyGame{{Name: "cat", Arena: true, Players: 1}, {Name: "ben", Players: 1}},
	}
	l.List(&d)
	var arenas, games []string
	for _, a := range d.Arenas {
		arenas = append(arenas, a.Name)
	}
	for _, g := range d.Games {
		games = append(games, g.Name)
	}
	if want := []string{"bea", "cat", "zed"}; !slices.Equal(arenas, want) {
		t.Errorf("arenas %q, want %q", arenas, want)
	}
	if want := []string{"bea", "cat", "zed", "amy", "ben"}; !slices.Equal(games, want) {
		t.Errorf("games %q, want %q", games, want)
	}
	if z := d.Arenas[2]; z != (ui.LobbyArena{Name: "zed", Players: 2, Max: 4, Watchers: 1}) || !d.Arenas[0].PvP {
		t.Errorf("arenas %+v: counts or mode lost", d.Arenas)
	}
}

// TestLobbyListLost: an arena here whose name the directory gives another
// server is listed once, as the other's.
func TestLobbyListLost(t *testing.T) {
	t.Parallel()
	r := newRouter(t, 1)
	l := lobby{m: testMember(r, &fakeDir{
		rooms: []fleet.Room{{Name: "den", Arena: true, Players: 3, Size: 4}},
		lost:  map[string]string{"den": "b:2223"},
	})}
	d := ui.LobbyData{
		Arenas: []ui.LobbyArena{{Name: "den", Players: 1, Max: 1}},
		Games:  []ui.LobbyGame{{Name: "den", Arena: true, Players: 1}},
	}
	l.List(&d)
	if len(d.Arenas) != 1 || d.Arenas[0].Players != 3 || len(d.Games) != 1 || d.Games[0].Players != 3 {
		t.Errorf("lobby %+v, want den once, the other server's with its 3 players", d)
	}
}

// TestCommandLine: the command a relay sends asks the holder for the
// choice itself, and so does a browser's relayed path (its parse is
// serve's TestWebCommand): a new arena in its mode.
func TestCommandLine(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		choice ui.Choice
		want   serve.Command
		path   string
	}{
		{ui.Choice{Kind: ui.ChoiceJoin, Name: "a"}, serve.Command{Verb: serve.VerbJoin, Name: "a"}, "/join/a"},
		{ui.Choice{Kind: ui.ChoiceNew, Name: "a"}, serve.Command{Verb: serve.VerbNew, Name: "a"}, "/new/a"},
		{ui.Choice{Kind: ui.ChoiceNew, Name: "a", PvP: true}, serve.Command{Verb: serve.VerbNew, Name: "a", PvP: true}, "/new/a/pvp"},
		{ui.Choice{Kind: ui.ChoiceWatch, Name: "a"}, serve.Command{Verb: serve.VerbWatch, Name: "a"}, "/watch/a"},
	} {
		line := commandLine(c.choice)
		if got, err := serve.ParseCommand(line, 0); err != nil || got != c.want {
			t.Errorf("commandLine(%+v) = %q, parsed as %+v, %v; want %+v", c.choice, line, got, err, c.want)
		}
		if got := webPath(c.choice); got != c.path {
			t.Errorf("webPath(%+v) = %q, want %q", c.choice, got, c.path)
		}
	}
}
