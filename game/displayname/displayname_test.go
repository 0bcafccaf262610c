package displayname_test

import (
	"testing"

	"poolroids/game/displayname"
)

// Clean removes escapes whole and keeps only one-cell runes: the SSH user
// names of the first attacks reached the high-score table as "]0;PWNEDevil"
// and "[31mRED[0m", and a wide name shifted its row by 6 cells.
func TestClean(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"alice":                                "alice",
		"  bob  smith  ":                       "bob  smith",
		"":                                     "anonymous",
		"\x1b[2J\x1b[H":                        "anonymous",
		"\x1b[31mred\x1b[0m":                   "red",
		"\x1b]0;pwned\x07eve":                  "eve",
		"\x1b]8;;http://x\x1b\\link\x1b]8;;\a": "link",
		"\x1bcreset":                           "reset",
		"\u009b31mred":                         "red",
		"\u009d0;t\u009cok":                    "ok",
		"tab\there\r\n":                        "tabhere",
		"abc\u202edcba":                        "abcdcba", // RLO
		"\u2066iso\u2069\u200f":                "iso",
		"e\u0301t\u00e9":                       "eté", // combining acute dropped, precomposed kept
		"\u5f20\u4e09x":                        "x",   // two-cell runes
		"zero\u200bwidth":                      "zerowidth",
		"bad\xffutf8":                          "badutf8",
		"0123456789abcdefXYZ":                  "0123456789abcdef",
		"\x1b[":                                "anonymous",
		"unterminated\x1b]0;title":             "unterminated",
		"\x1b]0;PWNED\x07evil":                 "evil",
		"\x1b[31mRED\x1b[0m":                   "RED",
		"\uff37\uff29\uff24\uff25\u4e2d\u6587": "anonymous", // ＷＩＤＥ中文
	} {
		if got := displayname.Clean(in, 16); got != want {
			t.Errorf("Clean(%q, 16) = %q; want %q", in, got, want)
		}
	}
}
