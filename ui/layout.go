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
	// or Esc gives back as it leaves the list; formFull: none.
	restore form
	// list: the strategy list shows under the compact panel, where the
	// full one would shrink the field (see session.openList).
	list bool
}

// listMin is the strategies the full panel shows at least.
const listMin = 5

// autoForm is the form for a w×h screen: the richest one that leaves the
// field at least four fifths of the rows it would have without a panel
// (the full form also needs the height to list listMin strategies). On a
// short screen the field is as wide as the height allows, so the compact
// panel takes only columns the field could not use.
func autoForm(w, h int) form {
	most := fieldRows(w, h, formHidden)
	switch {
	case 5*fieldRows(w, h, formFull) >= 4*most && h-1 >= panelHeight+listMin+2:
		return formFull
	case 5*fieldRows(w, h, formCompact) >= 4*most:
		return formCompact
	}
	return formHidden
}

// fieldRows is how many rows the field has on a w×h screen beside the
// panel in form f.
func fieldRows(w, h int, f form) int {
	_, fh := fieldSize(w-f.width()-2, h-1-2) // the help line, the arena's border
	return fh
}

// nextForm is the form v changes f to on a w×h screen: the next one
// that leaves the field at least the rows the screen's own form does, so
// that v never shrinks the field mid-game (at 80×24, the full panel
// would).
func nextForm(f form, w, h int) form {
	least := fieldRows(w, h, autoForm(w, h))
	for range numForms {
		if f = (f + 1) % numForms; fieldRows(w, h, f) >= least {
			break
		}
	}
	return f
}
