package ui

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gdamore/tcell/v2"
)

// Leaving the lobby just as its refresh fires ends the lobby, whichever way
// it is left: by a choice, by Ctrl-C or by a failed terminal. (The refresh
// used to wait for ever for an update that tview's stopped loop would never
// run, and the session with it.) synctest fires the key and the refresh at
// the very same instant, in every order the scheduler picks.
func TestLobbyLeaveAsItRefreshes(t *testing.T) {
	leave := map[string]struct {
		act  func(tcell.SimulationScreen)
		want ChoiceKind
		err  bool
	}{
		"q":      {func(s tcell.SimulationScreen) { s.InjectKey(tcell.KeyRune, 'q', tcell.ModNone) }, ChoiceQuit, false},
		"enter":  {func(s tcell.SimulationScreen) { s.InjectKey(tcell.KeyEnter, 0, tcell.ModNone) }, ChoiceSolo, false},
		"ctrl-c": {func(s tcell.SimulationScreen) { s.InjectKey(tcell.KeyCtrlC, 0, tcell.ModNone) }, ChoiceQuit, false},
		"input error": {func(s tcell.SimulationScreen) {
			_ = s.PostEvent(tcell.NewEventError(errors.New("link down")))
		}, 0, true},
	}
	for name, tc := range leave {
		t.Run(name, func(t *testing.T) {
			for range 40 {
				synctest.Test(t, func(t *testing.T) {
					scr := tcell.NewSimulationScreen("UTF-8")
					scr.SetSize(80, 24)
					shared := NewShared(scr)
					defer scr.Fini()
					type result struct {
						c   Choice
						err error
					}
					done := make(chan result)
					go func() {
						c, err := runLobby(context.Background(), shared.View(), lobbyData, "", Choice{})
						done <- result{c, err}
					}()
					synctest.Wait()
					// A little after the start, the refresh ticks: leave then.
					for range 3 {
						time.Sleep(lobbyRefresh)
					}
					tc.act(scr)
					r := <-done // a lobby that does not end is a deadlock synctest reports
					if (r.err != nil) != tc.err {
						t.Fatalf("runLobby: %v", r.err)
					}
					if !tc.err && r.c.Kind != tc.want {
						t.Fatalf("runLobby chose %+v, want kind %v", r.c, tc.want)
					}
				})
			}
		})
	}
}
