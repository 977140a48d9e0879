package report

import (
	"context"
	"reflect"
	"testing"
)

// TestOperatorMemo: the operator table is computed once per seed in a
// process (operatorMemo), and each caller gets its own copy: a change to
// one result does not reach the next. That the table does not depend on
// the workers, which the memo's key leaves out, is package broadcast's
// promise (its results do not depend on Settings.Workers).
func TestOperatorMemo(t *testing.T) {
	if testing.Short() {
		t.Skip("computes the operator table")
	}
	ctx := context.Background()
	a, err := NewStudy(tiny(), Options{Workers: 2}).Operator(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := append([]OperatorRow(nil), a...)
	a[0].Budget6 = -1
	b, err := NewStudy(tiny(), Options{Workers: 1}).Operator(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(b, want) {
		t.Errorf("the second call's table differs from the first's:\n%v\n%v", b, want)
	}
	if len(want) != len(operatorNs)*len(operatorCases) {
		t.Errorf("%d rows, want %d", len(want), len(operatorNs)*len(operatorCases))
	}
}
