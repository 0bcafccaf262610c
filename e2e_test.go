package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// tmuxSession is a detached tmux server of its own (its own socket, in the
// test's temporary directory) with one 120×40 pane running sh.
type tmuxSession struct {
	t      *testing.T
	tmux   string
	socket string // path
}

func newTmux(t *testing.T) *tmuxSession {
	t.Helper()
	path, err := exec.LookPath("tmux")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tmux is missing; CI must install it (.ci/run does)")
		}
		t.Skip("tmux is not installed")
	}
	// tmux 3.3 leaves its socket behind on kill-server; one in the test's
	// temporary directory goes with it. (A socket path is limited to about
	// 100 bytes: the directory's is short enough.)
	s := &tmuxSession{t: t, tmux: path, socket: filepath.Join(t.TempDir(), "tmux")}
	t.Cleanup(func() { _, _ = s.run("kill-server") })
	if out, err := s.run("new-session", "-d", "-s", "e2e", "-x", "120", "-y", "40", "env", "PS1=$ ", "sh"); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	return s
}

func (s *tmuxSession) run(args ...string) (string, error) {
	cmd := exec.Command(s.tmux, append([]string{"-S", s.socket, "-f", "/dev/null"}, args...)...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// send types keys (tmux key names) into the pane.
// playGame types the command line that plays bin with seed 1 and the
// environment env, its home a new empty directory, and prints its exit
// status after it.
func (s *tmuxSession) playGame(bin, env string) {
	s.t.Helper()
	home := s.t.TempDir()
	s.send(fmt.Sprintf("HOME=%s XDG_CONFIG_HOME=%s %s %s --seed 1; echo exit=$?", home, home, env, bin), "Enter")
}

func (s *tmuxSession) send(keys ...string) {
	s.t.Helper()
	if out, err := s.run(append([]string{"send-keys", "-t", "e2e"}, keys...)...); err != nil {
		s.t.Fatalf("tmux send-keys %v: %v\n%s", keys, err, out)
	}
}

func (s *tmuxSession) capture() string {
	s.t.Helper()
	out, err := s.run("capture-pane", "-p", "-t", "e2e")
	if err != nil {
		s.t.Fatalf("tmux capture-pane: %v\n%s", err, out)
	}
	return out
}

// waitFor captures the pane until ok accepts it, doing between captures.
func (s *tmuxSession) waitFor(what string, ok func(string) bool, between func()) string {
	s.t.Helper()
	var pane string
	if !eventually(15*time.Second, func() bool {
		if pane = s.capture(); ok(pane) {
			return true
		}
		if between != nil {
			between()
		}
		return false
	}) {
		s.t.Fatalf("timed out waiting for %s; pane:\n%s", what, pane)
	}
	return pane
}

// eventually polls ok until it holds or within has passed, and reports
// whether it held. It is the package's one wait on the real clock: these
// tests drive real processes (the built binary, tmux, ssh, a server,
// PostgreSQL) that no synctest bubble can hold, so they wait for what
// those processes show, never for a fixed time. A poll every 50 ms keeps
// tmux's captures cheap on a loaded machine.
func eventually(within time.Duration, ok func() bool) bool {
	deadline := time.Now().Add(within)
	for !ok() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
	return true
}

// closed reports whether c is closed.
func closed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// exited waits for exit status 0 at the shell (the command lines typed
// end in "echo exit=$?") and checks that the terminal is back: no
// alternate screen, no mouse reporting. It returns the pane.
func (s *tmuxSession) exited() string {
	s.t.Helper()
	pane := s.waitFor("the shell", func(p string) bool { return strings.Contains(p, "exit=0") }, nil)
	out, err := s.run("display-message", "-p", "-t", "e2e", "#{alternate_on} #{mouse_any_flag}")
	if err != nil || strings.TrimSpace(out) != "0 0" {
		s.t.Errorf("alternate screen, mouse reporting = %q (%v), want both off", strings.TrimSpace(out), err)
	}
	return pane
}

// panelRow returns the values of the panel row that starts with label
// (bullets first, then debris), or nil.
func panelRow(pane, label string) []string {
	for _, line := range strings.Split(pane, "\n") {
		i := strings.LastIndex(line, "│"+label)
		if i < 0 {
			continue
		}
		f := strings.Fields(strings.Trim(line[i+len("│"+label):], "│ "))
		return f
	}
	return nil
}

// buildBinary builds the command into a temporary directory, for the
// end-to-end tests and the SSH load benchmark.
func buildBinary(tb testing.TB) string {
	tb.Helper()
	bin := filepath.Join(tb.TempDir(), "poolroids")
	cmd := exec.Command("go", "build", "-o", bin, ".") // go test puts its go first in PATH
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestPlayInTmux plays the built binary in a real terminal (a tmux pane):
// the arena and the panel show, 3 switches both pools to listremove while
// the game goes on, held fire puts bullets in the pool, q exits to the
// shell.
func TestPlayInTmux(t *testing.T) {
	s := newTmux(t)
	s.playGame(buildBinary(t), "LANG=C.UTF-8")

	// The first frames may be captured half drawn: wait for a whole one.
	s.waitFor("the title screen in the arena, the panel and the strategy list", func(p string) bool {
		return strings.Contains(p, "high 0") && strings.Contains(p, "P O O L R O I D S") &&
			strings.Contains(p, "pools") && panelRow(p, "capacity") != nil && strings.Contains(p, "strategy →")
	}, nil)

	s.send("3")
	pane := s.waitFor("the panel to name listremove", func(p string) bool {
		row := panelRow(p, "strategy")
		return len(row) == 2 && row[0] == "listremove" && row[1] == "listremove"
	}, nil)
	// The arena is what lies left of the 34-column panel.
	arena := func(p string) string {
		var b strings.Builder
		for _, line := range strings.Split(p, "\n") {
			r := []rune(line)
			b.WriteString(string(r[:min(len(r), 120-34)]))
		}
		return b.String()
	}
	s.waitFor("the game to go on after the switch", func(p string) bool { return arena(p) != arena(pane) }, nil)

	s.send("Space") // leave the title screen
	s.waitFor("the game to start", func(p string) bool { return !strings.Contains(p, "P O O L R O I D S") }, nil)
	activeBullets := func(p string) int {
		n, err := strconv.Atoi(firstOr(panelRow(p, "active")))
		if err != nil {
			return -1
		}
		return n
	}
	// A new game starts with no bullets; the demo's are gone.
	s.waitFor("an empty bullet pool", func(p string) bool { return activeBullets(p) == 0 }, nil)
	s.waitFor("bullets from held fire", func(p string) bool { return activeBullets(p) > 0 }, func() {
		s.send("Space") // repeated at every capture: held down
	})

	s.send("q", "q") // in a game, q asks first
	pane = s.waitFor("the shell", func(p string) bool { return strings.Contains(p, "exit=0") }, nil)
	if out, err := s.run("display-message", "-p", "-t", "e2e", "#{pane_current_command}"); err != nil || strings.TrimSpace(out) != "sh" {
		t.Errorf("pane runs %q (%v), want sh", strings.TrimSpace(out), err)
	}
	if strings.Contains(pane, "pools") {
		t.Errorf("the game is still on screen:\n%s", pane)
	}
}

// TestTmuxLeavesNoSocket checks a tmux test leaves no socket behind.
func TestTmuxLeavesNoSocket(t *testing.T) {
	var socket string
	t.Run("session", func(t *testing.T) { socket = newTmux(t).socket })
	if socket == "" {
		t.Skip("no tmux")
	}
	if _, err := os.Stat(socket); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("socket %s left behind (%v)", socket, err)
	}
}

// TestBadByteInTmux sends a byte that is not UTF-8 (what tmux send-keys -H
// e9 types: Latin-1's é), then q: tcell v2.13 alone spins for ever on it,
// deaf to q and to signals, and leaves the terminal in the alternate
// screen. The game must end and restore the terminal.
func TestBadByteInTmux(t *testing.T) {
	s := newTmux(t)
	s.playGame(buildBinary(t), "LANG=C.UTF-8")
	s.waitFor("the title screen and the panel", func(p string) bool {
		return strings.Contains(p, "P O O L R O I D S") && strings.Contains(p, "pools")
	}, nil)
	s.send("-H", "e9")
	s.send("q")
	s.exited()
}

// TestPasteQuitInTmux pastes q q (in a game q asks first) and thousands of keys behind it into a game:
// q quits, the rest is never read, and the game must still end and give
// the terminal back (tcell's Fini waited for ever on the unread keys).
func TestPasteQuitInTmux(t *testing.T) {
	s := newTmux(t)
	s.playGame(buildBinary(t), "LANG=C.UTF-8")
	s.waitFor("the title screen", func(p string) bool { return strings.Contains(p, "P O O L R O I D S") }, nil)
	s.send(" ")
	s.waitFor("a game", func(p string) bool { return !strings.Contains(p, "P O O L R O I D S") }, nil)
	s.send("-l", "qq"+strings.Repeat("3", 3000)) // in a game, q asks first
	s.exited()
}

// TestOldTermsInTmux plays with terminal types whose entries ask for
// padding delays (vt100: 50 ms a clear, 5 ms a cursor move, 2 ms a style),
// which tcell sleeps unless told not to: a frame then took seconds, space
// never started a game and q took 16 s. Space must start a game and q end
// it.
func TestOldTermsInTmux(t *testing.T) {
	s := newTmux(t)
	bin := buildBinary(t)
	for _, term := range []string{"vt100", "vt220"} {
		s.send("clear", "Enter")
		s.playGame(bin, "LANG=C.UTF-8 TERM="+term)
		s.waitFor(term+": the title screen", func(p string) bool { return strings.Contains(p, "P O O L R O I D S") }, nil)
		s.send("Space")
		s.waitFor(term+": the game to start", func(p string) bool { return !strings.Contains(p, "P O O L R O I D S") }, nil)
		s.send("q", "q") // in a game, q asks first
		s.waitFor(term+": the shell", func(p string) bool { return strings.Contains(p, "exit=0") }, nil)
	}
}

// TestPlayLatin1InTmux plays in a terminal whose locale is not UTF-8 and
// names a character set tcell has no table for: the game starts in ASCII
// (no braille reaches the pane) and q exits cleanly.
func TestPlayLatin1InTmux(t *testing.T) {
	s := newTmux(t)
	s.playGame(buildBinary(t), "LC_ALL=de_DE.ISO-8859-1")
	pane := s.waitFor("the title screen and the panel", func(p string) bool {
		// The borders are the terminal's line drawing (ACS), which
		// capture-pane prints as the letters that select it.
		return strings.Contains(p, "P O O L R O I D S") && strings.Contains(p, "capacity")
	}, nil)
	if strings.ContainsFunc(pane, func(r rune) bool { return r >= 0x2800 && r <= 0x28ff }) {
		t.Errorf("braille in a terminal that is not UTF-8:\n%s", pane)
	}
	s.send("q")
	s.waitFor("the shell", func(p string) bool { return strings.Contains(p, "exit=0") }, nil)
}

// TestUnknownTermInTmux starts the game with terminal types it cannot
// drive: it says which TERM is wrong and exits 1.
func TestUnknownTermInTmux(t *testing.T) {
	s := newTmux(t)
	bin := buildBinary(t)
	for _, term := range []string{"no-such-terminal", "dumb"} {
		s.send(fmt.Sprintf("clear; TERM=%s %s; echo exit=$?", term, bin), "Enter")
		s.waitFor("an error naming TERM="+term, func(p string) bool {
			return strings.Contains(p, "poolroids: TERM="+term+": ") && strings.Contains(p, "exit=1")
		}, nil)
	}
}

// TestNoTerminalInTmux starts the game without a controlling terminal (a
// new session, as under cron or nohup): it says so and exits 1.
func TestNoTerminalInTmux(t *testing.T) {
	s := newTmux(t)
	bin := buildBinary(t)
	s.send("clear; setsid -w "+bin+" </dev/null; echo exit=$?", "Enter")
	s.waitFor("an error saying play needs a terminal", func(p string) bool {
		return strings.Contains(p, "poolroids: opening the terminal: ") && strings.Contains(p, "play needs one") && strings.Contains(p, "exit=1")
	}, nil)
}

func firstOr(f []string) string {
	if len(f) == 0 {
		return ""
	}
	return f[0]
}
