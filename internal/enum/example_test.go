package enum_test

import (
	"fmt"

	"github.com/gossipkit/gossipkit/internal/enum"
)

type fruit int

var fruitNames = enum.Names[fruit]{"apple", "pear"}

func (f fruit) String() string { return fruitNames.Name(f) }

func ExampleNames() {
	p, err := fruitNames.Parse("fruit", "pear")
	fmt.Println(p, int(p), err)
	_, err = fruitNames.Parse("fruit", "plum")
	fmt.Println(err)
	fmt.Println(fruit(7)) // outside the table: no panic
	// Output:
	// pear 1 <nil>
	// unknown fruit "plum" (valid: apple, pear)
	// enum_test.fruit(7)
}
