package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

// cmdRun runs the program path with args, its input from the file in
// ("": none) and env added, and returns its exit status and output.
func cmdRun(t *testing.T, env []string, in, path string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(path, args...)
	cmd.Env = append(os.Environ(), env...)
	if in != "" {
		f, err := os.Open(in)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.Stdin = f
	}
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String(), errs.String()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, out.String(), errs.String()
}

// TestDailyFleet: two `poolroids serve` of one fleet on one PostgreSQL.
// Daily replays made by `poolroids record --daily` are posted, ann's with
// `poolroids post` to A (an unknown server refused until -accept-new),
// bob's with OpenSSH's `ssh host post < file` to B; each game posted
// again to the other server is refused as posted, and ann's second game,
// posted to B, is practice. Then cy's game of `poolroids daily`, played
// in tmux, is posted to A, and dee and eli play the daily game in the
// lobbies of A and B over OpenSSH, the day's best beside them as a ghost,
// each proven and ranked by the server. `ssh host scores daily` then
// prints the same board on both, each game at the score its replay
// proves.
func TestDailyFleet(t *testing.T) {
	sshPath := lookSSH(t)
	servers, _, _ := startFleet(t, 2)
	a, b := servers[0], servers[1]
	bin := a.cmd.Path
	dir := t.TempDir()
	home := []string{"HOME=" + dir, "XDG_CONFIG_HOME=" + dir, "SSH_AUTH_SOCK="}
	annKey, annSigner := writeClientKey(t, t.TempDir())
	bobKey, _ := writeClientKey(t, t.TempDir())

	games := map[string]string{"ann": "", "ann2": "-steps=1500", "bob": "-steps=4000"}
	scores := map[string]string{}
	for name, steps := range games {
		path := filepath.Join(dir, name+".prpl")
		args := []string{"record", "-daily", path}
		if steps != "" {
			args = []string{"record", "-daily", steps, path}
		}
		code, out, errs := cmdRun(t, home, "", bin, args...)
		m := regexp.MustCompile(`, score (\d+), wave`).FindStringSubmatch(out)
		if code != 0 || m == nil {
			t.Fatalf("record %s: exit %d, %q %q", name, code, out, errs)
		}
		scores[name] = m[1]
	}
	replay := func(name string) string { return filepath.Join(dir, name+".prpl") }
	hostA := fmt.Sprintf("127.0.0.1:%d", a.port)
	post := func(name, to, keyPath string, extra ...string) (int, string, string) {
		t.Helper()
		args := append([]string{"post", replay(name), "--to", to, "-i", keyPath, "-known-hosts", filepath.Join(dir, "post_known_hosts")}, extra...)
		return cmdRun(t, home, "", bin, args...)
	}

	code, _, errs := post("ann", "ann@"+hostA, annKey)
	if code != 1 || !strings.Contains(errs, "is not known (ssh-ed25519 "+ssh.FingerprintSHA256(a.hostKey)+")") {
		t.Fatalf("a post to a server not known: exit %d, %q", code, errs)
	}
	code, out, errs := post("ann", "ann@"+hostA, annKey, "-accept-new")
	if code != 0 || !strings.Contains(errs, "permanently added [127.0.0.1]:") ||
		!strings.HasPrefix(out, "proven: the daily game of ") || !strings.Contains(out, ", score "+scores["ann"]+", ") || !strings.Contains(out, "\ncounted: #1 of 1 ") {
		t.Fatalf("ann's post to A: exit %d, %q %q", code, out, errs)
	}

	known := filepath.Join(dir, "known_hosts")
	writeKnownHosts(t, known, servers...)
	openssh := func(srv *serverProc, user, key, in string, cmd ...string) (int, string, string) {
		t.Helper()
		args := append([]string{"-F", "/dev/null", "-p", fmt.Sprint(srv.port), "-o", "StrictHostKeyChecking=yes", "-o", "UserKnownHostsFile=" + known,
			"-o", "BatchMode=yes", "-o", "LogLevel=ERROR", "-o", "IdentitiesOnly=yes", "-i", key, "-l", user, "127.0.0.1"}, cmd...)
		return cmdRun(t, home, in, sshPath, args...)
	}
	code, out, errs = openssh(b, "bob", bobKey, replay("bob"), "post")
	if code != 0 || !strings.Contains(out, ", score "+scores["bob"]+", ") || !strings.Contains(out, "\ncounted: #") || !strings.Contains(out, " of 2 ") {
		t.Fatalf("bob's post to B with OpenSSH: exit %d, %q %q", code, out, errs)
	}

	// Three more: cy plays it locally and posts it to A, and dee and eli
	// play the daily game in the lobby over OpenSSH, on A and on B. Each is
	// told before it plays that it counts, flies the day's best as a
	// ghost, and is told after it that the next is practice.
	term := newTmux(t)
	cyKey, _ := writeClientKey(t, t.TempDir())
	cy := term.pane("cy")
	cy.send(fmt.Sprintf("clear; HOME=%s XDG_CONFIG_HOME=%s %s daily --name cy --dir %s; echo exit=$?", dir, dir, bin, filepath.Join(dir, "cy")), "Enter")
	cy.waitFor("cy's daily title", 15*time.Second, shows("THE DAILY GAME OF", "this game counts"))
	cy.send("Space")
	cy.waitFor("cy's daily game in play", 15*time.Second, shows("cy · ", " counts · "))
	cy.send("q", "y")
	local := cy.waitFor("cy's file", 15*time.Second, shows("exit=0", "post it to a server"))
	file := regexp.MustCompile(`is in (\S+\.prpl)`).FindStringSubmatch(local)
	if file == nil {
		t.Fatalf("cy's local game names no file:\n%s", local)
	}
	code, out, errs = cmdRun(t, home, "", bin, "post", file[1], "--to", "cy@"+hostA, "-i", cyKey, "-known-hosts", filepath.Join(dir, "post_known_hosts"))
	if code != 0 || !strings.Contains(out, "\ncounted: #") {
		t.Fatalf("cy's local game posted to A: exit %d, %q %q", code, out, errs)
	}
	// Games played alike are one game (the same checksum), ranked once:
	// dee fires, eli turns first.
	for _, p := range []struct {
		name, turn string
		srv        *serverProc
	}{{"dee", "", a}, {"eli", "d", b}} {
		key, _ := writeClientKey(t, t.TempDir())
		pn := term.pane(p.name)
		pn.send(fmt.Sprintf("clear; %s -t -F /dev/null -p %d -o StrictHostKeyChecking=yes -o UserKnownHostsFile=%s -o LogLevel=ERROR -o IdentitiesOnly=yes -i %s -l %s 127.0.0.1; echo exit=$?",
			sshPath, p.srv.port, known, key, p.name), "Enter")
		pn.waitFor(p.name+"'s lobby", 15*time.Second, shows("Daily game", "your first game of today counts", "DAILY "))
		pn.send("Down", "Enter")
		pn.waitFor(p.name+"'s daily title", 15*time.Second, shows("THE DAILY GAME OF", "this game counts", "the day's best"))
		pn.send("Space")
		pn.waitFor(p.name+"'s daily game with its ghost", 15*time.Second, shows(p.name+" · ", " counts · ghost "))
		if p.turn != "" {
			pn.send(p.turn, p.turn)
		}
		pn.send("Space")
		pn.waitFor(p.name+"'s shot", 15*time.Second, func(s string) bool { hw := panelRow(s, "high-water"); return len(hw) == 2 && hw[0] != "0" })
		pn.send("q", "y")
		if !strings.Contains(pn.waitFor(p.name+"'s lobby after the game", 15*time.Second, shows("Daily game")), "practice: yours of today") {
			t.Fatalf("%s's game did not count; the server's log:\n%s", p.name, p.srv.logText())
		}
		pn.send("q")
		pn.waitFor(p.name+" out", 15*time.Second, shows("exit=0"))
	}

	// Each game is the fleet's once: posted again anywhere, it is refused.
	if code, _, errs := post("bob", "ann@"+hostA, annKey); code != 1 || !strings.Contains(errs, "poolroids: refused, posted: ") || !strings.Contains(errs, "bob's") {
		t.Errorf("bob's game posted to A by ann: exit %d, %q", code, errs)
	}
	if code, _, errs := openssh(b, "bob", bobKey, replay("ann"), "post"); code != 1 || !strings.Contains(errs, "refused, posted: ") || !strings.Contains(errs, "ann's, #") {
		t.Errorf("ann's game posted to B by bob: exit %d, %q", code, errs)
	}
	// ann's key, under any name, has had her game of the day.
	if code, out, errs := openssh(b, "annie", annKey, replay("ann2"), "post"); code != 0 || !strings.Contains(out, "\npractice: your game that counts on ") ||
		!strings.Contains(out, " scored "+scores["ann"]+" ") {
		t.Errorf("ann's second game, as annie on B: exit %d, %q %q", code, out, errs)
	}

	// Each server has read the day's board since the last game was
	// added, as it refused one posted again.
	var boards [2]string
	for i, srv := range servers {
		code, out, errs := openssh(srv, "eve", bobKey, "", "scores", "daily")
		if code != 0 {
			t.Fatalf("scores daily on server %d: exit %d, %q", i, code, errs)
		}
		boards[i] = out
	}
	annFP := strings.TrimPrefix(ssh.FingerprintSHA256(annSigner.PublicKey()), "SHA256:")[:8]
	row := regexp.MustCompile(`(?m)^ +\d+  (\S+) +(\S+) +(\d+) `)
	got := map[string]string{}
	for _, m := range row.FindAllStringSubmatch(boards[0], -1) {
		got[m[1]] = m[3]
		if m[1] == "ann" && m[2] != annFP {
			t.Errorf("ann's row shows key %s, want %s", m[2], annFP)
		}
	}
	if boards[0] != boards[1] || len(got) != 5 || got["ann"] != scores["ann"] || got["bob"] != scores["bob"] ||
		got["cy"] == "" || got["dee"] == "" || got["eli"] == "" || !strings.Contains(boards[0], "games counted: 5\n") {
		t.Errorf("the boards:\nA:\n%s\nB:\n%s\nwant the same, ann %s and bob %s", boards[0], boards[1], scores["ann"], scores["bob"])
	}
	t.Logf("the daily board on both servers:\n%s", boards[0])
	a.waitLog(t, `msg="daily post"`, "counted=true")
	b.waitLog(t, `msg="daily game"`, "player=eli", "counted=true")
}
