package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"net/netip"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// Session plays one browser's connection.
type Session interface {
	// Play shows frames on c and reads its input until the player is done
	// or ctx is, and returns soon after ctx is done (the page went away,
	// misbehaved or was closed; the server shuts down), leaving no
	// goroutine behind. A panic in Play ends this connection only. Its
	// error is logged; the page is told "the session ended", or the reason
	// given to [Conn.Close].
	Play(ctx context.Context, c *Conn) error
}

// SessionFunc is a Session of one function.
type SessionFunc func(ctx context.Context, c *Conn) error

// Play calls f.
func (f SessionFunc) Play(ctx context.Context, c *Conn) error { return f(ctx, c) }

// Config configures a [Handler]. The zero value of every field but Session
// is a sensible default.
type Config struct {
	// Session plays each connection. Required.
	Session Session
	// Origins lists the other origins whose pages may open the socket, as
	// host patterns ("example.com", "*.example.com") or with a scheme
	// ("https://example.com"), matched by path.Match. The page's own host
	// (the request's Host) is always allowed, and a request without an
	// Origin (not from a browser) too; a browser's page from anywhere else
	// is refused (403), so that another site cannot play for its visitor.
	Origins []string
	// TrustedProxies lists the balancers whose X-Forwarded-For header is
	// believed: a connection from one of them is the client's that the
	// header names (the last address in it that is not itself a trusted
	// proxy). From elsewhere the header is ignored and the address is the
	// socket's, which a PROXY protocol listener beneath has already made
	// the client's. nil: the header is never read.
	TrustedProxies []netip.Prefix
	// Admit, if set, is asked whether the client at addr may connect,
	// once its socket is open: an error refuses it, its text the reason
	// the page shows; otherwise release is called when the connection
	// ends. This is where the server's limits per address go.
	Admit func(addr netip.Addr) (release func(), err error)
	// HelloTimeout is how long a socket may take to send its hello (0: 10
	// s).
	HelloTimeout time.Duration
	// ReadTimeout ends a connection from which nothing came for this long
	// (0: 90 s). The page pings every 20 s, so this finds pages that went
	// away without a word, and sockets that say nothing.
	ReadTimeout time.Duration
	// WriteTimeout ends a connection whose page took nothing for this long
	// while the server had a message for it (0: 10 s).
	WriteTimeout time.Duration
	// Logger receives the log (nil: slog.Default()).
	Logger *slog.Logger
}

// Handler serves the page and its WebSocket: "/" (the lobby),
// "/watch/NAME", "/join/ARENA" and "/replay/NAME" are the page, which
// tells the session its path in its hello; "/page.js" and "/page.css" are the page's own;
// "/ws" is the socket. Make one with [NewHandler]; [Handler.Shutdown] ends
// its connections.
type Handler struct {
	cfg  Config
	log  *slog.Logger
	mux  *http.ServeMux
	base context.Context
	end  context.CancelCauseFunc

	mu      sync.Mutex
	closing bool
	conns   sync.WaitGroup
}

//go:embed page
var page embed.FS

// NewHandler checks cfg and returns its handler.
func NewHandler(cfg Config) (*Handler, error) {
	if cfg.Session == nil {
		return nil, errors.New("web: Config.Session is nil")
	}
	for _, p := range cfg.Origins {
		if _, err := path.Match(p, ""); err != nil {
			return nil, errors.New("web: bad origin pattern " + p)
		}
	}
	if cfg.HelloTimeout == 0 {
		cfg.HelloTimeout = 10 * time.Second
	}
	if cfg.ReadTimeout == 0 {
		cfg.ReadTimeout = 90 * time.Second
	}
	if cfg.WriteTimeout == 0 {
		cfg.WriteTimeout = 10 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	h := &Handler{cfg: cfg, log: cfg.Logger, mux: http.NewServeMux()}
	h.base, h.end = context.WithCancelCause(context.Background())
	index := asset("index.html")
	for _, p := range []string{"/{$}", "/watch/{name}", "/join/{arena}", "/replay/{name}"} {
		h.mux.Handle("GET "+p, index)
	}
	h.mux.Handle("GET /page.js", asset("page.js"))
	h.mux.Handle("GET /page.css", asset("page.css"))
	h.mux.HandleFunc("GET /ws", h.serveSocket)
	return h, nil
}

// Fallback has h serve the requests it does not with f (the server's own
// pages beside the page: its boards, its files). Call it before h serves.
func (h *Handler) Fallback(f http.Handler) { h.mux.Handle("/", f) }

// ServeHTTP serves the page and the socket.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mux.ServeHTTP(w, r)
}

// Shutdown ends every connection, telling each page that the server is
// shutting down, refuses new ones, and waits until they are closed or ctx
// is done. (http.Server's Shutdown does not wait for WebSockets, which
// leave it once open.)
func (h *Handler) Shutdown(ctx context.Context) error {
	h.mu.Lock()
	h.closing = true
	h.mu.Unlock()
	h.end(endShutdown)
	done := make(chan struct{})
	go func() {
		h.conns.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (h *Handler) serveSocket(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	if h.closing {
		h.mu.Unlock()
		http.Error(w, "the server is shutting down", http.StatusServiceUnavailable)
		return
	}
	h.conns.Add(1)
	h.mu.Unlock()
	defer h.conns.Done()
	addr := clientAddr(r, h.cfg.TrustedProxies)
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: h.cfg.Origins})
	if err != nil { // Accept answered: 403 for a foreign origin
		h.log.Info("web: refused a socket", "addr", addr, "origin", r.Header.Get("Origin"), "err", err)
		return
	}
	ws.SetReadLimit(MaxMessage + 1) // readMessage says when a message is too big
	c := newConn(ws, addr, &h.cfg, h.base, h.log)
	var admit func() (func(), error)
	if h.cfg.Admit != nil {
		admit = func() (func(), error) { return h.cfg.Admit(addr) }
	}
	c.serve(h.cfg.Session, admit)
}

// clientAddr returns the address of r's client: its socket's, or, when
// that is a trusted proxy, the last address of X-Forwarded-For that is not
// (each proxy appends the address it was reached from, so those right of
// it were written by trusted proxies; left of it, anyone could have
// written). An entry that does not parse ends the walk at the proxy that
// wrote it.
func clientAddr(r *http.Request, trusted []netip.Prefix) netip.Addr {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return netip.Addr{}
	}
	addr := ap.Addr().Unmap()
	hops := r.Header.Values("X-Forwarded-For")
	for i := len(hops) - 1; i >= 0 && isTrusted(trusted, addr); i-- {
		fields := strings.Split(hops[i], ",")
		for j := len(fields) - 1; j >= 0 && isTrusted(trusted, addr); j-- {
			a, ok := parseHop(strings.TrimSpace(fields[j]))
			if !ok {
				return addr
			}
			addr = a
		}
	}
	return addr
}

func isTrusted(trusted []netip.Prefix, a netip.Addr) bool {
	return slices.ContainsFunc(trusted, func(p netip.Prefix) bool { return p.Contains(a) })
}

// parseHop parses an address of X-Forwarded-For, with or without a port.
func parseHop(s string) (netip.Addr, bool) {
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap(), true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap(), true
	}
	return netip.Addr{}, false
}

// asset serves the page's file name, with its hash as its ETag so that a
// browser asks again each time but downloads it once.
func asset(name string) http.Handler {
	b, err := page.ReadFile("page/" + name)
	if err != nil {
		panic(err) // the files are embedded: a missing one is a build mistake
	}
	sum := sha256.Sum256(b)
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("ETag", etag)
		hd.Set("Cache-Control", "no-cache")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(b))
	})
}
