package game

// The rules tests predate slots and speak of the solo game's ship: these
// helpers are slot 0's side of the multi-ship World.

// killShip destroys slot 0's ship, downed by no player.
func (w *World) killShip() { w.kill(0, NoSlot) }

// shoot fires one bullet as slot 0 (or, hostile, as the saucer).
func (w *World) shoot(pos, vel Vec, life int, hostile bool) { w.launch(0, pos, vel, life, hostile) }
