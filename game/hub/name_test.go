package hub

import (
	"errors"
	"fmt"
	"strings"
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

func TestUniqueName(t *testing.T) {
	t.Parallel()
	set := func(names ...string) func(string) bool {
		return func(s string) bool {
			for _, n := range names {
				if n == s {
					return true
				}
			}
			return false
		}
	}
	for _, tt := range []struct {
		name  string
		taken []string
		want  string
	}{
		{"bob", nil, "bob"},
		{"bob", []string{"bob"}, "bob-2"},
		{"bob", []string{"bob", "bob-2", "bob-3"}, "bob-4"},
		{"0123456789abcdef", []string{"0123456789abcdef"}, "0123456789abcd-2"},
		{"éééééééééééééééé", []string{"éééééééééééééééé"}, strings.Repeat("é", 14) + "-2"},
	} {
		if got := UniqueName(tt.name, set(tt.taken...)); got != tt.want {
			t.Errorf("UniqueName(%q, %q) = %q; want %q", tt.name, tt.taken, got, tt.want)
		}
	}
	// Ten taken names force a two-digit suffix, which shortens the base.
	taken := []string{"0123456789abcdef"}
	for i := 2; i <= 9; i++ {
		taken = append(taken, fmt.Sprintf("0123456789abcd-%d", i))
	}
	if got, want := UniqueName("0123456789abcdef", set(taken...)), "0123456789abc-10"; got != want {
		t.Errorf("UniqueName with 9 taken = %q; want %q", got, want)
	}
}
