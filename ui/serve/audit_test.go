package serve

import (
	"net"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
)

// TestAudit runs ssh-audit, a real external auditor, against the server:
// no algorithm it offers may be marked [fail] or [warn]. The one exception
// is an algorithm the auditor does not know yet (Debian's 2.5.0 predates
// ML-KEM and strict key exchange), which it marks "[warn] unknown
// algorithm".
func TestAudit(t *testing.T) {
	bin, err := exec.LookPath("ssh-audit")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("ssh-audit is not installed (.ci/run installs it)")
		}
		t.Skip("ssh-audit is not installed")
	}
	ts := startServer(t, Config{})
	host, port, err := net.SplitHostPort(ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	// Its exit status says the worst it found, unknown algorithms
	// included: the lines are what tell.
	out, _ := exec.Command(bin, "-n", "-t", "10", "-p", port, host).CombinedOutput()
	text := string(out)
	if !strings.Contains(text, "(kex) curve25519-sha256") {
		t.Fatalf("ssh-audit did not list the key exchanges; its output:\n%s", text)
	}
	for line := range strings.Lines(text) {
		if (strings.Contains(line, "[fail]") || strings.Contains(line, "[warn]")) &&
			!strings.Contains(line, "[warn] unknown algorithm") {
			t.Errorf("ssh-audit: %s", strings.TrimSpace(line))
		}
	}
	if t.Failed() {
		t.Logf("ssh-audit's output:\n%s", text)
	}
}

// TestAlgorithmsSupported checks that every algorithm offered is one
// x/crypto/ssh implements, and that a client limited to the hardened lists
// logs in: a name it does not know would only show when a client needed it.
func TestAlgorithmsSupported(t *testing.T) {
	sup := ssh.SupportedAlgorithms()
	for _, l := range []struct {
		name      string
		offered   []string
		supported []string
	}{
		{"key exchange", algorithms.KeyExchanges, sup.KeyExchanges},
		{"cipher", algorithms.Ciphers, sup.Ciphers},
		{"MAC", algorithms.MACs, sup.MACs},
	} {
		for _, a := range l.offered {
			if !slices.Contains(l.supported, a) {
				t.Errorf("%s %s is not supported by x/crypto/ssh", l.name, a)
			}
		}
	}
	ts := startServer(t, Config{})
	for _, kex := range algorithms.KeyExchanges {
		t.Run(kex, func(t *testing.T) {
			c, err := ssh.Dial("tcp", ts.addr, &ssh.ClientConfig{
				Config:          ssh.Config{KeyExchanges: []string{kex}, Ciphers: algorithms.Ciphers[:1], MACs: algorithms.MACs[:1]},
				User:            "auditor",
				Auth:            []ssh.AuthMethod{ssh.PublicKeys(newKey(t))},
				HostKeyCallback: ssh.FixedHostKey(ts.hostKey),
			})
			if err != nil {
				t.Fatal(err)
			}
			c.Close()
		})
	}
}
