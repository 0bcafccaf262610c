package main

import (
	"bufio"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"golang.org/x/crypto/ssh"
)

// freeAddr returns a loopback address with a port free a moment ago.
func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// openShell logs in to srv with key and opens the lobby on a 120×40
// terminal; its output goes to out (nil: discarded).
func openShell(t *testing.T, srv *serverProc, key ssh.Signer, out io.Writer) (*ssh.Session, io.Writer) {
	t.Helper()
	c, err := ssh.Dial("tcp", srv.addr, &ssh.ClientConfig{
		User:            "player",
		Auth:            []ssh.AuthMethod{ssh.PublicKeys(key)},
		HostKeyCallback: ssh.FixedHostKey(srv.hostKey),
		Timeout:         10 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if out == nil {
		out = io.Discard
	}
	return startPty(t, c, "", out)
}

// scrape reads url's metrics, which must parse as Prometheus's text
// exposition format.
func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("the exposition does not parse: %v", err)
	}
	return fams
}

// value sums the samples of the family name whose labels include labels
// (name=value pairs): a counter's or gauge's value, a histogram's count.
func value(fams map[string]*dto.MetricFamily, name string, labels ...string) float64 {
	f := fams[name]
	if f == nil {
		return -1
	}
	sum := 0.0
next:
	for _, m := range f.GetMetric() {
		for i := 0; i+1 < len(labels); i += 2 {
			found := false
			for _, l := range m.GetLabel() {
				found = found || l.GetName() == labels[i] && l.GetValue() == labels[i+1]
			}
			if !found {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			sum += m.Counter.GetValue()
		case m.Gauge != nil:
			sum += m.Gauge.GetValue()
		case m.Histogram != nil:
			sum += float64(m.Histogram.GetSampleCount())
		}
	}
	return sum
}

// TestServeMetrics scrapes a running server while two players play solo
// games (the lobby's Enter) and a third is told the server is full: the
// exposition parses, the sessions, players and refusal show, and frames,
// bytes and the pools' acquires move between two scrapes.
func TestServeMetrics(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	metricsAddr, pprofAddr := freeAddr(t), freeAddr(t)
	srv := startServe(t, bin, dir, "--max-sessions", "2", "--metrics", metricsAddr, "--pprof="+pprofAddr)
	url := "http://" + metricsAddr + "/metrics"
	_, key := writeClientKey(t, dir)
	shell := func() (*ssh.Session, io.Writer) { return openShell(t, srv, key, nil) }
	for range 2 {
		_, in := shell()
		_, _ = io.WriteString(in, "\r") // the lobby's first choice: a solo game
	}
	full, _ := shell()
	if err := full.Wait(); err == nil {
		t.Error("a third player was let in with --max-sessions 2")
	}

	var first map[string]*dto.MetricFamily
	if !eventually(10*time.Second, func() bool {
		first = scrape(t, url)
		return value(first, "poolroids_players") == 2 && value(first, "poolroids_frames_total") > 0
	}) {
		t.Fatalf("never 2 players drawing frames; players %v, frames %v",
			value(first, "poolroids_players"), value(first, "poolroids_frames_total"))
	}
	// Play until every counter has moved: the title's demo may take a few
	// seconds to break a rock (and throw debris).
	growing := []struct {
		name   string
		labels []string
	}{
		{"poolroids_frames_total", nil},
		{"poolroids_frame_cells_total", nil},
		{"poolroids_sent_bytes_total", nil},
		{"poolroids_pool_acquires_total", []string{"pool", "bullets"}},
		{"poolroids_pool_acquires_total", []string{"pool", "debris"}},
		{"process_cpu_seconds_total", nil},
	}
	grown := func(second map[string]*dto.MetricFamily) bool {
		for _, c := range growing {
			if a, b := value(first, c.name, c.labels...), value(second, c.name, c.labels...); !(b > a && a >= 0) {
				return false
			}
		}
		return true
	}
	var second map[string]*dto.MetricFamily
	eventually(20*time.Second, func() bool { second = scrape(t, url); return grown(second) })

	for _, c := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"poolroids_sessions", nil, 2},
		{"poolroids_sessions_limit", nil, 2},
		{"poolroids_players", nil, 2},
		{"poolroids_arenas", nil, 0},
		{"poolroids_connections_accepted_total", nil, 3},
		{"poolroids_handshake_duration_seconds", nil, 3},
		{"poolroids_refused_total", []string{"reason", "server full"}, 1},
	} {
		if got := value(second, c.name, c.labels...); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	for _, c := range growing {
		if a, b := value(first, c.name, c.labels...), value(second, c.name, c.labels...); !(b > a && a >= 0) {
			t.Errorf("%s%v went from %v to %v, want it to grow", c.name, c.labels, a, b)
		}
	}
	if got := value(second, "go_goroutines"); got <= 0 {
		t.Errorf("go_goroutines = %v: the Go collector is missing", got)
	}
	if got := value(second, "poolroids_pool_capacity", "pool", "bullets"); got <= 0 {
		t.Errorf("bullet pools' capacity %v, want the two games' sum", got)
	}
	for _, c := range []struct {
		addr, path string
		code       int
		body       string
	}{
		{pprofAddr, "/debug/pprof/cmdline", 200, "serve"},
		{metricsAddr, "/debug/pprof/cmdline", 404, ""}, // profiles have a listener of their own
		{metricsAddr, "/healthz", 200, "ok\n"},
		{metricsAddr, "/readyz", 200, "ready\n"},
	} {
		if code, body := get(t, "http://"+c.addr+c.path); code != c.code || !strings.Contains(body, c.body) {
			t.Errorf("GET %s%s: %d %q, want %d and %q", c.addr, c.path, code, body, c.code, c.body)
		}
	}
}

// get fetches url and returns its status and body.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// TestHTTPIdleClosed: a metrics or pprof connection left idle after a
// request is closed, so that idle connections cannot pile up and take
// the file descriptors the players' connections need.
func TestHTTPIdleClosed(t *testing.T) {
	defer func(d time.Duration) { httpIdle = d }(httpIdle)
	httpIdle = 200 * time.Millisecond
	addr := freeAddr(t)
	h := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") })
	stop, err := serveHTTP("test", addr, h, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(c)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := r.ReadByte(); err != io.EOF {
		t.Fatalf("an idle connection read %v, want it closed (EOF) after %v", err, httpIdle)
	}
}
