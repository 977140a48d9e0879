package buildinfo

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strings"
	"testing"
)

// The identity names the version and the hash of this very executable,
// computed here independently from its bytes.
func TestIdentity(t *testing.T) {
	path, err := os.Executable()
	if err != nil {
		t.Skipf("no executable path: %v", err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("cannot read the executable: %v", err)
	}
	sum := sha256.Sum256(b)
	want := "sha256:" + hex.EncodeToString(sum[:])[:16]
	id := Identity()
	if !strings.HasPrefix(id, Version) || !strings.HasSuffix(id, want) {
		t.Errorf("Identity() = %q, want %s … %s", id, Version, want)
	}
	if Identity() != id {
		t.Error("Identity changes between calls")
	}
}
