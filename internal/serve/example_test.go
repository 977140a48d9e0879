package serve_test

import (
	"fmt"

	"github.com/gossipkit/gossipkit/internal/serve"
)

// A page's query becomes the command line the server runs: the CLI's flag
// names, one dash for one letter, JSON unless a format is asked for.
func ExampleArgs() {
	flags, err := serve.ParseQuery("protocol=push&N=1000&fanout=1%3A4&loss=0.1")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(serve.Args("plan", flags))
	_, err = serve.ParseQuery("N=1000&o=answer.json")
	fmt.Println(err)
	// Output:
	// [plan --format json --protocol push -N 1000 --fanout 1:4 --loss 0.1]
	// -o: refused by the server (writes a file)
}
