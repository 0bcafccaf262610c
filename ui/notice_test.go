package ui

import (
	"strings"
	"sync/atomic"
	"testing"
)

// TestNotice: the server's notice shows on the field's border while it
// says something, and in the lobby above the key help, where a status of
// the lobby's own comes first; a refresh with a new notice redraws.
func TestNotice(t *testing.T) {
	var notice atomic.Pointer[string]
	say := func(s string) { notice.Store(&s) }
	say("server stopping in 42 s")
	r := startRun(t, "UTF-8", 120, 40, Options{Seed: 1, Notice: func() string { return *notice.Load() }})
	r.waitFor("the notice on the border", func() bool { return strings.Contains(r.text(), "server stopping in 42 s") })
	say("")
	r.waitFor("the notice gone", func() bool { return !strings.Contains(r.text(), "server stopping") })

	lt := newLobbyTest(t, 120, 40)
	lt.data.Notice = "server stopping in 9 s"
	if !lt.l.Refresh() {
		t.Error("a refresh with a new notice reports no change")
	}
	if text := lt.draw(); !strings.Contains(text, "server stopping in 9 s") {
		t.Errorf("the lobby does not show the notice:\n%s", text)
	}
	lt.l.SetStatus("the arena is full")
	if text := lt.draw(); !strings.Contains(text, "the arena is full") || strings.Contains(text, "server stopping") {
		t.Errorf("the lobby's own status does not come first:\n%s", text)
	}
}
