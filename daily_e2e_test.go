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
// posted to B, is practice. `ssh host scores daily` then prints the same
// board on both, each game at the score its replay proves.
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
	if boards[0] != boards[1] || len(got) != 2 || got["ann"] != scores["ann"] || got["bob"] != scores["bob"] ||
		!strings.Contains(boards[0], "games counted: 2\n") {
		t.Errorf("the boards:\nA:\n%s\nB:\n%s\nwant the same, ann %s and bob %s", boards[0], boards[1], scores["ann"], scores["bob"])
	}
	t.Logf("the daily board on both servers:\n%s", boards[0])
	a.waitLog(t, `msg="daily post"`, "counted=true")
}
