// Package buildinfo holds the toolkit's version, printed by `gossipkit
// version` and stamped on every report, and the identity of the running
// build, stamped on every part file so that parts of different builds are
// never merged.
//
// # Contract
//
// Identity takes no argument and never fails or panics (it is computed
// once, whatever the build carries).
package buildinfo

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"runtime/debug"
	"sync"
)

// Version is gossipkit's version.
const Version = "0.1.0"

// Identity is the running build's identity: the version, the VCS revision
// where the binary carries one (with "+modified" for a dirty tree), and
// the SHA-256 of the executable's contents (its first 16 hex digits),
// which differs whenever the code does, whether or not the build was
// stamped (go run and go test are not). It is computed once; where the
// executable cannot be read, the hash is "unknown".
func Identity() string {
	identityOnce.Do(func() { identity = compute() })
	return identity
}

var (
	identityOnce sync.Once
	identity     string
)

func compute() string {
	v := Version
	if bi, ok := debug.ReadBuildInfo(); ok {
		var rev, dirty string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					dirty = "+modified"
				}
			}
		}
		if rev != "" {
			v += " (" + rev + dirty + ")"
		}
	}
	return v + " sha256:" + executableHash()
}

func executableHash() string {
	path, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	f, err := os.Open(path)
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "unknown"
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
