package serve

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"

	"golang.org/x/crypto/ssh"

	"poolroids/levels/regfile"
)

// DefaultHostKeyPath is where the host key lives unless told otherwise:
// os.UserConfigDir()/poolroids/ssh_host_ed25519_key.
func DefaultHostKeyPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("host key: no config directory: %w", err)
	}
	return filepath.Join(dir, "poolroids", "ssh_host_ed25519_key"), nil
}

// Bounds of what is read of a key file: an OpenSSH private key of the
// largest RSA size is under 13 KiB, a public key line under 3 KiB.
const (
	maxHostKey        = 64 << 10
	maxAuthorizedKeys = 4 << 20
)

// LoadOrCreateHostKey returns the host key stored at path. If there is no
// file there it generates an ed25519 key and writes it (mode 0600, in
// OpenSSH format; the directory is created 0700), so players see the same
// host key on every start. A file that exists but cannot be read or parsed
// is an error, never a reason to make a new key: that would tell every
// player's ssh the server had been impersonated. So are a path that names
// no regular file (a named pipe would block the start for ever), a file
// over 64 KiB, and a weak key: allowed are ed25519, ECDSA, and RSA of 2048
// bits or more.
func LoadOrCreateHostKey(path string) (ssh.Signer, error) {
	data, err := regfile.Read(path, maxHostKey)
	if err == nil {
		signer, err := ssh.ParsePrivateKey(data)
		if err != nil {
			return nil, fmt.Errorf("host key %s is not a usable private key (%v); fix or remove it", path, err)
		}
		if err := checkHostKey(signer.PublicKey()); err != nil {
			return nil, fmt.Errorf("host key %s %w; replace it, or remove it and a new ed25519 key is made", path, err)
		}
		return signer, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("host key cannot be read: %w", err) // err names path
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "poolroids host key")
	if err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	if err := writeNew(path, pem.EncodeToMemory(block)); err != nil {
		return nil, fmt.Errorf("host key %s cannot be written: %w", path, err)
	}
	return ssh.NewSignerFromKey(priv)
}

// LoadFleetKey loads or creates a fleet's key (Config.FleetKey) as
// LoadOrCreateHostKey does, and warns on log when others than its owner
// may read the file: whoever read it can pose as any server of the fleet,
// and relay as any player.
func LoadFleetKey(path string, log *slog.Logger) (ssh.Signer, error) {
	key, err := LoadOrCreateHostKey(path)
	if err == nil {
		warnOpenKey(log, path, "fleet key open to others: whoever read it can pose as any server of the fleet and relay as any player; chmod 600 it, and make a new one if it was copied")
	}
	return key, err
}

// warnOpenKey logs msg when the private key file at path is open to
// others (see openKeyMode).
func warnOpenKey(log *slog.Logger, path, msg string) {
	if mode := openKeyMode(path); mode != 0 {
		log.Warn(msg, "path", path, "mode", fmt.Sprintf("%04o", uint32(mode)))
	}
}

// openKeyMode returns the permissions of the private key file at path if
// they let others than its owner at it, else 0; always 0 where files have
// no such bits (Windows). sshd refuses such a host key; the server warns,
// as the key still works, but anyone who could read it may have copied it
// to pose as the server.
func openKeyMode(path string) fs.FileMode {
	info, err := os.Stat(path)
	if err != nil || runtime.GOOS == "windows" || info.Mode().Perm()&0o077 == 0 {
		return 0
	}
	return info.Mode().Perm()
}

// minRSABits is the smallest RSA host key accepted: NIST has disallowed
// shorter ones since 2013, and OpenSSH's ssh-keygen makes 3072 by default.
const minRSABits = 2048

// checkHostKey refuses a host key too weak to keep players safe from an
// impersonator: DSA, and RSA under minRSABits. Allowed are ed25519 (what
// the server makes), ECDSA, and RSA of 2048 bits or more.
func checkHostKey(key ssh.PublicKey) error {
	switch key.Type() {
	case ssh.KeyAlgoED25519, ssh.KeyAlgoECDSA256, ssh.KeyAlgoECDSA384, ssh.KeyAlgoECDSA521:
		return nil
	case ssh.KeyAlgoRSA:
		ck, ok := key.(ssh.CryptoPublicKey)
		if !ok {
			break
		}
		if rk, ok := ck.CryptoPublicKey().(*rsa.PublicKey); ok {
			if bits := rk.N.BitLen(); bits < minRSABits {
				return fmt.Errorf("is a %d-bit RSA key, too weak: %s", bits, allowedHostKeys)
			}
			return nil
		}
	}
	return fmt.Errorf("is a %s key, too weak or not for a host: %s", key.Type(), allowedHostKeys)
}

// allowedHostKeys ends checkHostKey's errors.
const allowedHostKeys = "allowed are ed25519, ECDSA, and RSA of 2048 bits or more"

// writeNew writes a new file that must not exist yet: if another process
// created the key first, that key wins and this one is dropped (the caller
// errs, and the next start loads the winner).
func writeNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	return f.Close()
}

// LoadAuthorizedKeys reads an OpenSSH authorized_keys file into a set of
// keys (options such as command= are ignored: there is nothing else to
// run). Blank lines and # comments are skipped; a line that is not a public
// key is an error naming the line. So are a file with no key at all,
// which would let nobody in, a path that names no regular file, and a file
// over 4 MiB.
func LoadAuthorizedKeys(path string) (map[string]bool, error) {
	data, err := regfile.Read(path, maxAuthorizedKeys)
	if err != nil {
		return nil, fmt.Errorf("authorized keys: %w", err)
	}
	keys := make(map[string]bool)
	for n, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		key, _, _, _, err := ssh.ParseAuthorizedKey(line)
		if err != nil {
			return nil, fmt.Errorf("authorized keys %s:%d: not a public key (%v)", path, n+1, err)
		}
		keys[string(key.Marshal())] = true
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("authorized keys %s: no keys in the file, nobody could log in", path)
	}
	return keys, nil
}
