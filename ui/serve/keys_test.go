package serve

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
)

func TestHostKey(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "new", "dir", "host_key")
	first, err := LoadOrCreateHostKey(path)
	if err != nil {
		t.Fatal(err)
	}
	if typ := first.PublicKey().Type(); typ != ssh.KeyAlgoED25519 {
		t.Errorf("generated a %s key, want ed25519", typ)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if mode := fi.Mode().Perm(); mode != 0o600 {
		t.Errorf("key file mode %v, want 0600", mode)
	}
	again, err := LoadOrCreateHostKey(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first.PublicKey().Marshal(), again.PublicKey().Marshal()) {
		t.Error("second start made a new host key")
	}

	tests := []struct {
		name  string
		setup func(path string) error
		want  string
	}{
		{"malformed", func(p string) error { return os.WriteFile(p, []byte("not a key\n"), 0o600) }, "not a usable private key"},
		{"empty", func(p string) error { return os.WriteFile(p, nil, 0o600) }, "not a usable private key"},
		{"unreadable", func(p string) error { return os.Mkdir(p, 0o700) }, "cannot be read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "host_key")
			if err := tt.setup(p); err != nil {
				t.Fatal(err)
			}
			before, _ := os.ReadFile(p)
			if _, err := LoadOrCreateHostKey(p); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one saying %q", err, tt.want)
			}
			if after, _ := os.ReadFile(p); !bytes.Equal(before, after) {
				t.Error("the bad key file was replaced")
			}
			if _, err := New(Config{HostKeyPath: p, Play: testPlay}); err == nil {
				t.Error("New started with a bad host key")
			}
		})
	}
}

// writeKey writes key to a new file in OpenSSH format, mode 0600, and
// returns its path.
func writeKey(t *testing.T, key crypto.PrivateKey) string {
	t.Helper()
	block, err := ssh.MarshalPrivateKey(key, "test")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "host_key")
	if err := os.WriteFile(p, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// A weak host key is refused, saying which are allowed, and not replaced;
// an RSA-1024 key used to be accepted silently.
func TestHostKeyStrength(t *testing.T) {
	t.Parallel()
	rsaKey := func(bits int) crypto.PrivateKey {
		k, err := rsa.GenerateKey(rand.Reader, bits)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	_, ed, _ := ed25519.GenerateKey(rand.Reader)
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		key  crypto.PrivateKey
		want string // "" when the key is accepted
	}{
		{"ed25519", ed, ""},
		{"ecdsa", ec, ""},
		{"rsa-2048", rsaKey(2048), ""},
		{"rsa-1024", rsaKey(1024), "is a 1024-bit RSA key, too weak: allowed are ed25519, ECDSA, and RSA of 2048 bits or more"},
	} {
		p := writeKey(t, tc.key)
		before, _ := os.ReadFile(p)
		_, err := LoadOrCreateHostKey(p)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v, want it accepted", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
		if after, _ := os.ReadFile(p); !bytes.Equal(before, after) {
			t.Errorf("%s: the key file was replaced", tc.name)
		}
	}
}

func TestAuthorizedKeysFile(t *testing.T) {
	a, b := newKey(t), newKey(t)
	line := func(k ssh.Signer) string { return string(ssh.MarshalAuthorizedKey(k.PublicKey())) }
	tests := []struct {
		name    string
		content string
		keys    int
		err     string
	}{
		{"two keys, comments, options", "# team\n\n" + line(a) + `no-pty,command="x" ` + line(b), 2, ""},
		{"bad line", line(a) + "ssh-ed25519 AAAAnotbase64\n", 0, ":2: not a public key"},
		{"no keys", "# nobody\n\n", 0, "no keys"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "authorized_keys")
			if err := os.WriteFile(p, []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
			keys, err := LoadAuthorizedKeys(p)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("err = %v, want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil || len(keys) != tt.keys {
				t.Errorf("got %d keys, %v; want %d", len(keys), err, tt.keys)
			}
		})
	}
	if _, err := LoadAuthorizedKeys(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("a missing authorized keys file is not an error")
	}
}
