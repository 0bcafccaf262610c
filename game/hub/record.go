package hub

import (
	"poolroids/game"
	"poolroids/game/replay"
)

// MaxRecording bounds an arena's recording kept in memory, in bytes: many
// hours of a full arena. An arena whose recording passes it plays on
// unrecorded.
const MaxRecording = 8 << 20

// recordTable is the default Table: the world with a recorder of package
// game/replay in front, keeping the arena's game in memory from its
// opening, joins, leaves and switches included.
type recordTable struct {
	Table                  // the recorder; the world alone once the recording passed MaxRecording
	rec   *replay.Recorder // nil then
}

// newRecordTable is the default Config.NewTable. A level set the recorder
// refuses still plays, unrecorded.
func newRecordTable(cfg game.Config, _ string) (Table, error) {
	rec, err := replay.NewRecorder(cfg, replay.Options{})
	if err != nil {
		w, err := game.New(cfg)
		return WorldTable{w}, err
	}
	return &recordTable{Table: rec, rec: rec}, nil
}

func (t *recordTable) Step(in *game.Inputs) {
	t.Table.Step(in)
	if t.rec != nil && len(t.rec.Bytes()) > MaxRecording {
		t.Table, t.rec = WorldTable{t.rec.World()}, nil
	}
}

// Join names the slot's player in the recording, fitted to what a replay
// keeps.
func (t *recordTable) Join(slot int, player string) error {
	if t.rec == nil {
		return t.Table.Join(slot, player)
	}
	return t.rec.Join(slot, replay.FitName(player))
}

// Snapshot is the recording so far, ended (see replay.Recorder.Snapshot).
func (t *recordTable) Snapshot() []byte {
	if t.rec == nil {
		return nil
	}
	return t.rec.Snapshot()
}

func (t *recordTable) Close() error {
	if t.rec == nil {
		return nil
	}
	return t.rec.Close()
}

// Recording returns the arena's game from its opening to this step as a
// replay file (package game/replay), ended so that it replays and checks
// to here: a copy, the caller's, costing a copy of the bytes. It is nil
// when the arena's table keeps no recording in memory (see
// Config.NewTable). Call it inside [Arena.View] only: the step waits.
func (a *Arena) Recording() []byte {
	if r, ok := a.table.(interface{ Snapshot() []byte }); ok {
		return r.Snapshot()
	}
	return nil
}
