package cli

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/gossipkit/gossipkit/plots"
)

// Summary is one more summary value of a command's output, added to what a
// writer printed (AddSummary) the way that output holds its others: a
// member Key of the JSON object, columns Key_* at the end of every CSV
// row, a Text line at the end of the text summary, and in Markdown Title
// and the record as a table before the main table.
type Summary struct {
	Key   string
	Table *plots.Table // one record (Single)
	Text  string       // the text summary's line, without its newline
	Title string       // Markdown: "Lifetime of d (rounds):"
}

// AddSummary returns out, written in format by a writer whose JSON is one
// object, whose CSV is one table and whose text and Markdown end with the
// main table main (its bytes in that format, after a summary and a blank
// line in text), with s added. An output of another shape is an error (a
// defect: the writer changed).
func AddSummary(out []byte, format string, main []byte, s Summary) ([]byte, error) {
	var rec bytes.Buffer
	switch format {
	case "json":
		body, ok := bytes.CutSuffix(out, []byte("}\n"))
		if !ok || !bytes.HasPrefix(out, []byte("{")) {
			break
		}
		if err := s.Table.Write(&rec, "json"); err != nil {
			return nil, err
		}
		return fmt.Appendf(nil, "%s,\n%q: %s}\n", body, s.Key, rec.Bytes()), nil
	case "csv":
		if err := s.Table.Write(&rec, "csv"); err != nil {
			return nil, err
		}
		kv := strings.Split(strings.TrimSuffix(rec.String(), "\n"), "\n")
		lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if len(kv) != 2 || len(lines) < 1 || !bytes.HasSuffix(out, []byte("\n")) {
			break
		}
		var b strings.Builder
		for i, l := range lines {
			add := kv[1]
			if i == 0 {
				add = s.Key + "_" + strings.ReplaceAll(kv[0], ",", ","+s.Key+"_")
			}
			fmt.Fprintf(&b, "%s,%s\n", l, add)
		}
		return []byte(b.String()), nil
	case "text", "markdown":
		head, ok := bytes.CutSuffix(out, main)
		if !ok {
			break
		}
		if format == "text" {
			head, ok = bytes.CutSuffix(head, []byte("\n"))
			if !ok || !bytes.HasSuffix(head, []byte("\n")) {
				break
			}
			return fmt.Appendf(nil, "%s%s\n\n%s", head, s.Text, main), nil
		}
		if err := s.Table.Write(&rec, "markdown"); err != nil {
			return nil, err
		}
		return fmt.Appendf(nil, "%s%s\n\n%s\n%s", head, s.Title, rec.Bytes(), main), nil
	}
	return nil, errors.New("cli: AddSummary: the output is not of the shape expected")
}
