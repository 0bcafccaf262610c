package ui

import (
	"context"

	"poolroids/game/play"
)

// The sessions on a Screen of another package's (a browser's, package
// ui/web's): they play as Run, Watch, RunReplay and PlayLobby do on a
// terminal, on scr's cells and events. scr is neither started nor
// finalised: it is its owner's, and may show one session after another.

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
