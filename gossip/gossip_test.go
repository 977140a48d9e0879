package gossip_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

func TestShuffleValidate(t *testing.T) {
	for _, tc := range []struct {
		p     gossip.Shuffle
		field string // "" means valid
	}{
		{gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, ""},
		{gossip.Shuffle{Items: 2, Cache: 1, Exchange: 1}, ""},
		{gossip.Shuffle{Items: 5, Cache: 5, Exchange: 4}, ""},
		{gossip.Shuffle{}, "Shuffle.Exchange"},
		{gossip.Shuffle{Items: 10, Cache: 3, Exchange: 4}, "Shuffle.Exchange"},
		{gossip.Shuffle{Items: 10, Cache: 11, Exchange: 4}, "Shuffle.Cache"},
		{gossip.Shuffle{Items: 5, Cache: 5, Exchange: 5}, "Shuffle.Exchange"},
		{gossip.Shuffle{Items: gossip.MaxItems + 1, Cache: 5, Exchange: 5}, "Shuffle.Items"},
	} {
		t.Run(tc.p.String(), func(t *testing.T) {
			err := tc.p.Validate()
			if tc.field == "" {
				if err != nil {
					t.Fatalf("Validate: %v, want nil", err)
				}
				return
			}
			var fe *gossip.FieldError
			if !errors.As(err, &fe) || fe.Field != tc.field {
				t.Fatalf("Validate: %v, want a FieldError on %s", err, tc.field)
			}
		})
	}
}

func ExampleShuffle_Validate() {
	fmt.Println(gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}.Validate())
	fmt.Println(gossip.Shuffle{Items: 500, Cache: 100, Exchange: 150}.Validate())
	// Output:
	// <nil>
	// gossip: Shuffle.Exchange = 150: need Exchange ≤ Cache = 100
}

// ParseTime's error starts with the package and names what it parses.
func TestParseTimeError(t *testing.T) {
	_, err := gossip.ParseTime("x")
	if err == nil || err.Error() != `gossip: unknown time model "x" (valid: continuous, shuffles, synchronous)` {
		t.Errorf("ParseTime(x) error = %v", err)
	}
}

// Every parameter of the table names a field of Shuffle (the path field
// errors use), and its usage reads "meaning symbol (range)".
func TestParams(t *testing.T) {
	for _, p := range []gossip.Param{gossip.Items, gossip.Cache, gossip.Exchange} {
		t.Run(p.Symbol, func(t *testing.T) {
			name, ok := strings.CutPrefix(p.Field, "Shuffle.")
			if _, found := reflect.TypeOf(gossip.Shuffle{}).FieldByName(name); !ok || !found {
				t.Errorf("%s names no field of Shuffle", p.Field)
			}
			if want := p.Meaning + " " + p.Symbol + " (" + p.Range + ")"; p.Usage() != want {
				t.Errorf("Usage() = %q, want %q", p.Usage(), want)
			}
		})
	}
	// The field error of a bad exchange size names the parameter's field.
	var fe *gossip.FieldError
	if err := (gossip.Shuffle{Items: 10, Cache: 5}).Validate(); !errors.As(err, &fe) || fe.Field != gossip.Exchange.Field {
		t.Errorf("Validate() = %v, want a field error on %s", err, gossip.Exchange.Field)
	}
}
