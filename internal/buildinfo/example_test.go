package buildinfo_test

import (
	"fmt"
	"strings"

	"github.com/gossipkit/gossipkit/internal/buildinfo"
)

// Part files carry the identity; two builds of different code differ in
// its hash.
func ExampleIdentity() {
	id := buildinfo.Identity()
	fmt.Println(strings.HasPrefix(id, buildinfo.Version), strings.Contains(id, " sha256:"))
	// Output: true true
}
