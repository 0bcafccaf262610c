package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/crypto/ssh"

	"poolroids/ui/web"
)

func TestServeBadFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown flag", []string{"--no-such-flag"}, "flag provided but not defined"},
		{"argument", []string{"extra"}, `unexpected argument "extra"`},
		{"max sessions", []string{"--max-sessions", "0"}, "-max-sessions 0"},
		{"idle", []string{"--idle", "0s"}, "-idle and -max-time must be positive"},
		{"max time", []string{"--max-time", "-1h"}, "-idle and -max-time must be positive"},
		{"duration", []string{"--idle", "soon"}, "invalid value"},
		{"strategy", []string{"--strategy", "nope"}, "-strategy"},
		{"fps", []string{"--fps", "0"}, "-fps 0"},
		{"conn rate", []string{"--conn-rate", "-3"}, "-conn-rate -3"},
		{"post rate", []string{"--post-rate", "-1"}, "-post-rate -1: want 0 or more"},
		{"proofs", []string{"--proofs", "0"}, "-proofs 0: want at least 1"},
		{"watchers", []string{"--watchers", "0"}, "-watchers 0"},
		{"arenas", []string{"--max-arenas", "0"}, "-max-arenas 0: want at least 1"},
		{"arenas per address", []string{"--max-arenas-per-address", "-2"}, "-max-arenas-per-address -2"},
		{"watchers per game", []string{"--watchers-per-game", "-1"}, "-watchers-per-game -1"},
		{"capacity", []string{"--bullets", "-1"}, "-bullets -1: want 0 (the level set's) or 1.."},
		{"levels", []string{"--levels", "/nonexistent"}, "-levels: "},
		{"max per address", []string{"--max-per-address", "0"}, "-max-per-address 0"},
		{"max startups", []string{"--max-startups", "1:2"}, "-max-startups"},
		{"max startups per address", []string{"--max-startups-per-address", "0"}, "-max-startups-per-address 0"},
		{"pprof not an address", []string{"--pprof=nowhere"}, `"nowhere" for -pprof: want host:port`},
		{"pprof's address apart", []string{"--pprof", "127.0.0.1:6060"}, `unexpected argument "127.0.0.1:6060" (a value of -pprof goes after =: -pprof=127.0.0.1:6060)`},
		{"pprof on the metrics port", []string{"--metrics", "127.0.0.1:9222", "--pprof=127.0.0.1:9222"}, "-pprof 127.0.0.1:9222: give the profiles a listener of their own"},
		{"drain", []string{"--drain", "-1s"}, "-drain -1s: want 0 or more"},
		{"log format", []string{"--log-format", "xml"}, `-log-format "xml": want text or json`},
		{"metrics on the SSH port", []string{"--listen", "127.0.0.1:2222", "--metrics", "127.0.0.1:2222"}, "the SSH port"},
		{"proxy protocol from", []string{"--proxy-protocol-from", "10.0.0.0/8,nowhere"}, `-proxy-protocol-from: "nowhere"`},
		{"hop without a key", []string{"--hop", "10.0.0.1:2223", "--scores", "postgres://db/x"}, "-hop and -fleet-key go together"},
		{"fleet key without a hop", []string{"--fleet-key", "k"}, "-hop and -fleet-key go together"},
		{"hop without a database", []string{"--hop", "10.0.0.1:2223", "--fleet-key", "k"}, "give -scores postgres://"},
		{"hop on a wildcard", []string{"--hop", "0.0.0.0:2223", "--fleet-key", "k", "--scores", "postgres://db/x"}, "not a wildcard"},
		{"hop on the SSH port", []string{"--hop", "127.0.0.1:2222", "--fleet-key", "k", "--scores", "postgres://db/x"}, "the SSH port"},
		{"web not an address", []string{"--web", "8080"}, "-web 8080: want host:port"},
		{"web on the SSH port", []string{"--listen", "127.0.0.1:2222", "--web", "127.0.0.1:2222"}, "-web 127.0.0.1:2222: give the browsers a listener of their own"},
		{"web on the metrics port", []string{"--metrics", "127.0.0.1:9222", "--web", "127.0.0.1:9222"}, "give the browsers a listener of their own"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			code := serveMain(context.Background(), context.Background(), tt.args, &stderr)
			if code != 2 || !strings.Contains(stderr.String(), tt.want) || !strings.Contains(stderr.String(), "usage: poolroids serve") {
				t.Errorf("exit %d, stderr:\n%s\nwant 2, %q and a usage line", code, stderr.String(), tt.want)
			}
		})
	}
}

// serverProc is `poolroids serve` running as a process of its own.
type serverProc struct {
	cmd     *exec.Cmd
	addr    string
	port    int
	hostKey ssh.PublicKey // the key it created on start
	log     syncBuffer
	done    chan struct{} // closed when the process has exited
	err     error         // its exit, once done is closed
}

func (p *serverProc) Write(b []byte) (int, error) { return p.log.Write(b) }

func (p *serverProc) logText() string { return p.log.String() }

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitLog waits for the server's log to hold all of want on one line.
func (p *serverProc) waitLog(t testing.TB, want ...string) {
	t.Helper()
	if !eventually(10*time.Second, func() bool {
		for _, line := range strings.Split(p.logText(), "\n") {
			all := true
			for _, w := range want {
				all = all && strings.Contains(line, w)
			}
			if all {
				return true
			}
		}
		return false
	}) {
		t.Fatalf("the server never logged %q; its log:\n%s", want, p.logText())
	}
}

// startServe runs bin serve on a free loopback port with its state in dir.
func startServe(t testing.TB, bin, dir string, args ...string) *serverProc {
	t.Helper()
	return startServeEnv(t, bin, dir, nil, append([]string{"--scores", filepath.Join(dir, "scores.json")}, args...)...)
}

// startServeEnv is startServe with env added to the environment, and no
// -scores flag of its own.
func startServeEnv(t testing.TB, bin, dir string, env []string, args ...string) *serverProc {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	p := &serverProc{addr: fmt.Sprintf("127.0.0.1:%d", port), port: port, done: make(chan struct{})}
	args = append([]string{"serve", "--listen", p.addr, "--host-key", filepath.Join(dir, "host_key")}, args...)
	p.cmd = exec.Command(bin, args...)
	p.cmd.Env = append(append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir), env...)
	p.cmd.Stdout, p.cmd.Stderr = p, p
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.done
	})
	p.waitLog(t, "listening", "host_key") // in either log format
	hk, err := os.ReadFile(filepath.Join(dir, "host_key"))
	if err != nil {
		t.Fatal(err)
	}
	host, err := ssh.ParsePrivateKey(hk)
	if err != nil {
		t.Fatal(err)
	}
	p.hostKey = host.PublicKey()
	return p
}

// writeClientKey writes a fresh ed25519 private key for ssh -i.
func writeClientKey(t testing.TB, dir string) (string, ssh.Signer) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "e2e player")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "id_ed25519")
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return path, signer
}

// writeKnownHosts writes the host keys of servers into the known_hosts
// file path, as OpenSSH's ssh reads it.
func writeKnownHosts(t testing.TB, path string, servers ...*serverProc) {
	t.Helper()
	var hosts strings.Builder
	for _, srv := range servers {
		fmt.Fprintf(&hosts, "[127.0.0.1]:%d %s", srv.port, ssh.MarshalAuthorizedKey(srv.hostKey))
	}
	if err := os.WriteFile(path, []byte(hosts.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}

// lookSSH returns the OpenSSH client's path, or skips the test without it
// (but fails it in CI).
func lookSSH(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("ssh")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("ssh is missing; CI must install openssh-client (.ci/run does)")
		}
		t.Skip("the OpenSSH client is not installed")
	}
	return path
}

// TestServeInTmux plays over SSH with the real OpenSSH client in a tmux
// pane against the built binary, checking the host key the server's log
// names: the pane shows the lobby, Enter plays solo, 3 switches the
// strategy, q goes back to the lobby and q again ends the session with
// status 0; then SIGTERM tells a second player, in the lobby, how long
// they have (-drain 2s), then "server shutting down", and the server
// exits within five seconds.
func TestServeInTmux(t *testing.T) {
	sshPath := lookSSH(t)
	s := newTmux(t)
	bin := buildBinary(t)
	dir := t.TempDir()
	key, signer := writeClientKey(t, dir)
	srv := startServe(t, bin, dir, "--drain", "5s")
	// The server logs its host key's fingerprint for players to check; ssh
	// checks the key strictly against the one that fingerprint names.
	srv.waitLog(t, "msg=listening", "host_key="+ssh.FingerprintSHA256(srv.hostKey))
	knownHosts := filepath.Join(dir, "known_hosts")
	writeKnownHosts(t, knownHosts, srv)
	sshCmd := fmt.Sprintf("%s -F /dev/null -p %d -o StrictHostKeyChecking=yes -o UserKnownHostsFile=%s "+
		"-o LogLevel=ERROR -o IdentitiesOnly=yes -i %s -l player 127.0.0.1; echo exit=$?", sshPath, srv.port, knownHosts, key)

	s.send("clear; "+sshCmd, "Enter")
	s.waitFor("the lobby", func(p string) bool { return strings.Contains(p, "Play solo") && strings.Contains(p, "ARENAS") }, nil)
	s.send("Enter")
	// The first frames may be captured half drawn: wait for a whole one.
	s.waitFor("the title screen and the panel over SSH", func(p string) bool {
		return strings.Contains(p, "high 0") && strings.Contains(p, "P O O L R O I D S") &&
			strings.Contains(p, "pools") && panelRow(p, "capacity") != nil
	}, nil)
	s.send("3")
	s.waitFor("the panel to name listremove", func(p string) bool {
		row := panelRow(p, "strategy")
		return len(row) == 2 && row[0] == "listremove" && row[1] == "listremove"
	}, nil)
	s.send("q")
	s.waitFor("the lobby again", func(p string) bool { return strings.Contains(p, "Play solo") }, nil)
	s.send("q")
	s.waitFor("ssh to exit with 0", func(p string) bool { return strings.Contains(p, "exit=0") }, nil)
	fp := ssh.FingerprintSHA256(signer.PublicKey())
	srv.waitLog(t, "msg=connect", "user=player", "fingerprint="+fp)
	srv.waitLog(t, "msg=\"game start\"", "width=120", "height=40")
	srv.waitLog(t, "msg=disconnect", "user=player", "reason=quit")

	s.send("clear; "+sshCmd, "Enter")
	s.waitFor("the second lobby", func(p string) bool { return strings.Contains(p, "Play solo") }, nil)
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	s.waitFor("the drain's notice", func(p string) bool { return strings.Contains(p, "server stopping in ") }, nil)
	if !eventually(8*time.Second, func() bool { return closed(srv.done) }) {
		t.Fatal("server still running 8 s after SIGTERM, with -drain 5s")
	}
	if srv.err != nil {
		t.Errorf("server exited with %v after SIGTERM, want status 0", srv.err)
	}
	s.waitFor("the player to be told", func(p string) bool {
		return strings.Contains(p, "poolroids: server shutting down") && strings.Contains(p, "exit=1")
	}, nil)
	srv.waitLog(t, "msg=disconnect", "reason=shutdown")
}

// frameMark starts every frame tcell sends: it wraps each one in
// synchronized output (DEC mode 2026) for xterm-like terminals.
var frameMark = []byte("\x1b[?2026h")

// startPty opens a session on c with a 120×40 xterm-256color terminal
// and starts cmd in it ("": the lobby); out gets its output.
func startPty(tb testing.TB, c *ssh.Client, cmd string, out io.Writer) (*ssh.Session, io.WriteCloser) {
	tb.Helper()
	sess, err := c.NewSession()
	if err != nil {
		tb.Fatal(err)
	}
	if err := sess.RequestPty("xterm-256color", 40, 120, nil); err != nil {
		tb.Fatal(err)
	}
	in, err := sess.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	sess.Stdout = out
	start := sess.Shell
	if cmd != "" {
		start = func() error { return sess.Start(cmd) }
	}
	if err := start(); err != nil {
		tb.Fatal(err)
	}
	return sess, in
}

// meter counts the bytes and the frames of one session's output. Write is
// called by one goroutine; the counts may be read by any.
type meter struct {
	bytes, frames atomic.Int64
	first         atomic.Int64 // a page's first frame's bytes
	tail          []byte       // the end of the last write, for a mark split across two
}

func (m *meter) Write(p []byte) (int, error) {
	m.bytes.Add(int64(len(p)))
	n := bytes.Count(p, frameMark)
	if len(m.tail) > 0 {
		k := min(len(p), len(frameMark)-1)
		n += bytes.Count(append(m.tail, p[:k]...), frameMark)
	}
	keep := min(len(p), len(frameMark)-1)
	m.tail = append(m.tail[:0], p[len(p)-keep:]...)
	m.frames.Add(int64(n))
	return len(p), nil
}

// cpuTime is the CPU time process pid has used (Linux: /proc/pid/stat,
// in USER_HZ = 100 ticks a second).
func cpuTime(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	i := bytes.LastIndexByte(data, ')')
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("short /proc/%d/stat", pid)
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("bad /proc/%d/stat", pid)
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond, nil
}

// BenchmarkSessions is the load benchmark: N concurrent SSH sessions on
// 120×40 terminals over loopback against the built server in a process of
// its own, each watching the autopilot play at 30 FPS — the title screen's
// demo (a typical scene) or, with "stress", the max-pressure autopilot
// (the busiest); with "arena", arenas of 16 players each (N/16 of them),
// every ship flown by the max-pressure autopilot holding fire into the
// arena's shared pools; with "daily", each session in a daily game from
// the lobby, its ship idle, the day's best switched off (g g), and with
// "ghost" the same with the day's best (a 20-minute autopilot game,
// posted first) flying as its ghost: the two rows' server-%/session
// differ by what a ghost costs. One op is one second of all N sessions
// playing.
// Metrics:
// what one session costs the server — bytes of terminal output a second
// (KiB/s/session), frames a second (fps/session, and the slowest
// session's), CPU (server-%/session: percent of one core) — and the cores
// the server and the clients (this process, decrypting and counting) used
// in all. The web- rows are the same scenes in browsers' sessions (the
// page's socket, without a browser: this process reads the frames), whose
// bytes are the frames' messages; first-frame-B is the largest first frame
// a page was sent: in the arena row, a 120×40 game's whole.
//
//	go test -run '^$' -bench Sessions -benchtime 5x .
//	go test -run '^$' -bench 'Sessions/(daily|ghost)' -benchtime 10x -count 5 .  # what a ghost costs
func BenchmarkSessions(b *testing.B) {
	if _, err := cpuTime(os.Getpid()); err != nil {
		b.Skip("needs Linux /proc to measure the server's CPU:", err)
	}
	bin := buildBinary(b)
	dir := b.TempDir()
	webAddr := freeAddr(b)
	srv := startServe(b, bin, dir, "--max-sessions", "256", "--max-per-address", "256", "--conn-rate", "0", "--idle", "1h", "--arena-size", "16", "--web", webAddr)
	_, client := writeClientKey(b, dir)
	config := &ssh.ClientConfig{
		User:            "bench",
		Auth:            []ssh.AuthMethod{ssh.PublicKeys(client)},
		HostKeyCallback: ssh.FixedHostKey(srv.hostKey),
		Timeout:         10 * time.Second,
	}
	best := filepath.Join(dir, "best.prpl")
	if out, err := exec.Command(bin, "record", "-daily", "-steps", "72000", best).CombinedOutput(); err != nil {
		b.Fatalf("record -daily: %v\n%s", err, out)
	}
	postBest(b, srv.addr, config, best)
	for _, bc := range []struct {
		scene string
		n     int
		web   bool // browsers' sessions, on 120×40 pages
	}{
		{"demo", 1, false}, {"demo", 16, false}, {"demo", 64, false}, {"stress", 64, false}, {"arena", 64, false}, {"demo", 200, false},
		{"daily", 16, false}, {"ghost", 16, false},
		{"demo", 1, true}, {"demo", 64, true}, {"stress", 64, true}, {"arena", 64, true},
	} {
		name := fmt.Sprintf("%s-%d", bc.scene, bc.n)
		if bc.web {
			name = "web-" + name
		}
		b.Run(name, func(b *testing.B) {
			meters := make([]*meter, bc.n)
			ins := make([]io.Writer, bc.n)
			var wg sync.WaitGroup
			defer wg.Wait() // the readers end when their clients close
			for i := range meters {
				if bc.web {
					ws := openWebBench(b, &wg, webAddr, bc.scene, i)
					defer ws.ws.CloseNow()
					meters[i], ins[i] = ws.m, ws
					if bc.scene != "arena" {
						_, _ = io.WriteString(ws, "\r") // the lobby: Enter plays solo
					}
					continue
				}
				c, err := ssh.Dial("tcp", srv.addr, config)
				if err != nil {
					b.Fatal(err)
				}
				defer c.Close()
				sess, err := c.NewSession()
				if err != nil {
					b.Fatal(err)
				}
				if err := sess.RequestPty("xterm-256color", 40, 120, nil); err != nil {
					b.Fatal(err)
				}
				in, _ := sess.StdinPipe()
				out, _ := sess.StdoutPipe()
				start := sess.Shell // the lobby: Enter plays solo
				if bc.scene == "arena" {
					start = func() error { return sess.Start(fmt.Sprintf("join bench%d", i/16)) }
				}
				if err := start(); err != nil {
					b.Fatal(err)
				}
				m := &meter{}
				meters[i] = m
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, _ = io.Copy(m, out)
				}()
				ins[i] = in
				switch bc.scene {
				case "daily":
					_, _ = io.WriteString(in, "\x1b[B\r gg") // Down to the daily game, play, ghost off
				case "ghost":
					_, _ = io.WriteString(in, "\x1b[B\r ")
				case "demo", "stress":
					_, _ = io.WriteString(in, "\r")
				}
			}
			// drawn waits until every session has drawn n more frames.
			drawn := func(n int64) {
				from := make([]int64, len(meters))
				for i, m := range meters {
					from[i] = m.frames.Load()
				}
				if !eventually(time.Minute, func() bool {
					for i, m := range meters {
						if m.frames.Load() < from[i]+n {
							return false
						}
					}
					return true
				}) {
					b.Fatalf("the sessions stopped drawing before %d frames", n)
				}
			}
			drawn(10) // all in the game, which draws at 30 a second: the lobby once
			if bc.scene == "stress" || bc.scene == "arena" {
				for _, in := range ins {
					_, _ = io.WriteString(in, "x")
				}
			}
			drawn(60) // two seconds of play: the pools warm
			// take reads the counters: each session's frames, all the bytes,
			// the server's CPU and the clients'.
			take := func() (frames []int64, bytes int64, srvCPU, cliCPU time.Duration) {
				for _, m := range meters {
					frames = append(frames, m.frames.Load())
					bytes += m.bytes.Load()
				}
				srvCPU, err1 := cpuTime(srv.cmd.Process.Pid)
				cliCPU, err2 := cpuTime(os.Getpid())
				if err := errors.Join(err1, err2); err != nil {
					b.Fatal(err)
				}
				return frames, bytes, srvCPU, cliCPU
			}
			f0, b0, s0, c0 := take()
			t0 := time.Now()
			b.ResetTimer()
			for range b.N {
				time.Sleep(time.Second)
			}
			b.StopTimer()
			f1, b1, s1, c1 := take()
			secs := time.Since(t0).Seconds()
			var frames, slowest int64 = 0, -1
			for i := range f1 {
				d := f1[i] - f0[i]
				frames += d
				if slowest < 0 || d < slowest {
					slowest = d
				}
			}
			n := float64(bc.n)
			b.ReportMetric(float64(b1-b0)/1024/secs/n, "KiB/s/session")
			b.ReportMetric(float64(frames)/secs/n, "fps/session")
			b.ReportMetric(float64(slowest)/secs, "min-fps")
			b.ReportMetric(100*(s1-s0).Seconds()/secs/n, "server-%/session")
			b.ReportMetric((s1-s0).Seconds()/secs, "server-cores")
			b.ReportMetric((c1-c0).Seconds()/secs, "client-cores")
			if bc.web {
				var first int64
				for _, m := range meters {
					first = max(first, m.first.Load())
				}
				b.ReportMetric(float64(first), "first-frame-B")
			}
		})
	}
}

// openWebBench opens a browser's session of BenchmarkSessions on the
// server's web listener at addr, as the page does on a 120×40 grid, and
// starts counting its frames, until the caller closes its socket.
func openWebBench(b *testing.B, wg *sync.WaitGroup, addr, scene string, i int) *webBench {
	path := "/"
	if scene == "arena" {
		path = fmt.Sprintf("/join/bench%d", i/16)
	}
	ws, _, err := websocket.Dial(context.Background(), "ws://"+addr+"/ws", nil)
	if err != nil {
		b.Fatal(err)
	}
	ws.SetReadLimit(1 << 20)
	if err := ws.Write(context.Background(), websocket.MessageBinary, web.AppendHello(nil, web.Hello{Path: path, Name: "bench", Cols: 120, Rows: 40})); err != nil {
		b.Fatal(err)
	}
	m := &meter{}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			_, msg, err := ws.Read(context.Background())
			if err != nil {
				return
			}
			if msg[0] == web.MsgFrame {
				m.first.CompareAndSwap(0, int64(len(msg)))
				m.frames.Add(1)
			}
			m.bytes.Add(int64(len(msg)))
		}
	}()
	return &webBench{ws: ws, m: m}
}

// webBench is a page of BenchmarkSessions: its socket, its meter, and,
// as an io.Writer, its keyboard: a key down and up a byte ("\r" Enter).
type webBench struct {
	ws *websocket.Conn
	m  *meter
}

func (k *webBench) Write(p []byte) (int, error) {
	for _, c := range p {
		key := web.Key(c)
		if c == '\r' {
			key = web.KeyEnter
		}
		for _, t := range []web.EventType{web.KeyPress, web.KeyRelease} {
			if err := k.ws.Write(context.Background(), websocket.MessageBinary, web.AppendKey(nil, web.Event{Type: t, Key: key})); err != nil {
				return 0, err
			}
		}
	}
	return len(p), nil
}

// postBest posts the daily game in the file path to the server at addr,
// as the exec command post.
func postBest(b *testing.B, addr string, config *ssh.ClientConfig, path string) {
	c, err := ssh.Dial("tcp", addr, config)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	if out, err := sshExec(b, c, "post", path); err != nil || !strings.Contains(out, "counted") {
		b.Fatalf("post: %v\n%s", err, out)
	}
}

// sshExec runs the exec command cmd (post, scores) on c, its input the
// file at in ("": none), and returns its output and errors, and its
// exit.
func sshExec(tb testing.TB, c *ssh.Client, cmd, in string) (string, error) {
	tb.Helper()
	sess, err := c.NewSession()
	if err != nil {
		tb.Fatal(err)
	}
	defer sess.Close()
	if in != "" {
		f, err := os.Open(in)
		if err != nil {
			tb.Fatal(err)
		}
		defer f.Close()
		sess.Stdin = f
	}
	out, err := sess.CombinedOutput(cmd)
	return string(out), err
}

// TestArenaInTmux: two OpenSSH clients, in two tmux sessions, join one
// arena with `ssh -t … join den` and each sees the other's name.
func TestArenaInTmux(t *testing.T) {
	sshPath := lookSSH(t)
	s := newTmux(t)
	if out, err := s.run("new-session", "-d", "-s", "e2e2", "-x", "120", "-y", "40", "env", "PS1=$ ", "sh"); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	key, _ := writeClientKey(t, dir)
	srv := startServe(t, bin, dir)
	srv.waitLog(t, "msg=listening")
	knownHosts := filepath.Join(dir, "known_hosts")
	writeKnownHosts(t, knownHosts, srv)
	sshCmd := func(user string) string {
		return fmt.Sprintf("%s -t -F /dev/null -p %d -o StrictHostKeyChecking=yes -o UserKnownHostsFile=%s "+
			"-o LogLevel=ERROR -o IdentitiesOnly=yes -i %s -l %s 127.0.0.1 join den; echo exit=$?", sshPath, srv.port, knownHosts, key, user)
	}
	// The second pane, through tmux's own commands.
	send2 := func(keys ...string) {
		if out, err := s.run(append([]string{"send-keys", "-t", "e2e2"}, keys...)...); err != nil {
			t.Fatalf("tmux send-keys: %v\n%s", err, out)
		}
	}
	capture2 := func() string {
		out, err := s.run("capture-pane", "-p", "-t", "e2e2")
		if err != nil {
			t.Fatalf("tmux capture-pane: %v\n%s", err, out)
		}
		return out
	}

	s.send("clear; "+sshCmd("ann"), "Enter")
	s.waitFor("ann in the arena", func(p string) bool { return strings.Contains(p, "arena den") }, nil)
	send2("clear; "+sshCmd("bob"), "Enter")
	s.waitFor("bob on ann's screen", func(p string) bool { return strings.Contains(p, "bob") && strings.Contains(p, "ann") }, nil)
	var p string
	if !eventually(15*time.Second, func() bool {
		p = capture2()
		return strings.Contains(p, "arena den") && strings.Contains(p, "ann") && strings.Contains(p, "bob")
	}) {
		t.Fatalf("bob's screen never showed the arena with ann:\n%s", p)
	}
	send2("qq") // in a game, q asks first
	s.waitFor("bob's leaving on ann's screen", func(p string) bool { return strings.Contains(p, "bob left") }, nil)
	s.send("qq")
	s.waitFor("ssh to exit with 0", func(p string) bool { return strings.Contains(p, "exit=0") }, nil)
}
