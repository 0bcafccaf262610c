package serve

import (
	"log/slog"
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"golang.org/x/crypto/ssh"
)

// flood is how many refused requests the flood tests send: 200,000 made
// 23.6 MB of log before refusals were summarised; a quarter of them makes
// the point faster.
const flood = 50_000

// sendFlood sends n requests of kind with payload through send, all but
// the last without waiting for the reply; it returns how many were sent
// before send failed.
func sendFlood(n int, send func(wantReply bool) error) int {
	for i := range n {
		if err := send(i == n-1); err != nil {
			return i
		}
	}
	return n
}

var countRE = regexp.MustCompile(`count=(\d+)`)

// refusalsLogged returns how many refusals of reason the log accounts for:
// one for each line logged at once, count for each summary.
func refusalsLogged(log, reason string) int {
	n := 0
	is := regexp.MustCompile(`msg=rejected .*reason=(` + regexp.QuoteMeta(reason) + "|" +
		regexp.QuoteMeta(strconv.Quote(reason)) + `)( |$)`)
	for line := range strings.Lines(log) {
		if !is.MatchString(strings.TrimSpace(line)) {
			continue
		}
		if m := countRE.FindStringSubmatch(line); m != nil {
			c, _ := strconv.Atoi(m[1])
			n += c
		} else {
			n++
		}
	}
	return n
}

var forwardPayload = ssh.Marshal(struct {
	Addr string
	Port uint32
}{"127.0.0.1", 0})

var sftpPayload = ssh.Marshal(struct{ Name string }{"sftp"})

// TestRefusalsSummarised floods refused requests with no limit on them
// (MaxRefused < 0): the log grows by a few lines, and the lines account
// for every refusal.
func TestRefusalsSummarised(t *testing.T) {
	tests := []struct {
		name, reason string
		send         func(t *testing.T, ts *testServer) func(bool) error
	}{
		{"global tcpip-forward", "remote port forwarding", func(t *testing.T, ts *testServer) func(bool) error {
			c := ts.mustDial(t, "flood", nil)
			return func(wantReply bool) error {
				_, _, err := c.SendRequest("tcpip-forward", wantReply, forwardPayload)
				return err
			}
		}},
		{"subsystem in a game", "subsystem", func(t *testing.T, ts *testServer) func(bool) error {
			p := play(t, ts.mustDial(t, "flood", nil), ptyOpts{w: 80, h: 24, quiet: true})
			p.waitScreen(t, "size 80x24")
			return func(wantReply bool) error {
				_, err := p.sess.SendRequest("subsystem", wantReply, sftpPayload)
				return err
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, Config{MaxRefused: -1, RefusalSummary: 200 * time.Millisecond})
			send := tt.send(t, ts)
			before := len(ts.log.String())
			if n := sendFlood(flood, send); n != flood {
				t.Fatalf("the connection failed after %d requests", n)
			}
			// The last summary comes within a period of the last refusal.
			if !waitUntil(t, func() bool { return refusalsLogged(ts.log.String(), tt.reason) == flood }) {
				t.Fatalf("the log accounts for %d of %d refusals:\n%s",
					refusalsLogged(ts.log.String(), tt.reason), flood, ts.log.String()[before:])
			}
			grew := len(ts.log.String()) - before
			t.Logf("%d refusals: the log grew by %d bytes", flood, grew)
			if grew > 8<<10 {
				t.Errorf("%d refusals grew the log by %d bytes, want a few KiB:\n%s", flood, grew, tail(ts.log.String()))
			}
		})
	}
}

// TestRefusalsClose: a connection that keeps sending refused requests is
// closed, in a game or not, and the player is told why.
func TestRefusalsClose(t *testing.T) {
	ts := startServer(t, Config{MaxRefused: 50})
	t.Run("global tcpip-forward", func(t *testing.T) {
		c := ts.mustDial(t, "pest", nil)
		n := sendFlood(flood, func(wantReply bool) error {
			_, _, err := c.SendRequest("tcpip-forward", true, forwardPayload)
			return err
		})
		if n == flood {
			t.Fatal("the connection stayed open")
		}
		// The allowance refills at 50 a minute while the flood runs.
		if n < 50 || n > 60 {
			t.Errorf("closed after %d refused requests, want about 50", n)
		}
		waitClosed(t, c)
		waitLog(t, ts, "msg=disconnect", "user=pest", `reason="too many refused requests"`)
	})
	t.Run("in a game", func(t *testing.T) {
		p := play(t, ts.mustDial(t, "pest2", nil), ptyOpts{w: 80, h: 24})
		p.waitScreen(t, "size 80x24")
		sendFlood(flood, func(wantReply bool) error {
			// env requests the server does not use, then subsystems.
			if _, err := p.sess.SendRequest("env", false, ssh.Marshal(struct{ K, V string }{"EDITOR", "vi"})); err != nil {
				return err
			}
			_, err := p.sess.SendRequest("subsystem", wantReply, sftpPayload)
			return err
		})
		if st := p.exit(t); st != 1 || !strings.Contains(p.output(), "too many refused requests") {
			t.Errorf("status %d, output ends %q", st, tail(p.output()))
		}
		waitLog(t, ts, "msg=disconnect", "user=pest2", `reason="too many refused requests"`)
	})
	if n := len(ts.log.String()); n > 16<<10 {
		t.Errorf("the log holds %d bytes:\n%s", n, ts.log.String())
	}
}

// TestRefusalsTable follows the refusal log through its periods on a fake
// clock: first line at once, then one summary a period while refusals
// come, then nothing, and a first line again after a quiet period.
func TestRefusalsTable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var lb logBuf
		log := slog.New(slog.NewTextHandler(&lb, &slog.HandlerOptions{
			ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
				if a.Key == slog.TimeKey {
					return slog.Attr{}
				}
				return a
			},
		}))
		r := newRefusals(log, time.Minute)
		a := netip.MustParsePrefix("192.0.2.1/32")
		b := netip.MustParsePrefix("192.0.2.2/32")
		for range 1000 {
			r.note(log, a, "subsystem", "user", "eve")
		}
		r.note(log, b, "subsystem")
		want := "level=WARN msg=rejected reason=subsystem user=eve\n" +
			"level=WARN msg=rejected reason=subsystem\n"
		if lb.String() != want {
			t.Fatalf("at once, the log is\n%s\nwant\n%s", lb.String(), want)
		}
		time.Sleep(time.Minute)
		synctest.Wait()
		want += "level=WARN msg=rejected reason=subsystem addr=192.0.2.1 count=999 period=1m0s\n"
		if lb.String() != want {
			t.Fatalf("after a period, the log is\n%s\nwant\n%s", lb.String(), want)
		}
		// A quiet period: nothing to say, and both are forgotten.
		time.Sleep(time.Minute)
		synctest.Wait()
		if lb.String() != want || len(r.m) != 0 || r.timer != nil {
			t.Fatalf("after a quiet period: %d kept, timer %v, the log is\n%s", len(r.m), r.timer != nil, lb.String())
		}
		r.note(log, a, "subsystem")
		want += "level=WARN msg=rejected reason=subsystem\n"
		if lb.String() != want {
			t.Fatalf("forgotten, the log is\n%s\nwant\n%s", lb.String(), want)
		}

		// Beyond the table's bound, addresses are counted together.
		for i := range maxTracked + 10 {
			k := netip.PrefixFrom(netip.AddrFrom4([4]byte{10, 0, byte(i >> 8), byte(i)}), 32)
			r.note(log, k, "flood")
		}
		if len(r.m) > maxTracked+1 {
			t.Errorf("the table holds %d, bound %d", len(r.m), maxTracked+1)
		}
		r.stop()
		if !strings.Contains(lb.String(), "reason=flood addr=other count=") {
			t.Errorf("no summary for the addresses beyond the bound:\n%s", tail(lb.String()))
		}
	})
}
