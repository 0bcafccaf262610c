package dial

import (
	"cmp"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"encoding/pem"
	"errors"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gdamore/tcell/v2"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"

	"poolroids/ui/serve"
	"poolroids/ui/serve/servetest"
)

// server starts a poolroids server whose scores command answers with the
// player's name and key fingerprint ("-" for none); it returns its
// address and host key.
func server(t *testing.T) (string, ssh.PublicKey) {
	t.Helper()
	return servetest.Start(t, serve.Config{
		Play: func(context.Context, tcell.Screen, serve.Session) (int, error) { return 0, nil },
		Exec: func(_ context.Context, s serve.Session, _ []byte) (string, error) {
			return s.Name + " " + cmp.Or(s.Fingerprint, "-"), nil
		},
	})
}

// who logs in by cfg and returns what the server saw: "name fingerprint".
func who(t *testing.T, addr string, cfg Config) (string, error) {
	t.Helper()
	c, err := Dial(addr, cfg)
	if err != nil {
		return "", err
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	out, err := sess.Output("scores")
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out)), nil
}

// writeKey writes a new ed25519 key to path (with passphrase, if any) and
// its .pub beside it, and returns it.
func writeKey(t *testing.T, path, passphrase string) ssh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "test")
	if passphrase != "" {
		block, err = ssh.MarshalPrivateKeyWithPassphrase(priv, "test", []byte(passphrase))
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+".pub", ssh.MarshalAuthorizedKey(s.PublicKey()), 0o644); err != nil {
		t.Fatal(err)
	}
	return s
}

// home makes a home directory of the test's own, with no agent.
func home(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	t.Setenv("SSH_AUTH_SOCK", "")
	return dir
}

// startAgent serves an agent holding keys on a socket of the test's own,
// and points SSH_AUTH_SOCK at it.
func startAgent(t *testing.T, keys ...any) {
	t.Helper()
	ring := agent.NewKeyring()
	for _, k := range keys {
		if err := ring.Add(agent.AddedKey{PrivateKey: k}); err != nil {
			t.Fatal(err)
		}
	}
	sock := filepath.Join(t.TempDir(), "agent.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(wg.Wait) // after the listener's close: cleanups run last first
	t.Cleanup(func() { ln.Close() })
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() {
				defer c.Close()
				_ = agent.ServeAgent(ring, c)
			})
		}
	})
	t.Setenv("SSH_AUTH_SOCK", sock)
}

func fp(s ssh.Signer) string { return ssh.FingerprintSHA256(s.PublicKey()) }

// TestHostKey: an unknown server is refused, saying what to check, and
// known_hosts is left alone; with AcceptNew it is trusted and recorded,
// and then known; a server whose key changed is refused, AcceptNew or
// not.
func TestHostKey(t *testing.T) {
	dir := home(t)
	addr, hostKey := server(t)
	known := filepath.Join(dir, ".ssh", "known_hosts")
	_, err := who(t, addr, Config{User: "ann"})
	he, ok := errors.AsType[*HostKeyError](err)
	if !ok || he.Changed || !strings.Contains(err.Error(), "is not known (ssh-ed25519 "+ssh.FingerprintSHA256(hostKey)+")") ||
		!strings.Contains(err.Error(), "-accept-new") || he.File != known {
		t.Fatalf("an unknown server: %v", err)
	}
	if _, err := os.Stat(known); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("known_hosts written for a server not trusted: %v", err)
	}
	var warned []string
	got, err := who(t, addr, Config{User: "ann", AcceptNew: true, Warn: func(s string) { warned = append(warned, s) }})
	if err != nil || got != "ann -" {
		t.Fatalf("accept-new: %q, %v", got, err)
	}
	data, _ := os.ReadFile(known)
	host := "[127.0.0.1]:" + addr[strings.LastIndex(addr, ":")+1:]
	if string(data) != host+" "+string(ssh.MarshalAuthorizedKey(hostKey)) || len(warned) != 1 || !strings.Contains(warned[0], "permanently added "+host) {
		t.Errorf("known_hosts holds %q; warned %q", data, warned)
	}
	if info, err := os.Stat(filepath.Dir(known)); err != nil || info.Mode().Perm() != 0o700 {
		t.Errorf("~/.ssh: %v, %v", info.Mode(), err)
	}
	if got, err := who(t, addr, Config{User: "ann"}); err != nil || got != "ann -" {
		t.Errorf("a known server: %q, %v", got, err)
	}

	other := writeKey(t, filepath.Join(t.TempDir(), "k"), "")
	if err := os.WriteFile(known, []byte(host+" "+string(ssh.MarshalAuthorizedKey(other.PublicKey()))), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = who(t, addr, Config{User: "ann", AcceptNew: true})
	if he, ok := errors.AsType[*HostKeyError](err); !ok || !he.Changed || !strings.Contains(err.Error(), "CHANGED") {
		t.Errorf("a changed key with accept-new: %v", err)
	}
}

// TestIdentity: the key the server sees is, by default, the agent's first,
// else the first of ~/.ssh's; -i names the only one; a key with a
// passphrase is the agent's to sign for when it holds it, else opened
// with the passphrase asked, else skipped; no key at all is no key.
func TestIdentity(t *testing.T) {
	dir := home(t)
	addr, hostKey := server(t)
	known := filepath.Join(t.TempDir(), "known_hosts")
	if err := os.WriteFile(known, []byte("[127.0.0.1]:"+addr[strings.LastIndex(addr, ":")+1:]+" "+string(ssh.MarshalAuthorizedKey(hostKey))), 0o600); err != nil {
		t.Fatal(err)
	}
	login := func(cfg Config) string {
		t.Helper()
		cfg.User, cfg.KnownHosts = "ann", known
		got, err := who(t, addr, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimPrefix(got, "ann ")
	}
	if got := login(Config{}); got != "-" {
		t.Errorf("no key anywhere: %s", got)
	}
	ed := writeKey(t, filepath.Join(dir, ".ssh", "id_ed25519"), "")
	if got := login(Config{}); got != fp(ed) {
		t.Errorf("~/.ssh/id_ed25519: %s, want %s", got, fp(ed))
	}
	_, agentKey, _ := ed25519.GenerateKey(rand.Reader)
	startAgent(t, agentKey)
	as, _ := ssh.NewSignerFromKey(agentKey)
	if got := login(Config{}); got != fp(as) {
		t.Errorf("with an agent: %s, want the agent's %s", got, fp(as))
	}
	if got := login(Config{NoAgent: true}); got != fp(ed) {
		t.Errorf("the agent left out: %s, want %s", got, fp(ed))
	}
	minePath := filepath.Join(t.TempDir(), "mine")
	mine := writeKey(t, minePath, "")
	if got := login(Config{Identities: []string{minePath}}); got != fp(mine) {
		t.Errorf("-i with an agent: %s, want that key alone, %s", got, fp(mine))
	}
	locked := filepath.Join(t.TempDir(), "locked")
	lk := writeKey(t, locked, "sesame")
	var warned []string
	if got := login(Config{Identities: []string{locked}, Passphrase: func(p string) ([]byte, error) { return []byte("sesame"), nil }}); got != fp(lk) {
		t.Errorf("a key with its passphrase: %s, want %s", got, fp(lk))
	}
	if _, err := Dial(addr, Config{User: "ann", KnownHosts: known, Identities: []string{locked}}); err == nil || !strings.Contains(err.Error(), "has a passphrase") {
		t.Errorf("-i a key with a passphrase, none to ask: %v", err)
	}
	// Among the default keys, one locked is skipped, with a warning.
	if err := os.Rename(locked, filepath.Join(dir, ".ssh", "id_ecdsa")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, ".ssh", "id_ed25519"), filepath.Join(dir, ".ssh", "id_rsa")); err != nil {
		t.Fatal(err)
	}
	if got := login(Config{NoAgent: true, Warn: func(s string) { warned = append(warned, s) }}); got != fp(ed) || len(warned) != 1 || !strings.Contains(warned[0], "id_ecdsa has a passphrase") {
		t.Errorf("a locked default key: %s (want %s), warned %q", got, fp(ed), warned)
	}
}

// TestAgentSignsLockedKey: -i a key with a passphrase that the agent
// holds: the agent signs, no passphrase asked.
func TestAgentSignsLockedKey(t *testing.T) {
	home(t)
	addr, hostKey := server(t)
	known := filepath.Join(t.TempDir(), "known_hosts")
	if err := os.WriteFile(known, []byte("[127.0.0.1]:"+addr[strings.LastIndex(addr, ":")+1:]+" "+string(ssh.MarshalAuthorizedKey(hostKey))), 0o600); err != nil {
		t.Fatal(err)
	}
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	block, _ := ssh.MarshalPrivateKeyWithPassphrase(priv, "", []byte("sesame"))
	path := filepath.Join(t.TempDir(), "id")
	signer, _ := ssh.NewSignerFromKey(priv)
	_ = os.WriteFile(path, pem.EncodeToMemory(block), 0o600)
	_ = os.WriteFile(path+".pub", ssh.MarshalAuthorizedKey(signer.PublicKey()), 0o644)
	_, other, _ := ed25519.GenerateKey(rand.Reader)
	startAgent(t, other, priv)
	got, err := who(t, addr, Config{User: "ann", KnownHosts: known, Identities: []string{path},
		Passphrase: func(string) ([]byte, error) { return nil, errors.New("asked") }})
	if err != nil || got != "ann "+fp(signer) {
		t.Errorf("%q, %v; want ann %s, signed by the agent", got, err, fp(signer))
	}
}

// TestKnownAlgorithms: a server is asked for the algorithms of the keys
// known_hosts holds for it, those that sign with RSA for an RSA key;
// nothing in particular when it holds none.
func TestKnownAlgorithms(t *testing.T) {
	t.Parallel()
	ed := servetest.NewKey(t)
	rk, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	rs, _ := ssh.NewSignerFromKey(rk)
	known := filepath.Join(t.TempDir(), "known_hosts")
	lines := "[h]:2222 " + string(ssh.MarshalAuthorizedKey(rs.PublicKey())) + "[h]:2222 " + string(ssh.MarshalAuthorizedKey(ed.PublicKey()))
	if err := os.WriteFile(known, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	_, db, err := hostKeys(Config{KnownHosts: known})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := knownAlgorithms(db, "h:2222"), []string{ssh.KeyAlgoRSASHA512, ssh.KeyAlgoRSASHA256, ssh.KeyAlgoRSA, ssh.KeyAlgoED25519}; !slices.Equal(got, want) {
		t.Errorf("algorithms for h:2222: %q, want %q", got, want)
	}
	if got := knownAlgorithms(db, "other:22"); got != nil {
		t.Errorf("algorithms for a host not known: %q", got)
	}
}
