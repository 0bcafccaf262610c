package serve

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// pipeListener accepts the server ends of net.Pipes, so that a server runs
// inside a synctest bubble, on its fake clock.
type pipeListener struct {
	conns chan net.Conn
	once  sync.Once
	done  chan struct{}
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

// dial connects a client end to the listener.
func (l *pipeListener) dial() net.Conn {
	client, server := net.Pipe()
	l.conns <- server
	return client
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return &net.UnixAddr{Name: "pipe", Net: "pipe"} }

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
		client := ln.dial()
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
