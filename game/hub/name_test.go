package hub

import (
	"errors"
	"testing"
)

func TestParseName(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"a": "a", "Z9": "z9", "a-b_c": "a-b_c", "0123456789ABCDEF": "0123456789abcdef"} {
		if got, err := ParseName(in); got != want || err != nil {
			t.Errorf("ParseName(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "-a", "_a", "a b", "a.b", "\u212a", "0123456789abcdefg", "a\x00"} {
		if got, err := ParseName(in); !errors.Is(err, ErrName) {
			t.Errorf("ParseName(%q) = %q, %v; want ErrName", in, got, err)
		}
	}
}

// TestFitName checks that FitName keeps what ParseName allows, so that a
// fitted name is always one ParseName takes back unchanged.
func TestFitName(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"ann":                     "ann",
		"Ann Smith":               "annsmith",
		"_x-1":                    "x-1",
		"été":                     "t",
		"☃":                       "player",
		"a_very_long_name_indeed": "a_very_long_name",
	} {
		got := FitName(in)
		if got != want {
			t.Errorf("FitName(%q) = %q, want %q", in, got, want)
		}
		if back, err := ParseName(got); back != got || err != nil {
			t.Errorf("ParseName(FitName(%q)) = %q, %v", in, back, err)
		}
	}
}
