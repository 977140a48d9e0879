package gossip

import "errors"

// ErrTooLarge is wrapped by every error with which a computation refuses,
// before any work, a valid configuration whose estimated time or memory
// exceeds its stated limit (chain.Settings.MaxStateSteps, …). The message
// around it gives the estimate and the limit; a program tells such a
// refusal from a failure with errors.Is(err, gossip.ErrTooLarge).
var ErrTooLarge = errors.New("too large")
