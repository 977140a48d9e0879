package plots

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Design is a design answer as `gossipkit plan` writes it, for every
// protocol (plan.Design.Write, broadcast.Design.Write): JSON
// {"rows": [...], "best": {...} or null, "cheapest": …}; CSV the rows;
// text and Markdown the header, the first short columns, the choice and
// one accuracy note per method.
type Design struct {
	Table          *Table // every column, one row per setting
	Short          int    // text and Markdown show the first Short columns
	Best, Cheapest int    // rows, or −1
	Header, Choice string // one line stating the model; the choice in words
	Notes          []Note // one per row
	// JSON, if set, holds columns only JSON carries (lists, such as a
	// row's distribution), one row per Table row, after Table's columns.
	JSON *Table
	// Text, if set, is the table text and Markdown show in place of
	// Table's first Short columns (each value with its accuracy).
	Text *Table
}

// Note is a row's accuracy: its method, where it is (alone, and among
// several), its words and its size (Worst of its bounds).
type Note struct {
	Method, Where, Among, Text string
	Size                       float64
}

// Worst is the largest of the bounds that apply (NaN ones do not).
func Worst(x ...float64) float64 {
	v := 0.0
	for _, y := range x {
		if y > v { // NaN fields do not apply
			v = y
		}
	}
	return v
}

// Write writes the design in format.
func (d *Design) Write(w io.Writer, format string) error {
	if d == nil || d.Table == nil || w == nil {
		return errors.New("plots: Design.Write: nil design, table or writer")
	}
	if err := d.Table.check(); err != nil {
		return err
	}
	if !ValidFormat(format) {
		return fmt.Errorf("plots: Design.Write: unknown format %q", format)
	}
	t := d.Table
	switch format {
	case "csv":
		return t.Write(w, format)
	case "json":
		if x := d.JSON; x != nil {
			if err := x.check(); err != nil || len(x.Rows) != len(t.Rows) {
				return errors.New("plots: Design.Write: the JSON columns do not match the table's rows")
			}
			all := &Table{Keys: append(slices.Clone(t.Keys), x.Keys...)}
			for i, r := range t.Rows {
				all.Rows = append(all.Rows, append(slices.Clone(r), x.Rows[i]...))
			}
			t = all
		}
		var rows bytes.Buffer
		if err := t.Write(&rows, "json"); err != nil {
			return err
		}
		row := func(i int) ([]byte, error) { // one row as a JSON object, or null
			if i < 0 || i >= len(t.Rows) { // none, or a hand-made design's stray index
				return []byte("null"), nil
			}
			var buf bytes.Buffer
			err := (&Table{Single: true, Keys: t.Keys, Rows: [][]any{t.Rows[i]}}).Write(&buf, "json")
			return bytes.TrimSpace(buf.Bytes()), err
		}
		best, err := row(d.Best)
		if err != nil {
			return err
		}
		cheapest, err := row(d.Cheapest)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "{\n\"rows\": %s,\n\"best\": %s,\n\"cheapest\": %s\n}\n", bytes.TrimSpace(rows.Bytes()), best, cheapest)
		return err
	}
	fmt.Fprintf(w, "%s\n\n", d.Header)
	// P(T_L ≤ D) below 10^-6 reads "<1e-6" in text: a design does not turn
	// on it, and the stated accuracies are about the law's body, not far
	// tails (CSV and JSON keep the value).
	pCol, n := slices.Index(t.Keys, "p_deadline"), min(max(d.Short, 0), len(t.Keys))
	short := &Table{Keys: t.Keys[:n], TextCell: func(col int, v any) string {
		if p, ok := v.(float64); ok && col == pCol && p < 1e-6 {
			return "<1e-6"
		}
		return TextCell(v)
	}}
	for _, r := range t.Rows {
		short.Rows = append(short.Rows, r[:n])
	}
	if d.Text != nil {
		short = d.Text
	}
	if err := short.Write(w, format); err != nil {
		return err
	}
	if d.Choice != "" {
		fmt.Fprintf(w, "\n%s", d.Choice)
	}
	// One note per method, from its least accurate row; every row's
	// bounds are columns of CSV and JSON.
	worstOf := map[string]int{}
	var order []string
	for i, n := range d.Notes {
		j, ok := worstOf[n.Method]
		if !ok {
			order = append(order, n.Method)
		}
		if !ok || n.Size > d.Notes[j].Size {
			worstOf[n.Method] = i
		}
	}
	var lines []string
	for _, m := range order {
		n := d.Notes[worstOf[m]]
		where := n.Where
		if len(d.Notes) > 1 {
			where = n.Among
		}
		lines = append(lines, fmt.Sprintf("%s (%s): %s", m, where, n.Text))
	}
	_, err := fmt.Fprintf(w, "\nAccuracy:\n- %s\n", strings.Join(lines, "\n- "))
	return err
}
