package plots

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"reflect"
	"strconv"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// Formats lists the output formats every gossipkit command accepts.
var Formats = []string{"text", "json", "csv", "markdown"}

// ValidFormat reports whether f is one of Formats.
func ValidFormat(f string) bool {
	for _, g := range Formats {
		if f == g {
			return true
		}
	}
	return false
}

// Table is a rectangular result: Keys name the columns (the JSON keys and the
// CSV header) and each row holds one value per key. A value is a string, an
// integer, a float64, a bool, a *big.Rat (written as a reduced fraction), or
// nil (JSON null, an empty CSV cell, "–" in text).
type Table struct {
	Keys []string
	Rows [][]any
	// TextCell, if set, renders a value for the text and Markdown formats,
	// where a 300-digit fraction would make the table unreadable; JSON and
	// CSV always carry the full value.
	TextCell func(col int, v any) string
	// Single marks a one-record result: JSON is then one object rather than
	// an array, and text and Markdown list it as key–value lines.
	Single bool
}

// Write renders t in the given format ("text", "json", "csv" or "markdown").
func (t *Table) Write(w io.Writer, format string) error {
	if err := t.check(); err != nil {
		return err
	}
	if w == nil {
		return errors.New("plots: Table.Write: nil writer")
	}
	switch format {
	case "json":
		return t.writeJSON(w)
	case "csv":
		return t.writeCSV(w)
	case "text", "markdown":
		return t.writeTable(w, format == "markdown")
	}
	return fmt.Errorf("unknown format %q", format)
}

func (t *Table) writeJSON(w io.Writer) error {
	var b bytes.Buffer
	if t.Single && len(t.Rows) == 1 {
		if err := t.jsonObject(&b, t.Rows[0], "\n  ", "\n"); err != nil {
			return err
		}
		b.WriteString("\n")
	} else {
		b.WriteString("[")
		for i, row := range t.Rows {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n  ")
			if err := t.jsonObject(&b, row, " ", ""); err != nil {
				return err
			}
		}
		if len(t.Rows) > 0 {
			b.WriteString("\n")
		}
		b.WriteString("]\n")
	}
	_, err := w.Write(b.Bytes())
	return err
}

// jsonObject writes one row as an object with the keys in column order:
// each member after sep (the first after "{" + sep, or "{" when sep is a
// space), the closing brace after end.
func (t *Table) jsonObject(b *bytes.Buffer, row []any, sep, end string) error {
	b.WriteString("{")
	for j, v := range row {
		switch {
		case j > 0:
			b.WriteString(",")
			b.WriteString(sep)
		case sep != " ":
			b.WriteString(sep)
		}
		k, _ := json.Marshal(t.Keys[j])
		b.Write(k)
		b.WriteString(": ")
		enc, err := jsonValue(v)
		if err != nil {
			return fmt.Errorf("column %s: %w", t.Keys[j], err)
		}
		b.Write(enc)
	}
	b.WriteString(end)
	b.WriteString("}")
	return nil
}

func jsonValue(v any) ([]byte, error) {
	v = nilCell(v)
	switch x := v.(type) {
	case nil:
		return []byte("null"), nil
	case *big.Rat:
		return json.Marshal(x.RatString())
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return []byte("null"), nil
		}
		return []byte(strconv.FormatFloat(x, 'g', -1, 64)), nil
	}
	return json.Marshal(v)
}

// MeanSD is a value shown as "mean ± sd" in text and Markdown, and as two
// numeric columns KEY_mean and KEY_sd in CSV (JSON: as the value encodes).
type MeanSD interface {
	MeanSD() (mean, sd float64)
}

// Cell renders one value as CSV does: full precision, shortest round-trip
// form for floats; a value that does not exist (nil, NaN, ±Inf) is empty.
func Cell(v any) string {
	v = nilCell(v)
	switch x := v.(type) {
	case nil:
		return ""
	case *big.Rat:
		return x.RatString()
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return ""
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return x
	}
	return fmt.Sprint(v)
}

func (t *Table) writeCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	// A column of MeanSD values becomes two numeric columns.
	split := make([]bool, len(t.Keys))
	for _, row := range t.Rows {
		for j, v := range row {
			_, ok := v.(MeanSD)
			split[j] = split[j] || ok
		}
	}
	var keys []string
	for j, k := range t.Keys {
		if split[j] {
			keys = append(keys, k+"_mean", k+"_sd")
		} else {
			keys = append(keys, k)
		}
	}
	if err := cw.Write(keys); err != nil {
		return err
	}
	for _, row := range t.Rows {
		rec := make([]string, 0, len(keys))
		for j, v := range row {
			if !split[j] {
				rec = append(rec, Cell(v))
				continue
			}
			if ms, ok := v.(MeanSD); ok {
				m, sd := ms.MeanSD()
				rec = append(rec, Cell(m), Cell(sd))
			} else {
				rec = append(rec, "", "")
			}
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func (t *Table) textCell(j int, v any) string {
	if t.TextCell != nil {
		return t.TextCell(j, v)
	}
	return TextCell(v)
}

// TextCell renders v as text and Markdown tables do by default: "–" for a
// missing or non-finite value, floats to six significant digits, and
// everything else as Cell; a Table.TextCell can fall back on it.
func TextCell(v any) string {
	v = nilCell(v)
	switch x := v.(type) {
	case nil:
		return "–"
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return "–"
		}
		// Six significant digits keep text tables readable; JSON and CSV
		// carry every digit.
		return strconv.FormatFloat(x, 'g', 6, 64)
	}
	return Cell(v)
}

func (t *Table) writeTable(w io.Writer, markdown bool) error {
	opts := []tablewriter.Option{
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone),
	}
	if markdown {
		opts = append(opts, tablewriter.WithRenderer(renderer.NewMarkdown()))
	}
	tab := tablewriter.NewTable(w, opts...)
	var rows [][]string
	if t.Single && len(t.Rows) == 1 {
		tab.Header([]string{"quantity", "value"})
		for j, v := range t.Rows[0] {
			rows = append(rows, []string{t.Keys[j], t.textCell(j, v)})
		}
	} else {
		tab.Header(t.Keys)
		rows = make([][]string, len(t.Rows))
		for i, row := range t.Rows {
			rows[i] = make([]string, len(row))
			for j, v := range row {
				rows[i][j] = t.textCell(j, v)
			}
		}
	}
	if err := tab.Bulk(rows); err != nil {
		return err
	}
	return tab.Render()
}

// ShortFraction shows a fraction in text tables as itself when it is short
// and as a 12-digit decimal otherwise (JSON and CSV keep the full fraction).
func ShortFraction(_ int, v any) string {
	v = nilCell(v)
	switch x := v.(type) {
	case *big.Rat:
		if s := x.RatString(); len(s) <= 24 {
			return s
		}
		f, _ := x.Float64()
		return "≈" + strconv.FormatFloat(f, 'g', 12, 64)
	case float64:
		return strconv.FormatFloat(x, 'g', 10, 64)
	case nil:
		return "–"
	}
	return Cell(v)
}

// nilCell is v, or nil for a nil pointer (a nil *big.Rat or *big.Int
// cell): a value that does not exist, written as nil is, never a panic.
func nilCell(v any) any {
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && rv.IsNil() {
		return nil
	}
	return v
}
