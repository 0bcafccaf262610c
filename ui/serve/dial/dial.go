// Package dial logs in to a poolroids server as OpenSSH's ssh would, for
// the commands that talk to one (poolroids post): with the keys of the
// user's ssh-agent, or of their ~/.ssh, and the server's key checked
// against ~/.ssh/known_hosts.
//
// # Who you are
//
// A server knows a player by the key they log in with, and ranks their
// games under it: the key is the identity, the name only its label. So
// [Config].Identities, when given, are the only keys offered, as ssh -i
// FILE -o IdentitiesOnly=yes does; else the agent's keys come first (the
// one ssh would use), then ~/.ssh/id_ed25519, id_ecdsa and id_rsa. A key
// file with a passphrase is signed for by the agent when it holds the
// key (found by the FILE.pub beside it), else after asking for the
// passphrase ([Config].Passphrase), else skipped with a warning. With no
// key at all the login has none, which a server open to all takes: the
// name alone is then the player, and anyone may type it.
//
// # Whom you talk to
//
// The server's host key must be the one known_hosts names for its
// address ([HostKeyError] otherwise, which says what to check): an
// unknown one is trusted and recorded only given [Config].AcceptNew, as
// ssh -o StrictHostKeyChecking=accept-new does, and a changed one never.
// When known_hosts names keys for the address, only their algorithms are
// asked of the server, so that a server with keys of several types shows
// the one recorded.
package dial

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
	"golang.org/x/crypto/ssh/knownhosts"
)

// Config says how to log in.
type Config struct {
	// User is the user name to log in as: the player's name.
	User string
	// Identities are private key files to log in with, the only keys
	// offered; nil: the agent's, then ~/.ssh's default keys.
	Identities []string
	// NoAgent leaves the agent (SSH_AUTH_SOCK) out.
	NoAgent bool
	// KnownHosts is the known_hosts file; "": ~/.ssh/known_hosts.
	KnownHosts string
	// AcceptNew trusts a server whose address known_hosts does not know,
	// and records its key there.
	AcceptNew bool
	// Passphrase asks for the passphrase of the key file path; nil: such
	// a key is skipped.
	Passphrase func(path string) ([]byte, error)
	// Warn is told what a user of ssh would see as a warning: a key
	// skipped, a host key recorded (nil: nothing).
	Warn func(string)
	// Timeout bounds the connection and the login (0: 15 s).
	Timeout time.Duration
}

// HostKeyError is Dial's error when the server's key is not one
// known_hosts trusts for its address.
type HostKeyError struct {
	Host    string        // the address, as known_hosts writes it: [127.0.0.1]:2222
	Key     ssh.PublicKey // the key the server showed
	File    string        // the known_hosts file
	Changed bool          // known_hosts names another key for the address: perhaps an impostor
}

func (e *HostKeyError) Error() string {
	fp := e.Key.Type() + " " + ssh.FingerprintSHA256(e.Key)
	if e.Changed {
		return fmt.Sprintf("the host key of %s has CHANGED (%s is not the one %s names): someone may be posing as the server; "+
			"if the server's key really changed (its log says host_key=…), remove its line from %s", e.Host, fp, e.File, e.File)
	}
	return fmt.Sprintf("the host key of %s is not known (%s): check it against the server's (its log says host_key=…), "+
		"then try again with -accept-new to trust it and record it in %s", e.Host, fp, e.File)
}

// Dial connects to the server at addr (host:port) and logs in by cfg.
func Dial(addr string, cfg Config) (*ssh.Client, error) {
	home, _ := os.UserHomeDir()
	if cfg.KnownHosts == "" {
		if home == "" {
			return nil, errors.New("no home directory for ~/.ssh/known_hosts: name a known_hosts file")
		}
		cfg.KnownHosts = filepath.Join(home, ".ssh", "known_hosts")
	}
	check, db, err := hostKeys(cfg)
	if err != nil {
		return nil, err
	}
	var ag agent.ExtendedAgent
	if sock := os.Getenv("SSH_AUTH_SOCK"); sock != "" && !cfg.NoAgent {
		conn, err := net.Dial("unix", sock)
		if err != nil {
			warn(cfg, fmt.Sprintf("the agent at SSH_AUTH_SOCK=%s does not answer: %v", sock, err))
		} else {
			defer conn.Close()
			ag = agent.NewClient(conn)
		}
	}
	signers, err := keys(cfg, home, ag)
	if err != nil {
		return nil, err
	}
	auth := []ssh.AuthMethod{ssh.PublicKeys(signers...),
		// No key: a server open to all asks no questions.
		ssh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })}
	if len(signers) == 0 {
		auth = auth[1:]
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = 15 * time.Second
	}
	return ssh.Dial("tcp", addr, &ssh.ClientConfig{
		User: cfg.User, Auth: auth, HostKeyCallback: check,
		HostKeyAlgorithms: knownAlgorithms(db, addr), Timeout: timeout,
	})
}

func warn(cfg Config, msg string) {
	if cfg.Warn != nil {
		cfg.Warn(msg)
	}
}

// hostKeys returns the check of a server's key against cfg.KnownHosts,
// and the known_hosts lines themselves.
func hostKeys(cfg Config) (check ssh.HostKeyCallback, db ssh.HostKeyCallback, err error) {
	var files []string
	if _, err := os.Stat(cfg.KnownHosts); err == nil {
		files = append(files, cfg.KnownHosts)
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, nil, err
	}
	if db, err = knownhosts.New(files...); err != nil {
		return nil, nil, err
	}
	return func(host string, remote net.Addr, key ssh.PublicKey) error {
		err := db(host, remote, key)
		var ke *knownhosts.KeyError
		if !errors.As(err, &ke) {
			return err // nil, or a revoked key
		}
		he := &HostKeyError{Host: knownhosts.Normalize(host), Key: key, File: cfg.KnownHosts, Changed: len(ke.Want) > 0}
		if he.Changed || !cfg.AcceptNew {
			return he
		}
		if err := record(cfg.KnownHosts, knownhosts.Line([]string{he.Host}, key)); err != nil {
			return fmt.Errorf("recording the host key of %s in %s: %w", he.Host, cfg.KnownHosts, err)
		}
		warn(cfg, fmt.Sprintf("permanently added %s (%s %s) to %s", he.Host, key.Type(), ssh.FingerprintSHA256(key), cfg.KnownHosts))
		return nil
	}, db, nil
}

// record appends line to the known_hosts file path, making it (0600) and
// its directory (0700) as ssh does.
func record(path, line string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(line + "\n"); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// unknownKey is a key no known_hosts line holds: checked against it, a
// host's line tells which keys are known for it.
var unknownKey = func() ssh.PublicKey {
	k, err := ssh.NewPublicKey(ed25519.PublicKey(make([]byte, ed25519.PublicKeySize)))
	if err != nil {
		panic(err)
	}
	return k
}()

// knownAlgorithms returns the host key algorithms of the keys db, the
// known_hosts lines, knows for addr, to ask of the server; nil (any) when
// it knows none.
func knownAlgorithms(db ssh.HostKeyCallback, addr string) []string {
	var ke *knownhosts.KeyError
	if err := db(addr, &net.TCPAddr{IP: net.IPv4zero}, unknownKey); !errors.As(err, &ke) {
		return nil
	}
	var algs []string
	for _, k := range ke.Want {
		for _, a := range algorithmsOf(k.Key.Type()) {
			if !slices.Contains(algs, a) {
				algs = append(algs, a)
			}
		}
	}
	return algs
}

// keys returns the signers to log in with.
func keys(cfg Config, home string, ag agent.ExtendedAgent) ([]ssh.Signer, error) {
	var agentKeys []ssh.Signer
	if ag != nil {
		var err error
		if agentKeys, err = ag.Signers(); err != nil {
			warn(cfg, "the agent's keys cannot be listed: "+err.Error())
		}
	}
	files := cfg.Identities
	var signers []ssh.Signer
	if files == nil {
		signers = agentKeys
		if home != "" {
			for _, name := range []string{"id_ed25519", "id_ecdsa", "id_rsa"} {
				if p := filepath.Join(home, ".ssh", name); exists(p) {
					files = append(files, p)
				}
			}
		}
	}
	for _, path := range files {
		s, err := keyFile(cfg, path, agentKeys)
		if err != nil {
			if cfg.Identities != nil {
				return nil, err
			}
			warn(cfg, err.Error()+": skipped")
			continue
		}
		if s != nil && !slices.ContainsFunc(signers, func(o ssh.Signer) bool {
			return bytes.Equal(o.PublicKey().Marshal(), s.PublicKey().Marshal())
		}) {
			signers = append(signers, s)
		}
	}
	return signers, nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// keyFile reads the private key file path. One with a passphrase is the
// agent's to sign for if it holds it (by path.pub), else is opened with
// the passphrase Config.Passphrase gives; nil and no error: skipped.
func keyFile(cfg Config, path string, agentKeys []ssh.Signer) (ssh.Signer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("key %s: %w", path, err)
	}
	s, err := ssh.ParsePrivateKey(data)
	if _, locked := errors.AsType[*ssh.PassphraseMissingError](err); !locked {
		if err != nil {
			return nil, fmt.Errorf("key %s: %w", path, err)
		}
		return s, nil
	}
	if pub, err := os.ReadFile(path + ".pub"); err == nil {
		if k, _, _, _, err := ssh.ParseAuthorizedKey(pub); err == nil {
			for _, a := range agentKeys {
				if bytes.Equal(a.PublicKey().Marshal(), k.Marshal()) {
					return a, nil
				}
			}
		}
	}
	if cfg.Passphrase == nil {
		return nil, fmt.Errorf("key %s has a passphrase, and there is no terminal to ask it on", path)
	}
	pass, err := cfg.Passphrase(path)
	if err != nil {
		return nil, fmt.Errorf("key %s: %w", path, err)
	}
	s, err = ssh.ParsePrivateKeyWithPassphrase(data, pass)
	if err != nil {
		return nil, fmt.Errorf("key %s: %w", path, err)
	}
	return s, nil
}

// algorithmsOf are the host key algorithms that show a key of type t.
func algorithmsOf(t string) []string {
	if t == ssh.KeyAlgoRSA {
		return []string{ssh.KeyAlgoRSASHA512, ssh.KeyAlgoRSASHA256, ssh.KeyAlgoRSA}
	}
	return []string{t}
}
