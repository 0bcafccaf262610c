package replay

import (
	"errors"
	"fmt"

	"poolroids/game"
	"poolroids/pool"
)

// The solo World until the multi-ship one (API.md) is merged: one slot,
// co-op. These few functions are the only place that knows.

const maxShips = 16

type mode uint8

const maxMode = 1

type inputs = [maxShips]game.Input

func setShips(c *game.Config, ships int, m mode) {}

func stepAll(w *game.World, in *inputs) { w.Step(in[0]) }

func join(w *game.World, slot int) error {
	return errors.New("game: this build plays one ship only")
}

func leave(w *game.World, slot int) {}

func setStrategies(w *game.World, bullets, debris pool.Strategy) error {
	if bullets != "" {
		if err := w.Bullets().SetStrategy(bullets); err != nil {
			return fmt.Errorf("game: %w", err)
		}
	}
	if debris != "" {
		if err := w.Debris().SetStrategy(debris); err != nil {
			return fmt.Errorf("game: %w", err)
		}
	}
	return nil
}

// shipsOf returns the slots and mode of a Config as New reads them.
func shipsOf(c game.Config) (int, mode) { return 1, 0 }
