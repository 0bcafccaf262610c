package ui

import (
	"github.com/rivo/tview"
)

// fit is how the session fits its screen. It is touched only on the
// loop's goroutine.
type fit struct {
	body, side *tview.Flex
	form       form
	w, h       int  // the screen size form was chosen for
	players    int  // the players the players box was sized for
	small      bool // the screen is smaller than minWidth×minHeight
	help       bool // the key help is up
	// restore is the form Tab left to show the strategy list, which Tab
	// gives back as it leaves the list; formFull: none.
	restore form
}

// listMin is the strategies the full panel shows at least.
const listMin = 5

// autoForm is the form for a w×h screen: the richest one that leaves the
// field at least four fifths of the rows it would have without a panel
// (the full form also needs the height to list listMin strategies). On a
// short screen the field is as wide as the height allows, so the compact
// panel takes only columns the field could not use.
func autoForm(w, h int) form {
	rows := func(f form) int {
		_, fh := fieldSize(w-f.width()-2, h-1-2) // the help line, the arena's border
		return fh
	}
	most := rows(formHidden)
	switch {
	case 5*rows(formFull) >= 4*most && h-1 >= panelHeight+listMin+2:
		return formFull
	case 5*rows(formCompact) >= 4*most:
		return formCompact
	}
	return formHidden
}
