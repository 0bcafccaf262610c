// Package servetest starts a poolroids SSH server on loopback for the
// tests of what talks to one, as httptest starts an HTTP server, and makes
// players' keys.
package servetest

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"log/slog"
	"net"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"poolroids/ui/serve"
)

// Start starts a server of cfg on 127.0.0.1:0, shut down when tb ends,
// and returns its address and host key. Left unset in cfg: a host key of
// the test's own, no limit on connections a minute (tests connect far
// faster than players), a log discarded.
func Start(tb testing.TB, cfg serve.Config) (addr string, hostKey ssh.PublicKey) {
	tb.Helper()
	if cfg.HostKeyPath == "" {
		cfg.HostKeyPath = filepath.Join(tb.TempDir(), "host_key")
	}
	if cfg.ConnPerMinute == 0 {
		cfg.ConnPerMinute = -1
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	srv, err := serve.New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	hk, err := serve.LoadOrCreateHostKey(cfg.HostKeyPath)
	if err != nil {
		tb.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	return ln.Addr().String(), hk.PublicKey()
}

// NewKey returns a new ed25519 key, a player's.
func NewKey(tb testing.TB) ssh.Signer {
	tb.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}
