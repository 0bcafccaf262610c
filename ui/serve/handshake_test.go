package serve

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"
)

// A connection that never completes its handshake does not hold up
// Shutdown: before, it waited out the shutdown's whole 4 s.
func TestShutdownHalfOpenHandshake(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lb := &logBuf{}
		srv, err := New(Config{
			HostKeyPath: filepath.Join(t.TempDir(), "host_key"),
			Play:        testPlay,
			Logger:      slog.New(slog.NewTextHandler(lb, &slog.HandlerOptions{Level: slog.LevelDebug})),
		})
		if err != nil {
			t.Fatal(err)
		}
		ln := newPipeListener()
		served := make(chan error, 1)
		go func() { served <- srv.Serve(ln) }()
		client, err := ln.dial()
		if err != nil {
			t.Fatal(err)
		}
		defer client.Close()
		go io.Copy(io.Discard, client) // reads the server's version, sends nothing
		synctest.Wait()

		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v, want every connection closed", err)
		}
		if d := time.Since(start); d > 500*time.Millisecond {
			t.Errorf("Shutdown took %v with a connection in its handshake, want under 0.5 s", d)
		}
		if err := <-served; !errors.Is(err, ErrServerClosed) {
			t.Errorf("Serve returned %v, want ErrServerClosed", err)
		}
	})
}
