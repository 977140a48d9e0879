package gossip

// Param states one parameter of the models once: the Go field that holds
// it (as field errors name it), its symbol, its meaning and its valid
// range. Validate methods check these ranges; the CLI writes its flags'
// help from here and maps a field error back to the flag bound to the
// field.
type Param struct {
	Field   string // Go field path inside its struct: "Shuffle.Items"
	Symbol  string // the symbol of docs/MODEL.md: n
	Meaning string // one line: "number of distinct items"
	Range   string // the valid range, in symbols: "c ≤ n ≤ 2^40"
}

// Usage is the parameter's one-line help: "number of distinct items n (≥ c)".
func (p Param) Usage() string { return p.Meaning + " " + p.Symbol + " (" + p.Range + ")" }

// The parameters of a shuffle, checked by Shuffle.Validate.
var (
	Items    = Param{Field: "Shuffle.Items", Symbol: "n", Meaning: "number of distinct items", Range: "≥ c"}
	Cache    = Param{Field: "Shuffle.Cache", Symbol: "c", Meaning: "cache size", Range: "1 ≤ c ≤ n"}
	Exchange = Param{Field: "Shuffle.Exchange", Symbol: "s", Meaning: "exchange size", Range: "1 ≤ s ≤ c, s < n"}
)

// Loss is the message-loss parameter shared by every model that has one:
// each one-way message (a shuffle's request or its reply, a rumour's push
// or pull) is lost independently with probability ε.
var Loss = Param{Field: "Loss", Symbol: "ε", Meaning: "probability that one message is lost", Range: "0 ≤ ε < 1"}

// ValidLoss reports whether ε is a valid loss probability, 0 ≤ ε < 1 (NaN
// is not).
func ValidLoss(eps float64) bool { return eps >= 0 && eps < 1 }
