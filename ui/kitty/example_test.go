package kitty_test

import (
	"fmt"
	"log"
	"os"

	"github.com/gdamore/tcell/v2"

	"poolroids/ui/kitty"
)

// Wiring a local game: the screen reads through the filter, the game loop
// reads the keys.
func ExampleNewTty() {
	inner, err := tcell.NewDevTty()
	if err != nil {
		log.Fatal(err)
	}
	tty := kitty.NewTty(inner)
	ti, err := tcell.LookupTerminfo(os.Getenv("TERM"))
	if err != nil {
		log.Fatal(err)
	}
	screen, err := kitty.NewScreen(tty, ti)
	if err != nil {
		log.Fatal(err)
	}
	if err := screen.Init(); err != nil {
		log.Fatal(err)
	}
	defer screen.Fini() // switches the protocol off again

	keys := tty.Keys()
	// Each game step:
	if keys.Active() {
		held := keys.Poll() // held now, or tapped since the last step
		fmt.Println(held.Has(kitty.Left), held.Has(kitty.Fire))
	}
}

// Without a kitty terminal there may be no Keys at all; a nil *Keys reads
// as inactive, so one check chooses the input mode.
func ExampleKeys_Active() {
	var keys *kitty.Keys
	if keys.Active() {
		fmt.Println("held-key mode")
	} else {
		fmt.Println("press-only mode")
	}
	// Output: press-only mode
}
