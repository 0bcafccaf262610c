package serve

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/gdamore/tcell/v2"

	"poolroids/ui/web"
)

// webPlay is the tests' browser session: it shows who asked for what,
// and plays a few keys: q quits, w watches, g plays a game (refused
// when the address plays too many), x fails, p panics.
func webPlay(ctx context.Context, scr *web.Screen, s Session) (int, error) {
	f := scr.Cells()
	f.Resize(scr.Size())
	put := func(y int, text string) {
		for x := 0; text != ""; {
			var w int
			text, w = f.Put(x, y, text, tcell.StyleDefault)
			x += max(w, 1)
		}
		scr.Show()
	}
	put(0, fmt.Sprintf("hello %s %v %s", s.Name, s.Command.Verb, s.Command.Name))
	for {
		select {
		case <-ctx.Done():
			return 0, nil
		case ev := <-scr.Events():
			k, ok := ev.(*tcell.EventKey)
			if !ok {
				continue
			}
			switch k.Rune() {
			case 'q':
				return 7, nil
			case 'w':
				s.SetWatching(true)
			case 'g':
				if err := s.SetPlaying(true); err != nil {
					return 0, err
				}
				put(1, "playing")
			case 'x':
				return 0, errors.New("failed on purpose")
			case 'p':
				panic("panicked on purpose")
			}
		}
	}
}

// startWebServer starts a server with a web listener; it returns the
// socket's URL.
func startWebServer(t *testing.T, cfg Config) (*testServer, string) {
	t.Helper()
	if cfg.PlayWeb == nil {
		cfg.PlayWeb = webPlay
	}
	ts := startServer(t, cfg)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- ts.ServeWeb(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = ts.Shutdown(ctx)
		if err := <-done; !errors.Is(err, ErrServerClosed) {
			t.Errorf("ServeWeb returned %v, want ErrServerClosed", err)
		}
	})
	return ts, "ws://" + ln.Addr().String() + "/ws"
}

// page is a browser's socket as the tests drive it.
type page struct {
	t    *testing.T
	ws   *websocket.Conn
	grid *web.Grid
}

// openPage opens the socket at url for path, as the client at forwarded
// says a balancer forwarded it ("": none), without a hello.
func openPage(t *testing.T, url, forwarded string) *page {
	t.Helper()
	h := http.Header{}
	if forwarded != "" {
		h.Set("X-Forwarded-For", forwarded)
	}
	ws, _, err := websocket.Dial(context.Background(), url, &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.CloseNow() })
	return &page{t: t, ws: ws, grid: new(web.Grid)}
}

// hello opens a page at path as name, on an 80×24 grid.
func hello(t *testing.T, url, path, name string) *page {
	t.Helper()
	p := openPage(t, url, "")
	p.send(web.AppendHello(nil, web.Hello{Path: path, Name: name, Cols: 80, Rows: 24}))
	return p
}

func (p *page) send(msg []byte) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := p.ws.Write(ctx, websocket.MessageBinary, msg); err != nil {
		p.t.Fatal(err)
	}
}

// key sends a key going down and up.
func (p *page) key(r rune) {
	p.t.Helper()
	p.send(web.AppendKey(nil, web.Event{Type: web.KeyPress, Key: web.Key(r)}))
	p.send(web.AppendKey(nil, web.Event{Type: web.KeyRelease, Key: web.Key(r)}))
}

// read reads the next message: a frame is applied to the page's grid;
// bye is the goodbye's reason, if it was one.
func (p *page) read() (bye string, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, b, err := p.ws.Read(ctx)
	if err != nil {
		return "", err
	}
	switch b[0] {
	case web.MsgFrame:
		return "", p.grid.Apply(b)
	case web.MsgBye:
		return string(b[1:]), nil
	}
	return "", nil
}

// waitText reads frames until the grid's top rows hold want.
func (p *page) waitText(want string) {
	p.t.Helper()
	for {
		if strings.Contains(p.text(), want) {
			return
		}
		bye, err := p.read()
		if err != nil || bye != "" {
			p.t.Fatalf("waiting for %q, the page shows %q, then %q, %v", want, p.text(), bye, err)
		}
	}
}

func (p *page) text() string {
	var b strings.Builder
	for y := range 2 {
		w, _ := p.grid.Size()
		for x := range w {
			b.WriteString(cmp.Or(p.grid.At(x, y).Text, " "))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// goodbye reads until the server says goodbye, and returns why and the
// close status.
func (p *page) goodbye() (string, websocket.StatusCode) {
	p.t.Helper()
	bye := ""
	for {
		b, err := p.read()
		if b != "" {
			bye = b
		}
		if err != nil {
			return bye, websocket.CloseStatus(err)
		}
	}
}

// wantBye checks that the page is told want (a prefix) as it is closed.
func (p *page) wantBye(want string) {
	p.t.Helper()
	if bye, code := p.goodbye(); !strings.HasPrefix(bye, want) {
		p.t.Errorf("the page was told %q (%v), want %q", bye, code, want)
	}
}

// TestWebSession plays a browser's session: its name through the one
// name rule, its path as the command, its end; a bad path, a failure or
// a panic is told to the page, and logged.
func TestWebSession(t *testing.T) {
	ts, url := startWebServer(t, Config{})

	p := hello(t, url, "/join/Den", "Zoë\u202e!")
	p.waitText("hello " + CleanName("Zoë\u202e!") + " join den")
	if got := ts.WebSessions(); got != 1 {
		t.Errorf("WebSessions = %d, want 1", got)
	}
	p.key('q')
	p.wantBye("the session ended")

	hello(t, url, "/watch/", "").wantBye("bad name")
	hello(t, url, "/etc/passwd", "").wantBye("no page /etc/passwd here")
	x := hello(t, url, "/", "")
	x.waitText("hello anonymous lobby")
	x.key('x')
	x.wantBye("internal error, session closed")
	p = hello(t, url, "/", "")
	p.waitText("hello anonymous lobby")
	p.key('p')
	p.wantBye("internal error, session closed")
	for _, want := range []string{"path=/join/Den", "reason=quit", "no such page", "failed on purpose", "panicked on purpose", "reason=panic"} {
		if !waitUntil(t, func() bool { return strings.Contains(ts.log.String(), want) }) {
			t.Errorf("the log has no %q:\n%s", want, ts.log.String())
		}
	}
	if !waitUntil(t, func() bool { return ts.WebSessions() == 0 && ts.Sessions() == 0 }) {
		t.Errorf("sessions left: %d web, %d in all", ts.WebSessions(), ts.Sessions())
	}
}

// TestWebCommand: a page's path asks for what the SSH command of the same
// words does, a new arena in its mode included (the path another server's
// lobby relays it with); a path of nothing else is refused.
func TestWebCommand(t *testing.T) {
	t.Parallel()
	for path, line := range map[string]string{
		"/":            "",
		"/join/Den":    "join den",
		"/watch/den":   "watch den",
		"/new/den":     "new den",
		"/new/den/pvp": "new den --pvp",
		"/new/pvp":     "new pvp",
	} {
		want, err := ParseCommand(line, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := webCommand(path); err != nil || got != want {
			t.Errorf("webCommand(%q) = %+v, %v; want %+v", path, got, err, want)
		}
	}
	for _, path := range []string{"/new/", "/new/den/coop", "/join/den/pvp", "/new/den/pvp/pvp", "/post"} {
		if got, err := webCommand(path); err == nil {
			t.Errorf("webCommand(%q) = %+v, want an error", path, got)
		}
	}
}

// TestWebLimits counts browsers' sessions, games and connections with
// SSH's: one tally per address, one connection budget.
func TestWebLimits(t *testing.T) {
	t.Run("sessions and games per address", func(t *testing.T) {
		ts, url := startWebServer(t, Config{MaxPerAddress: 1, MaxSessionsPerAddress: 2})
		a, b := hello(t, url, "/", "a"), hello(t, url, "/", "b")
		a.waitText("hello a")
		b.waitText("hello b")
		hello(t, url, "/", "c").wantBye("too many sessions from your address (2 at once)")
		a.key('g')
		a.waitText("playing")
		b.key('g')
		b.wantBye("too many games from your address (1 at once)")
		if got := ts.Sessions(); got != 1 {
			t.Errorf("Sessions = %d, want 1", got)
		}
	})
	t.Run("one connection budget with SSH", func(t *testing.T) {
		ts, url := startWebServer(t, Config{ConnPerMinute: 1, ConnBurst: 2})
		c := ts.mustDial(t, "ann", newKey(t))
		defer c.Close()
		hello(t, url, "/", "a").waitText("hello a")
		hello(t, url, "/", "b").wantBye("too many connections from your address")
	})
}

// TestWebTimeLimits ends a browser's session after Idle without a key,
// unless it watches, and after MaxTime in any case.
func TestWebTimeLimits(t *testing.T) {
	_, url := startWebServer(t, Config{Idle: time.Second, MaxTime: 3 * time.Second})
	watcher := hello(t, url, "/", "watcher")
	watcher.key('w') // at once: it is read after the hello
	idle := hello(t, url, "/", "idle")
	idle.wantBye("no input for 1s, disconnected")
	watcher.waitText("hello watcher")
	watcher.wantBye("session time limit (3s) reached")
}

// TestWebShutdown tells every page the server is shutting down, after a
// drain that leaves the sessions playing and takes no new one.
func TestWebShutdown(t *testing.T) {
	ts, url := startWebServer(t, Config{})
	p := hello(t, url, "/", "p")
	p.waitText("hello p")
	ts.Drain()
	if _, _, err := websocket.Dial(context.Background(), url, nil); err == nil {
		t.Error("a socket opened after the drain")
	}
	p.key('g')
	p.waitText("playing")
	bye := make(chan string, 1)
	go func() { b, _ := p.goodbye(); bye <- b }() // the page answers the close
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := ts.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if b := <-bye; b != "the server is shutting down" {
		t.Errorf("the page was told %q, want the server is shutting down", b)
	}
}

// TestWebBadInput closes a socket that misbehaves with the reason, while
// the server plays on for everyone else; behind a trusted balancer, a
// client's flood of idle sockets is its own address's to pay.
func TestWebBadInput(t *testing.T) {
	_, url := startWebServer(t, Config{ProxyFrom: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}, ConnPerMinute: 30, ConnBurst: 10})
	hi := web.AppendHello(nil, web.Hello{Path: "/", Cols: 80, Rows: 24})
	for i, c := range []struct {
		name string
		msgs [][]byte
		want string
	}{
		{"unknown message", [][]byte{hi, {9}}, "unknown message type 9"},
		{"malformed key", [][]byte{hi, {web.MsgKey, 1}}, "key message of 2 bytes, not 6"},
		{"no hello", [][]byte{web.AppendPing(nil, 1)}, "the first message must be the only hello"},
		{"too big", [][]byte{hi, make([]byte, 4096)}, "message over 512 bytes"},
		{"key flood", append([][]byte{hi}, repeat(web.AppendKey(nil, web.Event{Type: web.KeyPress, Key: 'z'}), 150)...), "too many keys"},
		{"resize storm", append([][]byte{hi}, repeat(web.AppendResize(nil, 100, 30), 40)...), "too many resizes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := openPage(t, url, fmt.Sprintf("10.0.1.%d", i))
			for _, m := range c.msgs {
				if err := p.ws.Write(context.Background(), websocket.MessageBinary, m); err != nil {
					break // closed already
				}
			}
			p.wantBye(c.want)
		})
	}
	t.Run("idle sockets", func(t *testing.T) {
		var wg sync.WaitGroup
		refused := make(chan string, 100)
		for range 100 {
			p := openPage(t, url, "10.0.2.1")
			wg.Go(func() {
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				defer cancel()
				if _, b, err := p.ws.Read(ctx); err == nil && b[0] == web.MsgBye {
					refused <- string(b[1:])
				}
			})
		}
		p := openPage(t, url, "10.0.2.2")
		p.send(web.AppendHello(nil, web.Hello{Path: "/", Name: "other", Cols: 80, Rows: 24}))
		p.waitText("hello other")
		wg.Wait()
		close(refused)
		n := 0
		for r := range refused {
			if !strings.HasPrefix(r, "too many connections from your address") {
				t.Errorf("an idle socket was told %q", r)
			}
			n++
		}
		// A burst of 10 is let in, then one every 2 s (30 a minute).
		if n < 85 || n > 90 {
			t.Errorf("%d of 100 idle sockets from one address refused, want about 90", n)
		}
	})
}

// TestWebProxyHeader: behind a balancer of Config.ProxyFrom, a socket's
// client is the one its PROXY header names.
func TestWebProxyHeader(t *testing.T) {
	ts, url := startWebServer(t, Config{ProxyFrom: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
	proxied := func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := new(net.Dialer).DialContext(ctx, network, addr)
		if err == nil {
			_, err = io.WriteString(c, "PROXY TCP4 10.9.8.7 127.0.0.1 40000 80\r\n")
		}
		return c, err
	}
	ws, _, err := websocket.Dial(context.Background(), url, &websocket.DialOptions{HTTPClient: &http.Client{Transport: &http.Transport{DialContext: proxied}}})
	if err != nil {
		t.Fatal(err)
	}
	p := &page{t: t, ws: ws, grid: new(web.Grid)}
	t.Cleanup(func() { ws.CloseNow() })
	p.send(web.AppendHello(nil, web.Hello{Path: "/", Name: "far", Cols: 80, Rows: 24}))
	p.waitText("hello far")
	if !waitUntil(t, func() bool { return strings.Contains(ts.log.String(), "addr=10.9.8.7 user=far web=true") }) {
		t.Errorf("the session is not the header's client's:\n%s", ts.log.String())
	}
}

func repeat(msg []byte, n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = msg
	}
	return out
}
