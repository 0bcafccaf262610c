package levels_test

import (
	"fmt"
	"testing/fstest"

	"poolroids/levels"
)

// A level set of one's own: set.toml and one file per level, in a
// directory of any file system (LoadDir reads one on disk).
func ExampleLoadFS() {
	fsys := fstest.MapFS{
		"mine/set.toml": {Data: []byte(`
name = "Mine"

[pools]
bullets = 32
debris = 512
strategy = "bitset"
`)},
		"mine/01-warm-up.toml": {Data: []byte(`
name = "Warm-up"
asteroids = 3
size = 3
speed_min = 20
speed_max = 40
fire_cooldown = 10
bullet_speed = 600
bullet_life = 60
bullets_per_shot = 1
debris_per_break = 16
debris_life_min = 20
debris_life_max = 40
`)},
	}
	s, err := levels.LoadFS(fsys, "mine")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Name, s.Bullets, s.Debris, s.Strategy)
	for n := range 3 {
		l := s.Level(n)
		fmt.Printf("wave %d: %s, %d asteroids at %g..%g, saucer %v\n", n+1, l.Name, l.Asteroids, l.SpeedMin, l.SpeedMax, l.Saucer)
	}
	// Output:
	// Mine 32 512 bitset
	// wave 1: Warm-up, 3 asteroids at 20..40, saucer false
	// wave 2: Warm-up, 4 asteroids at 20.8..41.6, saucer true
	// wave 3: Warm-up, 4 asteroids at 21.6..43.2, saucer true
}

// A bad file is refused with the file, the line, the field and what is
// allowed.
func ExampleFieldError() {
	fsys := fstest.MapFS{
		"mine/set.toml": {Data: []byte("name = \"Mine\"\n\n[pools]\nbullets = 32\ndebris = 512\nstrategy = \"fastest\"\n")},
	}
	_, err := levels.LoadFS(fsys, "mine")
	fmt.Println(err)
	// Output:
	// mine/set.toml:6: field "pools.strategy": "fastest" is not a strategy, allowed one of alloc, syncpool, listremove, activelist, scan, queue, freelist, offsets, bitset, dense
}

func ExampleDefault() {
	s := levels.Default()
	fmt.Println(s.Name, s.Bullets, s.Shots, s.Debris, s.Strategy)
	for _, l := range s.Levels {
		fmt.Printf("%-13s %2d asteroids at %3.0f..%3.0f, %3d debris a break\n", l.Name, l.Asteroids, l.SpeedMin, l.SpeedMax, l.DebrisPerBreak)
	}
	// Output:
	// Classic 32 4 1024 freelist
	// First contact  4 asteroids at  20.. 50,  16 debris a break
	// Drift          6 asteroids at  24.. 58,  24 debris a break
	// Crossfire      8 asteroids at  28.. 66,  32 debris a break
	// Swarm         10 asteroids at  32.. 74,  48 debris a break
	// Meteor storm  12 asteroids at  36.. 82,  64 debris a break
	// Debris field  14 asteroids at  40.. 90,  96 debris a break
	// Rubble        16 asteroids at  44.. 98, 128 debris a break
}
