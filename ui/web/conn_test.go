package web

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// echo is the tests' session. It draws, at the page's size, the hello
// and the last input; with scene set, the input on a blue band over the
// game-like scene, and a ⣿ in yellow at 2,36. On "/join/stream" the
// scene moves, a frame every 10 ms. It closes the connection when it
// reads shift-Q or the text "bye". It records what it read and showed.
type echo struct {
	scene bool

	mu     sync.Mutex
	hellos []Hello
	events []Event
	sizes  [][2]int
	ended  []string // "name: why" for each session that ended
	shown  Grid     // the last grid shown on "/"
}

func (e *echo) Play(ctx context.Context, c *Conn) error {
	h := c.Hello()
	e.mu.Lock()
	e.hellos = append(e.hellos, h)
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		e.ended = append(e.ended, h.Name+": "+context.Cause(ctx).Error())
		e.mu.Unlock()
	}()
	s := newScene(1, false)
	var g Grid
	var last []string
	draw := func() {
		cols, rows := c.Size()
		g.Resize(cols, rows)
		if e.scene {
			s.draw(&g)
			g.SetText(1, 29, fmt.Sprintf("%-60s", "the last input:"), PaletteColor(15), PaletteColor(4), Bold)
			for i, l := range last {
				g.SetText(1, 30+i, fmt.Sprintf("%-60s", l), PaletteColor(15), PaletteColor(4), 0)
			}
			g.Set(2, 36, Cell{Text: "⣿", Fg: PaletteColor(11)})
		} else {
			g.SetText(0, 0, fmt.Sprintf("hello %s at %s", h.Name, h.Path), PaletteColor(11), DefaultColor, Bold)
			for i, l := range last {
				g.SetText(0, 1+i, l, DefaultColor, PaletteColor(4), 0)
			}
		}
		if h.Path == "/" {
			e.mu.Lock()
			e.shown.CopyFrom(&g)
			e.mu.Unlock()
		}
		c.Show(&g)
	}
	c.SetTitle("echo " + h.Path)
	draw()
	var tick <-chan time.Time
	if h.Path == "/join/stream" {
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick:
			s.step()
		case ev := <-c.Events():
			e.mu.Lock()
			e.events = append(e.events, ev)
			e.mu.Unlock()
			if ev.Type == KeyPress && ev.Key == 'Q' || ev.Type == TextInput && ev.Text == "bye" {
				c.Close("bye to you too")
				continue
			}
			if last = append(last, describe(ev)); len(last) > 5 {
				last = last[1:]
			}
		case <-c.Resized():
			cols, rows := c.Size()
			e.mu.Lock()
			e.sizes = append(e.sizes, [2]int{cols, rows})
			e.mu.Unlock()
		}
		draw()
	}
}

func describe(ev Event) string {
	switch ev.Type {
	case KeyPress:
		return fmt.Sprintf("press %v mod %d", ev.Key, ev.Mod)
	case KeyRelease:
		return fmt.Sprintf("release %v mod %d", ev.Key, ev.Mod)
	case TextInput:
		return "text " + ev.Text
	case NameChange:
		return "name " + ev.Text
	}
	return "?"
}

// snapshot returns copies of what e recorded.
func (e *echo) snapshot() (hellos []Hello, events []Event, sizes [][2]int, ended []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append(hellos, e.hellos...), append(events, e.events...), append(sizes, e.sizes...), append(ended, e.ended...)
}

// serve starts a Handler for s on loopback with cfg; it is shut down when
// the test ends.
func serve(t testing.TB, s Session, cfg Config) (*httptest.Server, *Handler) {
	t.Helper()
	return serveOn(t, s, cfg, nil)
}

// serveOn is serve with the listener wrapped by wrap, if not nil.
func serveOn(t testing.TB, s Session, cfg Config, wrap func(net.Listener) net.Listener) (*httptest.Server, *Handler) {
	t.Helper()
	cfg.Session = s
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	h, err := NewHandler(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(h)
	if wrap != nil {
		srv.Listener = wrap(srv.Listener)
	}
	srv.Start()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if err := h.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		srv.Close()
	})
	return srv, h
}

// client is a page in Go: it keeps the grid the server sends.
type client struct {
	t     testing.TB
	ws    *websocket.Conn
	grid  Grid
	title string
	bye   string
	pongs []uint32
	err   error // how the connection ended
}

// dial opens the socket of srv with header and sends hello unless its
// path is "".
func dial(t testing.TB, srv *httptest.Server, header http.Header, hello Hello) (*client, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/ws", &websocket.DialOptions{HTTPHeader: header})
	if err != nil {
		return nil, err
	}
	ws.SetReadLimit(1 << 22)
	t.Cleanup(func() { ws.CloseNow() })
	c := &client{t: t, ws: ws}
	if hello.Path != "" {
		c.send(AppendHello(nil, hello))
	}
	return c, nil
}

func (c *client) send(msg []byte) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.ws.Write(ctx, websocket.MessageBinary, msg); err != nil {
		c.t.Fatalf("send % x: %v", msg, err)
	}
}

// read reads one message and applies it; false once the connection is
// closed (c.err says how).
func (c *client) read(ctx context.Context) bool {
	c.t.Helper()
	if c.err != nil {
		return false
	}
	_, msg, err := c.ws.Read(ctx)
	if err != nil {
		c.err = err
		return false
	}
	switch msg[0] {
	case MsgFrame:
		if err := c.grid.Apply(msg); err != nil {
			c.t.Fatalf("frame: %v", err)
		}
	case MsgTitle:
		c.title = string(msg[1:])
	case MsgBye:
		c.bye = string(msg[1:])
	case MsgPong:
		c.pongs = append(c.pongs, binary.LittleEndian.Uint32(msg[1:]))
	default:
		c.t.Fatalf("unknown message % x", msg)
	}
	return true
}

// until reads until cond holds, failing the test if the connection
// closes first or 10 s pass.
func (c *client) until(what string, cond func() bool) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for !cond() {
		if !c.read(ctx) {
			c.t.Fatalf("waiting for %s: %v (bye %q)", what, c.err, c.bye)
		}
	}
}

// closed reads until the connection closes and returns its close status.
func (c *client) closed() websocket.StatusCode {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	for c.read(ctx) {
	}
	if ctx.Err() != nil {
		c.t.Fatal("the connection was not closed")
	}
	return websocket.CloseStatus(c.err)
}

// lobby opens a page of the lobby on srv, 80×24, and waits for its first
// frame.
func lobby(t testing.TB, srv *httptest.Server) *client {
	t.Helper()
	c, err := dial(t, srv, nil, Hello{Path: "/", Cols: 80, Rows: 24})
	if err != nil {
		t.Fatal(err)
	}
	c.until("the first frame", func() bool { return c.row(0) != "" })
	return c
}

// row returns row y of the client's grid as text.
func (c *client) row(y int) string {
	var b strings.Builder
	w, _ := c.grid.Size()
	for x := range w {
		t := c.grid.At(x, y).Text
		if t == "" {
			t = " "
		}
		b.WriteString(t)
	}
	return strings.TrimRight(b.String(), " ")
}

func TestHelloFrameTitle(t *testing.T) {
	t.Parallel()
	e := new(echo)
	srv, _ := serve(t, e, Config{})
	c, err := dial(t, srv, nil, Hello{Path: "/watch/ann", Name: "bob", Cols: 90, Rows: 30})
	if err != nil {
		t.Fatal(err)
	}
	c.until("the first frame", func() bool { return c.row(0) != "" })
	if w, h := c.grid.Size(); w != 90 || h != 30 {
		t.Errorf("grid %d×%d, want 90×30", w, h)
	}
	if got, want := c.row(0), "hello bob at /watch/ann"; got != want {
		t.Errorf("row 0 %q, want %q", got, want)
	}
	if got := c.grid.At(0, 0); got.Fg != PaletteColor(11) || got.Attr != Bold {
		t.Errorf("cell 0,0 is %+v, want yellow and bold", got)
	}
	c.until("the title", func() bool { return c.title != "" })
	if c.title != "echo /watch/ann" {
		t.Errorf("title %q", c.title)
	}
	hellos, _, _, _ := e.snapshot()
	want := Hello{Path: "/watch/ann", Name: "bob", Cols: 90, Rows: 30, Addr: netip.MustParseAddr("127.0.0.1")}
	if len(hellos) != 1 || hellos[0] != want {
		t.Errorf("the session was told %+v, want %+v", hellos, want)
	}
	c.send(AppendPing(nil, 77))
	c.until("the pong", func() bool { return len(c.pongs) > 0 })
	if c.pongs[0] != 77 {
		t.Errorf("pong %d, want 77", c.pongs[0])
	}
	c.send(AppendText(nil, "bye"))
	if code := c.closed(); code != websocket.StatusNormalClosure || c.bye != "bye to you too" {
		t.Errorf("closed with %v, bye %q; want a normal closure, \"bye to you too\"", code, c.bye)
	}
}

func TestInputInOrder(t *testing.T) {
	t.Parallel()
	e := new(echo)
	srv, _ := serve(t, e, Config{})
	c, err := dial(t, srv, nil, Hello{Path: "/", Cols: 80, Rows: 24})
	if err != nil {
		t.Fatal(err)
	}
	want := []Event{
		{Type: KeyPress, Key: KeyLeft},
		{Type: KeyPress, Key: 'a', Mod: ModShift},
		{Type: KeyRelease, Key: KeyLeft},
		{Type: KeyPress, Key: ' ', Mod: ModCtrl | ModAlt | ModMeta},
		{Type: KeyRelease, Key: 'a'},
		{Type: KeyRelease, Key: ' '},
		{Type: TextInput, Text: "pasted ünïcode"},
		{Type: NameChange, Text: "zoë"},
		{Type: NameChange, Text: ""},
	}
	for _, ev := range want {
		switch ev.Type {
		case TextInput:
			c.send(AppendText(nil, ev.Text))
		case NameChange:
			c.send(AppendName(nil, ev.Text))
		default:
			c.send(AppendKey(nil, ev))
		}
	}
	c.until("the last event drawn", func() bool { return c.row(5) == "name" })
	if got := c.row(4); got != "name zoë" {
		t.Errorf("row 4 %q, want %q", got, "name zoë")
	}
	_, events, _, _ := e.snapshot()
	if fmt.Sprint(events) != fmt.Sprint(want) {
		t.Errorf("the session read\n%v\nwant\n%v", events, want)
	}
}

func TestResize(t *testing.T) {
	t.Parallel()
	e := new(echo)
	srv, _ := serve(t, e, Config{})
	c := lobby(t, srv)
	for i := range 10 {
		c.send(AppendResize(nil, 100+i, 30))
	}
	c.until("the last size", func() bool { w, h := c.grid.Size(); return w == 109 && h == 30 })
	_, _, sizes, _ := e.snapshot()
	if len(sizes) == 0 || len(sizes) > 10 || sizes[len(sizes)-1] != [2]int{109, 30} {
		t.Errorf("the session saw sizes %v, want at most 10 ending with 109×30", sizes)
	}
	t.Logf("10 resizes came as %d", len(sizes))
}

func TestRefusals(t *testing.T) {
	t.Parallel()
	hello := AppendHello(nil, Hello{Path: "/", Cols: 80, Rows: 24})
	keys := func(n int) [][]byte {
		var msgs [][]byte
		for i := range n {
			msgs = append(msgs, AppendKey(nil, Event{Type: EventType(1 + i%2), Key: 'x'}))
		}
		return msgs
	}
	for _, tc := range []struct {
		name string
		msgs [][]byte
		text bool // the last message as text
		code websocket.StatusCode
		bye  string
	}{
		{"too big", [][]byte{hello, make([]byte, MaxMessage+1)}, false, websocket.StatusMessageTooBig, "message over 512 bytes"},
		{"too big at once", [][]byte{make([]byte, 1<<20)}, false, websocket.StatusMessageTooBig, "message over 512 bytes"},
		{"unknown type", [][]byte{hello, {9, 1, 2}}, false, websocket.StatusPolicyViolation, "unknown message type 9"},
		{"text message", [][]byte{hello, []byte("hi")}, true, websocket.StatusUnsupportedData, "binary messages only"},
		{"no hello", [][]byte{AppendPing(nil, 1)}, false, websocket.StatusPolicyViolation, "the first message must be the only hello"},
		{"two hellos", [][]byte{hello, hello}, false, websocket.StatusPolicyViolation, "the first message must be the only hello"},
		{"old page", [][]byte{append([]byte{MsgHello, 0}, hello[2:]...)}, false, websocket.StatusPolicyViolation, "the page is out of date: reload it (protocol 0, not 1)"},
		{"huge grid", [][]byte{AppendHello(nil, Hello{Path: "/", Cols: 1000, Rows: 24})}, false, websocket.StatusPolicyViolation, "grid 1000×24: at least 1×1, at most 250×100"},
		{"bad key", [][]byte{hello, AppendKey(nil, Event{Type: KeyPress, Key: 0x1b})}, false, websocket.StatusPolicyViolation, "no key 0x1b"},
		{"control in text", [][]byte{hello, AppendText(nil, "a\x1b[2Jb")}, false, websocket.StatusPolicyViolation, "text holds control character U+001B"},
		{"key flood", append([][]byte{hello}, keys(maxKeys+1)...), false, websocket.StatusPolicyViolation, "too many keys: at most 100 a second"},
		{"resize storm", append([][]byte{hello}, repeat(AppendResize(nil, 90, 30), maxResizes+1)...), false, websocket.StatusPolicyViolation, "too many resizes: at most 20 a second"},
		{"ping flood", append([][]byte{hello}, repeat(AppendPing(nil, 5), maxPings+1)...), false, websocket.StatusPolicyViolation, "too many pings: at most 5 a second"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := new(echo)
			srv, _ := serve(t, e, Config{})
			c, err := dial(t, srv, nil, Hello{})
			if err != nil {
				t.Fatal(err)
			}
			for i, m := range tc.msgs {
				typ := websocket.MessageBinary
				if tc.text && i == len(tc.msgs)-1 {
					typ = websocket.MessageText
				}
				// The server may close before the last is sent.
				if c.ws.Write(context.Background(), typ, m) != nil {
					break
				}
			}
			if code := c.closed(); code != tc.code || c.bye != tc.bye {
				t.Errorf("closed with %v, bye %q; want %v, %q", code, c.bye, tc.code, tc.bye)
			}
		})
	}
}

func repeat(msg []byte, n int) [][]byte {
	msgs := make([][]byte, n)
	for i := range msgs {
		msgs[i] = msg
	}
	return msgs
}

func TestTimeouts(t *testing.T) {
	t.Parallel()
	e := new(echo)
	srv, _ := serve(t, e, Config{HelloTimeout: 200 * time.Millisecond})
	c, err := dial(t, srv, nil, Hello{})
	if err != nil {
		t.Fatal(err)
	}
	if code := c.closed(); code != websocket.StatusPolicyViolation || c.bye != "no hello within 200ms" {
		t.Errorf("a silent socket: closed with %v, bye %q", code, c.bye)
	}
	srv, _ = serve(t, e, Config{ReadTimeout: 300 * time.Millisecond})
	c, err = dial(t, srv, nil, Hello{Path: "/", Cols: 80, Rows: 24})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for range 5 { // pings keep it open
		time.Sleep(100 * time.Millisecond)
		c.send(AppendPing(nil, 1))
	}
	if code := c.closed(); code != websocket.StatusPolicyViolation || c.bye != "nothing from the page for 300ms" {
		t.Errorf("an idle page: closed with %v, bye %q", code, c.bye)
	}
	if d := time.Since(start); d < 500*time.Millisecond {
		t.Errorf("an idle page that pinged was closed after %v", d)
	}
}

// TestSlowPage runs two pages on one stream of large frames: one reads,
// one never does. The one that reads gets frames all along; the session
// of the one that does not is never held up, and the page is dropped
// once the server's writes to it have waited WriteTimeout.
func TestSlowPage(t *testing.T) {
	t.Parallel()
	var shows [2]atomic.Int64
	var longest atomic.Int64 // the longest Show of the slow page's session
	var slowEnd atomic.Value
	session := SessionFunc(func(ctx context.Context, c *Conn) error {
		i := 0
		if c.Hello().Name == "slow" {
			i = 1
		}
		rng := rand.New(rand.NewPCG(uint64(i), 3))
		g := NewGrid(MaxCols, MaxRows)
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				if i == 1 {
					slowEnd.Store(context.Cause(ctx).Error())
				}
				return nil
			case <-tick.C:
			}
			for range 1000 { // a frame of 1000 changes, some 5 KB
				g.Set(rng.IntN(MaxCols), rng.IntN(MaxRows), Cell{Text: string(rune(0x2800 + rng.IntN(256))), Fg: PaletteColor(uint8(rng.IntN(256)))})
			}
			start := time.Now()
			c.Show(g)
			if d := int64(time.Since(start)); i == 1 && d > longest.Load() {
				longest.Store(d)
			}
			shows[i].Add(1)
		}
	})
	// Small socket buffers, so that the server's writes to the slow page
	// wait soon.
	srv, _ := serveOn(t, session, Config{WriteTimeout: time.Second}, func(ln net.Listener) net.Listener { return smallWrites{ln} })
	slow, _, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(srv.URL, "http")+"/ws", &websocket.DialOptions{
		HTTPClient: &http.Client{Transport: &http.Transport{DialContext: smallReads}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer slow.CloseNow()
	if err := slow.Write(context.Background(), websocket.MessageBinary, AppendHello(nil, Hello{Path: "/", Name: "slow", Cols: 80, Rows: 24})); err != nil {
		t.Fatal(err)
	}
	// It never reads.
	fast, err := dial(t, srv, nil, Hello{Path: "/", Name: "fast", Cols: 80, Rows: 24})
	if err != nil {
		t.Fatal(err)
	}
	frames := 0
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for slowEnd.Load() == nil && fast.read(ctx) {
		frames++
	}
	if fast.err != nil {
		t.Fatalf("the page that reads: %v, after %d frames", fast.err, frames)
	}
	if got, want := slowEnd.Load(), "the page took no frame for 1s"; got != want {
		t.Errorf("the slow page ended with %q, want %q", got, want)
	}
	before := frames
	for range 50 {
		if !fast.read(ctx) {
			t.Fatalf("the page that reads: %v", fast.err)
		}
	}
	t.Logf("the reading page got %d frames until the other was dropped, the slow session showed %d, its longest Show %v",
		before, shows[1].Load(), time.Duration(longest.Load()))
	// A Show that waited for the network would have waited WriteTimeout.
	if d := time.Duration(longest.Load()); d > 500*time.Millisecond {
		t.Errorf("the slow page's session was held up %v by a Show", d)
	}
}

// smallWrites gives each connection it accepts a small send buffer.
type smallWrites struct{ net.Listener }

func (l smallWrites) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		err = c.(*net.TCPConn).SetWriteBuffer(4 << 10)
	}
	return c, err
}

func TestPanicEndsOneSession(t *testing.T) {
	t.Parallel()
	e := new(echo)
	srv, _ := serve(t, SessionFunc(func(ctx context.Context, c *Conn) error {
		if c.Hello().Path == "/panic" {
			panic("boom")
		}
		return e.Play(ctx, c)
	}), Config{})
	c, err := dial(t, srv, nil, Hello{Path: "/panic", Cols: 80, Rows: 24})
	if err != nil {
		t.Fatal(err)
	}
	if code := c.closed(); code != websocket.StatusInternalError || c.bye != "the server failed: sorry" {
		t.Errorf("a panic: closed with %v, bye %q", code, c.bye)
	}
	lobby(t, srv) // the server plays on
}

func TestShutdown(t *testing.T) {
	t.Parallel()
	e := new(echo)
	srv, h := serve(t, e, Config{})
	c := lobby(t, srv)
	done := make(chan error)
	go func() { done <- h.Shutdown(context.Background()) }()
	if code := c.closed(); code != websocket.StatusGoingAway || c.bye != "the server is shutting down" {
		t.Errorf("closed with %v, bye %q", code, c.bye)
	}
	if err := <-done; err != nil {
		t.Errorf("Shutdown: %v", err)
	}
	if _, _, _, ended := e.snapshot(); fmt.Sprint(ended) != "[: the server is shutting down]" {
		t.Errorf("the session ended for %q", ended)
	}
	if _, err := dial(t, srv, nil, Hello{}); err == nil || !strings.Contains(err.Error(), "503") {
		t.Errorf("a socket after Shutdown: %v, want 503", err)
	}
}

func TestAdmit(t *testing.T) {
	t.Parallel()
	var in atomic.Int32
	e := new(echo)
	srv, _ := serve(t, e, Config{Admit: func(addr netip.Addr) (func(), error) {
		if !addr.IsLoopback() {
			return nil, fmt.Errorf("not from %v", addr)
		}
		if in.Add(1) > 1 {
			in.Add(-1)
			return nil, errors.New("one at a time from 127.0.0.1")
		}
		return func() { in.Add(-1) }, nil
	}})
	first := lobby(t, srv)
	second, err := dial(t, srv, nil, Hello{Path: "/", Cols: 80, Rows: 24})
	if err != nil {
		t.Fatal(err)
	}
	if code := second.closed(); code != websocket.StatusTryAgainLater || second.bye != "one at a time from 127.0.0.1" {
		t.Errorf("the second: closed with %v, bye %q", code, second.bye)
	}
	first.send(AppendText(nil, "bye"))
	first.closed()
	lobby(t, srv) // once the first left
}

func TestOrigin(t *testing.T) {
	t.Parallel()
	srv, _ := serve(t, new(echo), Config{Origins: []string{"friend.example"}})
	host := strings.TrimPrefix(srv.URL, "http://")
	for _, tc := range []struct {
		origin string
		ok     bool
	}{
		{"", true}, // not a browser
		{"http://" + host, true},
		{"http://friend.example", true},
		{"http://evil.example", false},
		{"http://" + host + ".evil.example", false},
		{"null", false},
	} {
		hd := http.Header{}
		if tc.origin != "" {
			hd.Set("Origin", tc.origin)
		}
		_, err := dial(t, srv, hd, Hello{})
		if ok := err == nil; ok != tc.ok {
			t.Errorf("Origin %q: %v, want ok %v", tc.origin, err, tc.ok)
		} else if !ok && !strings.Contains(err.Error(), "403") {
			t.Errorf("Origin %q: %v, want 403", tc.origin, err)
		}
	}
}

func TestClientAddr(t *testing.T) {
	t.Parallel()
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	for _, tc := range []struct {
		peer string
		xff  []string
		want string
	}{
		{"192.0.2.1:5000", nil, "192.0.2.1"},
		{"192.0.2.1:5000", []string{"198.51.100.7"}, "192.0.2.1"}, // not from a balancer: ignored
		{"10.0.0.5:5000", nil, "10.0.0.5"},
		{"10.0.0.5:5000", []string{"198.51.100.7"}, "198.51.100.7"},
		{"10.0.0.5:5000", []string{"6.6.6.6, 198.51.100.7"}, "198.51.100.7"},        // the client's own header: left of its address
		{"10.0.0.5:5000", []string{"198.51.100.7, 10.1.2.3"}, "198.51.100.7"},       // two balancers
		{"10.0.0.5:5000", []string{"198.51.100.7", "10.1.2.3"}, "198.51.100.7"},     // in two headers
		{"10.0.0.5:5000", []string{"junk, 10.1.2.3"}, "10.1.2.3"},                   // garbage: stop at who wrote it
		{"10.0.0.5:5000", []string{"[2001:db8::1]:443"}, "2001:db8::1"},             // with a port
		{"[::1]:5000", []string{"::ffff:198.51.100.7"}, "198.51.100.7"},             // mapped
		{"[::ffff:10.0.0.5]:5000", []string{"198.51.100.7"}, "198.51.100.7"},        // a mapped balancer
		{"10.0.0.5:5000", []string{"10.9.9.9, 10.1.2.3"}, "10.9.9.9"},               // all trusted: the first
		{"10.0.0.5:5000", []string{"198.51.100.7,   203.0.113.9  "}, "203.0.113.9"}, // spaces
		{"10.0.0.5:5000", []string{"203.0.113.9, 198.51.100.7, 10.0.0.1"}, "198.51.100.7"},
	} {
		r := httptest.NewRequest("GET", "/ws", nil)
		r.RemoteAddr = tc.peer
		for _, v := range tc.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		if got := clientAddr(r, trusted); got.String() != tc.want {
			t.Errorf("peer %s, X-Forwarded-For %q: %v, want %s", tc.peer, tc.xff, got, tc.want)
		}
	}
}

func TestPageRoutes(t *testing.T) {
	t.Parallel()
	srv, _ := serve(t, new(echo), Config{})
	for _, tc := range []struct {
		path, ctype string
		code        int
	}{
		{"/", "text/html", 200},
		{"/replay/ann-1.prpl", "text/html", 200},
		{"/scores", "", 404}, // the server's own (Handler.Fallback)
		{"/watch/ann", "text/html", 200},
		{"/watch/an%20n", "text/html", 200},
		{"/join/den", "text/html", 200},
		{"/page.js", "text/javascript", 200},
		{"/page.css", "text/css", 200},
		{"/nope", "", 404},
		{"/watch/", "", 404},
		{"/watch/a/b", "", 404},
		{"/ws", "", http.StatusUpgradeRequired},
	} {
		resp, err := http.Get(srv.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.code || !strings.HasPrefix(resp.Header.Get("Content-Type"), tc.ctype) {
			t.Errorf("GET %s: %d %s, want %d %s", tc.path, resp.StatusCode, resp.Header.Get("Content-Type"), tc.code, tc.ctype)
		}
		if tc.code == 200 && !strings.Contains(resp.Header.Get("Content-Security-Policy"), "script-src 'self'") {
			t.Errorf("GET %s: no Content-Security-Policy", tc.path)
		}
		if tc.ctype == "text/html" && !strings.Contains(string(body), `<script src="/page.js"`) {
			t.Errorf("GET %s: not the page", tc.path)
		}
		if tc.code == 200 {
			req, _ := http.NewRequest("GET", srv.URL+tc.path, nil)
			req.Header.Set("If-None-Match", resp.Header.Get("ETag"))
			again, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			again.Body.Close()
			if again.StatusCode != http.StatusNotModified {
				t.Errorf("GET %s again with its ETag: %d, want 304", tc.path, again.StatusCode)
			}
		}
	}
}

func TestWindow(t *testing.T) {
	t.Parallel()
	var w window
	t0 := time.Unix(1000, 0)
	for i := range 10 {
		if !w.add(t0.Add(time.Duration(i)*90*time.Millisecond), 10) {
			t.Fatalf("event %d of 10 in a second refused", i+1)
		}
	}
	if w.add(t0.Add(900*time.Millisecond), 10) {
		t.Error("the 11th event in a second allowed")
	}
	if !w.add(t0.Add(time.Second), 10) {
		t.Error("an event a second later refused")
	}
}

// TestShowAllocs checks that Show allocates nothing once it has seen a
// grid of the size it is given.
func TestShowAllocs(t *testing.T) {
	c := newConn(nil, netip.Addr{}, &Config{}, context.Background(), slog.New(slog.DiscardHandler))
	defer c.cancel(nil)
	s := newScene(1, false)
	a := s.grid()
	s.step()
	b := s.grid()
	c.Show(a)
	c.Show(b)
	if n := testing.AllocsPerRun(100, func() {
		c.Show(a)
		c.Show(b)
	}); n != 0 {
		t.Errorf("Show allocates %v times, want 0", n)
	}
}

// TestStillScreenSendsNothing shows the page the same grid again and
// again: only the first and the one that changed reach it.
func TestStillScreenSendsNothing(t *testing.T) {
	t.Parallel()
	srv, _ := serve(t, SessionFunc(func(ctx context.Context, c *Conn) error {
		g := NewGrid(c.Size())
		g.SetText(0, 0, "still", DefaultColor, DefaultColor, 0)
		c.Show(g)
		for {
			select {
			case <-ctx.Done():
				return nil
			case ev := <-c.Events():
				if ev.Type == TextInput {
					g.SetText(0, 0, ev.Text, DefaultColor, DefaultColor, 0)
				}
				c.Show(g)
			}
		}
	}), Config{})
	c := lobby(t, srv)
	for range 20 {
		c.send(AppendKey(nil, Event{Type: KeyPress, Key: 'x'}))
		c.send(AppendKey(nil, Event{Type: KeyRelease, Key: 'x'}))
	}
	c.send(AppendText(nil, "moved"))
	frames := 1
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for c.row(0) != "moved" && c.read(ctx) {
		frames++
	}
	if frames != 2 {
		t.Errorf("the page got %d frames, want 2 (40 shows of the same grid between them)", frames)
	}
}
