package ui

import (
	"math"
	"strconv"
)

// ReportsView is the Reports page (docs/reports.md): the range and location form, and the
// figures, every text already in the reader's language, money in the business's currency.
type ReportsView struct {
	Filter    *Form
	Presets   []Option
	Locations []Option
	// Shown is false when the form has an error: nothing else is drawn.
	Shown              bool
	Period, Previous   string // "1 Sept 2026 – 30 Sept 2026"
	Cards              []ReportCard
	Revenue            ReportChart
	ByService          []ReportLine
	ByProvider         []ReportLine
	ByMethod           []ReportLine
	Outcomes           ReportChart
	Utilisation        ReportChart
	UtilisationRows    []ReportUtilRow
	TopServices        []ReportLine
	ServiceChart       ReportChart
	NoData, NoBookings bool
}

// ReportCard is one headline figure: its value now, before, and the change.
type ReportCard struct {
	Key, Label, Value, Before, Change string
	Trend                             string // "up", "down" or "" (no change, or nothing to compare)
}

// ReportLine is a named figure with its value in the previous period and the change.
type ReportLine struct {
	Name, Value, Before, Change string
}

// ReportUtilRow is one provider at one location: booked and working time and the rate.
type ReportUtilRow struct {
	Location, Provider, Booked, Working, Rate string
}

// ReportChart is a chart drawn as SVG, with the title and description screen readers read and
// the same figures as a table.
type ReportChart struct {
	ID, Title, Desc      string
	LabelHead, ValueHead string // the table's column heads
	Bars                 []ReportBar
	// Horizontal: one bar per row with its label above (categories); else columns over time.
	Horizontal bool
	// Scale is the value a full bar stands for (0: the largest value).
	Scale int64
}

// ReportBar is one bar: its label, its value as text, and its size.
type ReportBar struct {
	Label, Value string
	Amount       int64
	Tick         bool // a column whose label is printed under the axis
}

// The SVG's drawing units (the viewBox; the chart scales to the page's width).
const (
	rcWidth   = 640
	rcColTop  = 12
	rcColH    = 200
	rcLabelY  = 236
	rcRowH    = 44
	rcBarH    = 14
	rcMaxTick = 8
)

func fmtf(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) }

// ChartBounds is the smallest and largest value a chart draws, zero always included.
func (c ReportChart) bounds() (lo, hi int64) {
	for _, b := range c.Bars {
		lo, hi = min(lo, b.Amount), max(hi, b.Amount)
	}
	if c.Scale > hi {
		hi = c.Scale
	}
	if hi == lo {
		hi = lo + 1
	}
	return lo, hi
}

func (c ReportChart) height() int {
	if c.Horizontal {
		return max(1, len(c.Bars))*rcRowH + 4
	}
	return rcLabelY + 8
}

func (c ReportChart) viewBox() string {
	return "0 0 " + strconv.Itoa(rcWidth) + " " + strconv.Itoa(c.height())
}

// colGeom is a column's rectangle.
type colGeom struct{ X, Y, W, H, LabelX string }

func (c ReportChart) column(i int) colGeom {
	lo, hi := c.bounds()
	n := max(1, len(c.Bars))
	slot := float64(rcWidth) / float64(n)
	w := slot * 0.7
	x := slot*float64(i) + (slot-w)/2
	scale := float64(rcColH) / float64(hi-lo)
	zero := float64(rcColTop) + float64(hi)*scale
	v := float64(c.Bars[i].Amount) * scale
	y, h := zero-v, v
	if v < 0 {
		y, h = zero, -v
	}
	return colGeom{X: fmtf(x), Y: fmtf(y), W: fmtf(w), H: fmtf(max(h, 0)), LabelX: fmtf(x + w/2)}
}

func (c ReportChart) zeroY() string {
	lo, hi := c.bounds()
	return fmtf(float64(rcColTop) + float64(hi)*float64(rcColH)/float64(hi-lo))
}

// rowGeom is a horizontal bar's rectangle and its label's place.
type rowGeom struct{ LabelY, Y, W string }

func (c ReportChart) row(i int) rowGeom {
	_, hi := c.bounds()
	w := float64(max(c.Bars[i].Amount, 0)) / float64(hi) * float64(rcWidth-4)
	y := i * rcRowH
	return rowGeom{LabelY: strconv.Itoa(y + 18), Y: strconv.Itoa(y + 24), W: fmtf(w)}
}

func (c ReportChart) titleID() string { return c.ID + "-title" }
func (c ReportChart) descID() string  { return c.ID + "-desc" }

// MarkTicks sets Tick on at most a handful of evenly spaced columns, the first always.
func MarkTicks(bars []ReportBar) {
	step := (len(bars) + rcMaxTick - 1) / rcMaxTick
	for i := range bars {
		bars[i].Tick = step == 0 || i%max(step, 1) == 0
	}
}
