package ui

import (
	"context"

	"github.com/gdamore/tcell/v2"

	"poolroids/game/play"
	"poolroids/ui/kitty"
)

// The sessions on a Screen: a browser's (package ui/web), or the
// terminal NewTerminal makes of a tcell screen. They play as Run, Watch,
// RunReplay and PlayLobby do on a terminal, on scr's cells and events,
// on one loop for the connection. scr is not finalised: it is its
// owner's, and a browser's may show one connection's sessions after
// another.

// NewTerminal is the Screen of a terminal, screen, not yet initialised,
// with the kitty filter's held keys in front of it (nil: none): the
// first session on it initialises it, and none finalises it (its owner
// does, as a server does its SSH sessions' screens). It serves one
// connection.
func NewTerminal(screen tcell.Screen, keys *kitty.Keys) Screen { return newTerminal(screen, keys) }

// RunOn is [Run] on scr.
func RunOn(ctx context.Context, scr Screen, opts Options) (Result, error) {
	return runOn(ctx, scr, opts)
}

// WatchOn is [Watch] on scr.
func WatchOn(ctx context.Context, scr Screen, w *play.Watcher, opts Options) (Result, error) {
	return watchOn(ctx, scr, w, opts)
}

// RunReplayOn is [RunReplay] on scr.
func RunReplayOn(ctx context.Context, scr Screen, data []byte, opts Options) (Result, error) {
	return replayOn(ctx, scr, data, opts)
}

// PlayLobbyOn is [PlayLobby] on scr.
func PlayLobbyOn(ctx context.Context, scr Screen, lo LobbyOptions) (Result, error) {
	return playLobby(ctx, scr, lo)
}
