package hub_test

import (
	"fmt"

	"poolroids/game/hub"
)

// The names arenas and watched games go by: ParseName checks one a player
// typed, FitName makes one from a player's name.
func ExampleParseName() {
	for _, typed := range []string{"Den", "-den", "my den"} {
		name, err := hub.ParseName(typed)
		fmt.Printf("%q: %q %v\n", typed, name, err)
	}
	fmt.Println(hub.FitName("Ann Smith"), hub.FitName("☃"))
	// Output:
	// "Den": "den" <nil>
	// "-den": "" names are 1 to 16 of a-z 0-9 - _, the first a letter or digit
	// "my den": "" names are 1 to 16 of a-z 0-9 - _, the first a letter or digit
	// annsmith player
}
