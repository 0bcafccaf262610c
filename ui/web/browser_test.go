package web

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/coder/websocket"

	"poolroids/ui/web/webtest"
)

// pageGrid is the page's grid as its test hook gives it.
type pageGrid struct {
	W, H               int
	Text               []string
	Fg, Bg, Attr, Wide []uint32
}

// differs reports where the page's grid differs from g, covered cells
// aside: "" when it shows g.
func (pg pageGrid) differs(g *Grid) string {
	shown := NewGrid(pg.W, pg.H)
	for i, t := range pg.Text {
		shown.cells[i] = Cell{Text: t, Fg: Color(pg.Fg[i]), Bg: Color(pg.Bg[i]), Attr: Attr(pg.Attr[i]), Wide: pg.Wide[i] != 0}
	}
	return shows(shown, g)
}

// TestBrowser plays the page in headless Chromium: it checks the cells it
// draws against the session's, the keys going down and up, the name
// field, a resize, the goodbye shown, and a screenshot; then that a page
// of another origin cannot open the socket, that a message too big closes
// it with its reason, and that a client that does not read holds up
// neither its session nor a browser watching the same stream.
func TestBrowser(t *testing.T) {
	tab := webtest.Browser(t)
	p := &echo{scene: true}
	srv, _ := serveOn(t, p, Config{WriteTimeout: time.Second}, func(ln net.Listener) net.Listener { return smallWrites{ln} })

	webtest.Run(t, tab, "loading the page", chromedp.Steps(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/")))
	webtest.Run(t, tab, "the first frame", chromedp.Poll[bool](`poolroids.state().draws > 0`))
	// Test listeners, after the page's: what reached the page, and
	// whether it kept the browser from acting on it.
	webtest.Run(t, tab, "listening", chromedp.Evaluate[chromedp.Void](`window.keyLog = [];
		addEventListener('keydown', e => keyLog.push(e.key + (e.repeat ? ' repeat' : '') + (e.defaultPrevented ? ' prevented' : '')));`))

	t.Run("cells", func(t *testing.T) {
		var pg pageGrid
		var d string
		for range 50 { // the page may be a frame behind
			pg = webtest.Run(t, tab, "reading the grid", chromedp.Evaluate[pageGrid](`poolroids.grid()`))
			p.mu.Lock()
			d = pg.differs(&p.shown)
			p.mu.Unlock()
			if d == "" {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if d != "" {
			t.Fatalf("the page's grid: %s", d)
		}
		st := webtest.Run(t, tab, "the page's state", chromedp.Evaluate[struct{ Cols, Rows int }](`poolroids.state()`))
		if pg.W != st.Cols || pg.H != st.Rows || st.Cols < 80 || st.Rows < 24 {
			t.Errorf("the page has room for %d×%d and shows %d×%d", st.Cols, st.Rows, pg.W, pg.H)
		}
		p.mu.Lock()
		hello := p.hellos[0]
		p.mu.Unlock()
		if hello.Path != "/" || hello.Cols != st.Cols || hello.Rows != st.Rows || !hello.Addr.IsLoopback() {
			t.Errorf("hello %+v", hello)
		}
		if title := webtest.Run(t, tab, "the title", chromedp.Title()); title != "echo /" {
			t.Errorf("title %q", title)
		}
		// The pixels: a blank on the blue band at 55,29, and the top left
		// dot of ⣿ in yellow at 2,36.
		band := webtest.Run(t, tab, "a band pixel", chromedp.Evaluate[[]int](`(() => { const s = poolroids.state();
			return Array.from(document.getElementById('grid').getContext('2d').getImageData(55 * s.cw + 2, 29 * s.ch + 2, 1, 1).data.slice(0, 3)); })()`))
		dot := webtest.Run(t, tab, "a dot pixel", chromedp.Evaluate[[]int](`(() => { const s = poolroids.state();
			return Array.from(document.getElementById('grid').getContext('2d').getImageData(2 * s.cw + Math.round(s.cw / 4), 36 * s.ch + Math.round(s.ch / 8), 1, 1).data.slice(0, 3)); })()`))
		if fmt.Sprint(band) != "[36 114 200]" {
			t.Errorf("a blank of the blue band shows %v, want blue (36 114 200)", band)
		}
		if fmt.Sprint(dot) != "[245 245 67]" {
			t.Errorf("the dot of ⣿ shows %v, want yellow (245 245 67)", dot)
		}
	})

	t.Run("keys", func(t *testing.T) {
		webtest.Run(t, tab, "keys", chromedp.Steps(
			webtest.Key("ArrowLeft", true, false),
			webtest.Key("a", true, false),
			webtest.Key("a", true, true), // the browser's repeat: not a new press
			webtest.Key("a", true, true),
			webtest.Key("ArrowLeft", false, false),
			webtest.Key(" ", true, false),
			webtest.Key("a", false, false),
			webtest.Key(" ", false, false),
		))
		want := []Event{
			{Type: KeyPress, Key: KeyLeft},
			{Type: KeyPress, Key: 'a'},
			{Type: KeyRelease, Key: KeyLeft},
			{Type: KeyPress, Key: ' '},
			{Type: KeyRelease, Key: 'a'},
			{Type: KeyRelease, Key: ' '},
		}
		waitFor(t, "the keys", func() bool { p.mu.Lock(); defer p.mu.Unlock(); return len(p.events) >= len(want) })
		p.mu.Lock()
		got := fmt.Sprint(p.events)
		p.mu.Unlock()
		if got != fmt.Sprint(want) {
			t.Errorf("the session read\n%s\nwant\n%v", got, want)
		}
		log := webtest.Run(t, tab, "the key log", chromedp.Evaluate[[]string](`keyLog`))
		if want := "[ArrowLeft prevented a prevented a repeat prevented a repeat prevented   prevented]"; fmt.Sprint(log) != want {
			t.Errorf("the page saw %q, want %q", log, want)
		}
	})

	t.Run("name", func(t *testing.T) {
		p.mu.Lock()
		p.events = nil
		p.mu.Unlock()
		webtest.Run(t, tab, "typing a name", chromedp.Steps(
			chromedp.Click(chromedp.ID("name")),
			chromedp.KeyEvent("zoë"),
			chromedp.KeyEvent("\r"),
		))
		waitFor(t, "the name", func() bool { p.mu.Lock(); defer p.mu.Unlock(); return len(p.events) > 0 })
		p.mu.Lock()
		got := fmt.Sprint(p.events)
		p.mu.Unlock()
		if want := fmt.Sprint([]Event{{Type: NameChange, Text: "zoë"}}); got != want {
			t.Errorf("typing a name, the session read %s, want %s", got, want)
		}
		if active := webtest.Run(t, tab, "the focus", chromedp.Evaluate[string](`document.activeElement.id`)); active == "name" {
			t.Error("the name field kept the focus after Enter")
		}
	})

	t.Run("screenshot", func(t *testing.T) {
		shot := webtest.Run(t, tab, "a screenshot", chromedp.CaptureScreenshot())
		img, err := png.Decode(bytes.NewReader(shot))
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 800 {
			t.Errorf("screenshot %v, want 1280×800", b)
		}
		if dir := os.Getenv("POOLROIDS_SCREENSHOTS"); dir != "" {
			name := filepath.Join(dir, "web-scene.png")
			if err := os.WriteFile(name, shot, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s", name)
		}
	})

	t.Run("resize", func(t *testing.T) {
		before := webtest.Run(t, tab, "the page's state", chromedp.Evaluate[struct{ Cols, Rows int }](`poolroids.state()`))
		webtest.Run(t, tab, "a smaller window", chromedp.EmulateViewport(1000, 640))
		st := webtest.Run(t, tab, "the new size", chromedp.Poll[struct{ Cols, Rows int }](
			fmt.Sprintf(`(() => { const s = poolroids.state(), g = poolroids.grid();
				return (s.cols != %d || s.rows != %d) && g.w == s.cols && g.h == s.rows && s; })()`, before.Cols, before.Rows)))
		p.mu.Lock()
		sizes := fmt.Sprint(p.sizes)
		p.mu.Unlock()
		if want := fmt.Sprint([][2]int{{st.Cols, st.Rows}}); sizes != want {
			t.Errorf("the session saw sizes %s, want %s", sizes, want)
		}
		if st.Cols < 80 || st.Rows < 24 {
			t.Errorf("at 1000×640 the page has room for %d×%d, less than 80×24", st.Cols, st.Rows)
		}
		webtest.Run(t, tab, "the window back", chromedp.EmulateViewport(1280, 800))
	})

	t.Run("goodbye", func(t *testing.T) {
		webtest.Run(t, tab, "shift-Q", chromedp.Steps(webtest.Key("Q", true, false), webtest.Key("Q", false, false)))
		text := webtest.Run(t, tab, "the notice", chromedp.Poll[string](`!document.getElementById('notice').hidden && document.getElementById('notice-text').textContent`))
		if text != "bye to you too" {
			t.Errorf("the notice says %q", text)
		}
	})

	t.Run("origin", func(t *testing.T) {
		other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<!doctype html><title>elsewhere</title>`)
		}))
		defer other.Close()
		open := `new Promise(done => { const w = new WebSocket(%q); w.onopen = () => { done('open'); w.close(); }; w.onclose = e => done('closed ' + e.code); })`
		wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws"
		webtest.Run(t, tab, "loading another site", chromedp.Navigate(other.URL))
		if got := webtest.Run(t, tab, "a socket from elsewhere", chromedp.Evaluate[string](fmt.Sprintf(open, wsURL), chromedp.EvalAwaitPromise)); got != "closed 1006" {
			t.Errorf("a page of another origin opening the socket: %s, want refused (closed 1006)", got)
		}
		webtest.Run(t, tab, "loading the page", chromedp.Navigate(srv.URL+"/watch/x"))
		if got := webtest.Run(t, tab, "a socket from the page", chromedp.Evaluate[string](fmt.Sprintf(open, wsURL), chromedp.EvalAwaitPromise)); got != "open" {
			t.Errorf("the page opening the socket: %s, want open", got)
		}
	})

	t.Run("too big", func(t *testing.T) {
		got := webtest.Run(t, tab, "a message too big", chromedp.Evaluate[string](fmt.Sprintf(`new Promise(done => {
			const w = new WebSocket(%q);
			w.binaryType = 'arraybuffer';
			let bye = '';
			w.onopen = () => {
				w.send(new Uint8Array([1, 1, 80, 0, 24, 0, 1, 47, 0]));
				w.send(new Uint8Array(1000));
			};
			w.onmessage = e => { const b = new Uint8Array(e.data); if (b[0] == 3) bye = new TextDecoder().decode(b.subarray(1)); };
			w.onclose = e => done(e.code + ' ' + bye);
		})`, "ws"+strings.TrimPrefix(srv.URL, "http")+"/ws"), chromedp.EvalAwaitPromise))
		if got != "1009 message over 512 bytes" {
			t.Errorf("a message of 1000 bytes: %q, want 1009 and the reason", got)
		}
	})

	t.Run("slow client", func(t *testing.T) {
		webtest.Run(t, tab, "loading the stream", chromedp.Navigate(srv.URL+"/join/stream"))
		webtest.Run(t, tab, "the first frame", chromedp.Poll[bool](`poolroids.state().frames > 0`))
		slow, _, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(srv.URL, "http")+"/ws", &websocket.DialOptions{
			HTTPClient: &http.Client{Transport: &http.Transport{DialContext: smallReads}},
		})
		if err != nil {
			t.Fatal(err)
		}
		defer slow.CloseNow()
		if err := slow.Write(context.Background(), websocket.MessageBinary, AppendHello(nil, Hello{Path: "/join/stream", Name: "slow", Cols: MaxCols, Rows: MaxRows})); err != nil {
			t.Fatal(err)
		}
		start := webtest.Run(t, tab, "frames", chromedp.Evaluate[int](`poolroids.state().frames`))
		waitFor(t, "the slow client dropped", func() bool {
			p.mu.Lock()
			defer p.mu.Unlock()
			return strings.Contains(strings.Join(p.ended, "\n"), "slow: the page took no frame for 1s")
		})
		got := webtest.Run(t, tab, "frames", chromedp.Evaluate[int](`poolroids.state().frames`)) - start
		// Over the second the slow client was waited for, the scene
		// moved some 100 times: the browser got its frames all along.
		if got < 30 {
			t.Errorf("the browser got %d frames while the slow client was stuck", got)
		}
		t.Logf("the browser got %d frames while the slow client was stuck", got)
	})
}

// smallReads dials with a small receive buffer.
func smallReads(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := new(net.Dialer).DialContext(ctx, network, addr)
	if err == nil {
		err = c.(*net.TCPConn).SetReadBuffer(4 << 10)
	}
	return c, err
}

// waitFor polls cond until it holds, failing the test after 20 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: not after 20 s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
