package serve

import (
	"bytes"
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
