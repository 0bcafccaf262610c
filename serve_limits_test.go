package main

import (
	"io"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

// TestServeLobbyIsNoGame: with one game allowed an address (and three
// sessions), a player in the lobby and one watching count as no game: a
// second lobby opens, a watcher watches, and one of them plays once the
// other's game is over; a game too many is refused in the lobby, and a
// session too many at once, each naming its limit. On main the second
// lobby was refused as "too many games from your address".
func TestServeLobbyIsNoGame(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	dir := t.TempDir()
	srv := startServe(t, bin, dir, "--max-per-address", "1", "--max-sessions-per-address", "3")
	_, key := writeClientKey(t, dir)
	open := func(cmd string) (*syncBuffer, io.Writer, *ssh.Session) {
		c, err := ssh.Dial("tcp", srv.addr, &ssh.ClientConfig{
			User: "ann", Auth: []ssh.AuthMethod{ssh.PublicKeys(key)},
			HostKeyCallback: ssh.FixedHostKey(srv.hostKey), Timeout: 10 * time.Second,
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		var screen syncBuffer
		sess, in := startPty(t, c, cmd, &screen)
		return &screen, in, sess
	}
	wait := func(what string, screen *syncBuffer, want string) {
		t.Helper()
		if !eventually(10*time.Second, func() bool { return strings.Contains(screen.String(), want) }) {
			t.Fatalf("%s: never showed %q; it sent:\n%q", what, want, tail(screen.String()))
		}
	}
	first, firstIn, _ := open("")
	wait("the first lobby", first, "Play solo")
	second, secondIn, _ := open("")
	wait("a second lobby from the address", second, "Play solo")
	_, _ = io.WriteString(firstIn, "\r")
	wait("the first lobby's solo game", first, "P O O L R O I D S")
	watcher, _, _ := open("watch ann")
	wait("a watcher of it", watcher, "1 watching")

	_, _ = io.WriteString(secondIn, "\r")
	wait("a second game refused", second, "too many games from your address (1 at once), try later")
	over, _, sess := open("")
	if err := sess.Wait(); err == nil || !strings.Contains(over.String(), "too many sessions from your address (3 at once), try later") {
		t.Errorf("a fourth session: %v, %q", err, tail(over.String()))
	}

	_, _ = io.WriteString(firstIn, "q") // from the title, back to the lobby
	n := strings.Count(second.String(), "P O O L R O I D S")
	if !eventually(10*time.Second, func() bool {
		_, _ = io.WriteString(secondIn, "\r")
		return strings.Count(second.String(), "P O O L R O I D S") > n
	}) {
		t.Fatalf("the second lobby never played once the first game was over; it sent:\n%q", tail(second.String()))
	}
}

// tail is the end of a screen's output, for a failure's message.
func tail(s string) string { return s[max(0, len(s)-600):] }
