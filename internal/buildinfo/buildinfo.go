// Package buildinfo holds the toolkit's version, printed by `gossipkit
// version` and stamped on every report.
package buildinfo

// Version is gossipkit's version.
const Version = "0.1.0"
