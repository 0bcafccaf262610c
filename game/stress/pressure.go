package stress

import (
	"embed"
	"sync"

	"poolroids/levels"
)

// pressureFiles is the stress mode's level set, in the format of the
// levels package: pressure/set.toml and one file per level.
//
//go:embed pressure/*.toml
var pressureFiles embed.FS

var pressure = sync.OnceValues(func() (*levels.Set, error) { return levels.LoadFS(pressureFiles, "pressure") })

// Pressure returns the built-in level set of the stress mode: dense waves,
// a wide volley every step and large debris bursts, so both pools run full.
// Each call returns a fresh copy the caller may change. It panics only if
// the embedded files are broken, which the package's tests rule out.
func Pressure() *levels.Set {
	s, err := pressure()
	if err != nil {
		panic("stress: the embedded pressure set is broken: " + err.Error())
	}
	c := *s
	c.Levels = append([]levels.Level(nil), s.Levels...)
	return &c
}
