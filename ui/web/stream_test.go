package web

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"testing"
)

// TestRelay lends a page to another server's session (a Handler's
// ServeStream over a pipe) and back: the other session is told the
// page's size, the path and name the relay gives and the page's keys, the
// page shows its frames and title, not its goodbye, which is the relay's
// result; then the page's own screen is sent whole again, and its own
// title.
func TestRelay(t *testing.T) {
	t.Parallel()
	far := new(echo)
	other, err := NewHandler(Config{Session: far})
	if err != nil {
		t.Fatal(err)
	}
	local := SessionFunc(func(ctx context.Context, c *Conn) error {
		var g Grid
		show := func(s string) {
			cols, rows := c.Size()
			g.Resize(cols, rows)
			g.Clear()
			g.SetText(0, 0, s, DefaultColor, DefaultColor, 0)
			c.Show(&g)
		}
		show("local")
		for {
			select {
			case <-ctx.Done():
				return nil
			case ev := <-c.Events():
				if ev.Type != KeyPress || ev.Key != 'r' {
					continue
				}
				a, b := net.Pipe()
				go other.ServeStream(b, netip.MustParseAddr("192.0.2.1"), far)
				bye, err := c.Relay(a, "/watch/far", "bob")
				a.Close()
				show("back: " + bye + " " + errText(err))
			}
		}
	})
	srv, _ := serve(t, local, Config{})
	c := lobby(t, srv)
	c.send(AppendKey(nil, Event{Type: KeyPress, Key: 'r'}))
	c.until("the other server's frame", func() bool { return c.row(0) == "hello bob at /watch/far" })
	c.until("its title", func() bool { return c.title == "echo /watch/far" })
	c.send(AppendKey(nil, Event{Type: KeyPress, Key: 'x'}))
	c.until("the key shown there", func() bool { return strings.Contains(c.row(1)+c.row(2), "x") })
	c.send(AppendText(nil, "bye"))
	c.until("the page's own screen again", func() bool { return c.row(0) == "back: bye to you too" })
	if w, h := c.grid.Size(); w != 80 || h != 24 || c.row(1) != "" || c.row(2) != "" {
		t.Errorf("the page's own screen is %d×%d, rows 1–2 %q %q: want 80×24, sent whole", w, h, c.row(1), c.row(2))
	}
	c.until("the session's title again (none)", func() bool { return c.title == "" })
	if c.bye != "" {
		t.Errorf("the page was told %q: the other server's goodbye is the relay's", c.bye)
	}
	hellos, events, _, _ := far.snapshot()
	want := Hello{Path: "/watch/far", Name: "bob", Cols: 80, Rows: 24, Addr: netip.MustParseAddr("192.0.2.1")}
	if len(hellos) != 1 || hellos[0] != want {
		t.Errorf("the other server was told %+v, want %+v", hellos, want)
	}
	if len(events) < 2 || events[0].Key != 'x' && events[1].Key != 'x' {
		t.Errorf("the other server read %+v, want the x pressed", events)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
