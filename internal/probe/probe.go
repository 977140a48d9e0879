// Package probe calls a library's entry points with the nastiest values of
// their parameters' types and fails the test when one panics or does not
// return: the promise that the library "never panics and never hangs on any
// value a caller can pass" made into a check.
//
// Func takes a function and a baseline of valid arguments, and makes one
// call for each variant: the baseline with one argument (or one exported
// field of a struct argument, recursively) replaced by a nasty value of its
// type. Replacing one value at a time keeps the number of calls linear in
// the number of fields, and each call tests that one bad value is caught
// wherever it sits. The nasty values are, by kind:
//
//	ints      0, −1, 1, the type's min and max, 2^40 (where it fits)
//	floats    0, −0, −1, 5e-324, 1e-300, 1 − 2^−53, 1e308, ±Inf, NaN
//	strings   "", "\x00", "\n", a 64 KiB string
//	slices    nil, empty, the first element replaced
//	pointers  nil, the pointee replaced
//	maps, funcs, channels, interfaces: nil
//	context   nil, cancelled, and a deadline (Settings.CtxTimeout) in the baseline
//	io.Writer nil, one whose every write fails
//
// A call passes when it returns, whatever it returns: the values are
// nasty, not necessarily invalid, so an error and a result are both
// acceptable. A call fails when it panics, or when it has not returned
// Settings.Timeout after a context argument's deadline (a computation that
// does not look at its context, or one without a context that runs long).
// A call that does not return is left running (Go cannot stop a
// goroutine): the test reports it and the process ends with the test.
//
// # Contract
//
// Func and Refuses are test helpers: they take a testing.TB and report
// what they find through it; a call that does not return is left running
// and reported, never waited for past its time limit.
package probe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// Settings tune Func; the zero value means the defaults.
type Settings struct {
	// CtxTimeout is the deadline of the context passed in the baseline;
	// default 200 ms.
	CtxTimeout time.Duration
	// Timeout is how long after that a call may still run before it is
	// reported as hanging; default 10 s, far above what any call that
	// honours its context needs even on a loaded machine.
	Timeout time.Duration
	// Skip names variants not to run, by the path Func prints
	// ("arg1.Nodes"): values whose cost the caller has documented as the
	// caller's (a stated limit the test checks elsewhere).
	Skip []string
}

var (
	ctxType    = reflect.TypeFor[context.Context]()
	writerType = reflect.TypeFor[io.Writer]()
	errType    = reflect.TypeFor[error]()
)

// Func calls fn with args and with every one-value variant of args (see the
// package doc), reporting a panic or a hang with t.Errorf under name. It
// returns the number of calls made.
func Func(t testing.TB, name string, fn any, set Settings, args ...any) int {
	t.Helper()
	if set.CtxTimeout == 0 {
		set.CtxTimeout = 200 * time.Millisecond
	}
	if set.Timeout == 0 {
		set.Timeout = 10 * time.Second
	}
	fv := reflect.ValueOf(fn)
	ft := fv.Type()
	if ft.Kind() != reflect.Func || (!ft.IsVariadic() && ft.NumIn() != len(args)) {
		t.Fatalf("probe %s: not a function of %d arguments", name, len(args))
	}
	base := make([]reflect.Value, len(args))
	for i, a := range args {
		in := ft.In(min(i, ft.NumIn()-1))
		if ft.IsVariadic() && i >= ft.NumIn()-1 {
			in = in.Elem()
		}
		switch {
		case a == nil:
			base[i] = reflect.Zero(in)
		case in.Kind() == reflect.Interface:
			// Seen as the parameter's interface type, so that its nasty
			// value is a nil interface, not a nil pointer inside one (a
			// (*bytes.Reader)(nil) as io.Reader is a broken value of the
			// caller's, which any io function dereferences).
			x := reflect.New(in).Elem()
			x.Set(reflect.ValueOf(a))
			base[i] = x
		default:
			base[i] = reflect.ValueOf(a)
		}
	}
	skip := map[string]bool{}
	for _, s := range set.Skip {
		skip[s] = true
	}
	calls := 0
	run := func(path string, in []reflect.Value) {
		if skip[path] {
			return
		}
		calls++
		call(t, name+"("+path+")", fv, in, set)
	}
	run("baseline", base)
	for i := range base {
		i := i
		variants(fmt.Sprintf("arg%d", i), base[i], func(path string, v reflect.Value) {
			in := append([]reflect.Value(nil), base...)
			in[i] = v
			run(path, in)
		})
	}
	return calls
}

// call makes one call under recover and a watchdog.
func call(t testing.TB, label string, fv reflect.Value, in []reflect.Value, set Settings) {
	t.Helper()
	// Contexts in the baseline get a fresh deadline per call.
	in = append([]reflect.Value(nil), in...)
	cancels := []context.CancelFunc{}
	for i, v := range in {
		if v.Type() == ctxType && !v.IsNil() {
			if c, ok := v.Interface().(context.Context); ok && c.Err() == nil {
				ctx, cancel := context.WithTimeout(context.Background(), set.CtxTimeout)
				cancels = append(cancels, cancel)
				in[i] = reflect.ValueOf(&ctx).Elem()
			}
		}
	}
	defer func() {
		for _, c := range cancels {
			c()
		}
	}()
	if os.Getenv("PROBE_TRACE") != "" {
		// A fatal error (out of memory) cannot be recovered: the trace
		// names the call that caused it.
		fmt.Fprintln(os.Stderr, "probe:", label)
	}
	done := make(chan string, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Sprintf("panic: %v\n%s", r, firstFrames(debug.Stack()))
			}
		}()
		fv.Call(in)
		done <- ""
	}()
	select {
	case msg := <-done:
		if msg != "" {
			t.Errorf("%s: %s", label, msg)
		}
	case <-time.After(set.CtxTimeout + set.Timeout):
		t.Errorf("%s: still running %v after the context's deadline", label, set.Timeout)
	}
}

// firstFrames keeps the stack lines of the panic site, without the
// runtime's and this package's frames.
func firstFrames(stack []byte) string {
	var keep []string
	for _, l := range strings.Split(string(stack), "\n") {
		if strings.Contains(l, ".go:") && !strings.Contains(l, "/runtime/") && !strings.Contains(l, "/reflect/") && !strings.Contains(l, "internal/probe") {
			keep = append(keep, strings.TrimSpace(l))
			if len(keep) == 3 {
				break
			}
		}
	}
	return strings.Join(keep, " ← ")
}

// variants calls f with every one-value variant of v.
func variants(path string, v reflect.Value, f func(string, reflect.Value)) {
	t := v.Type()
	set := func(label string, x reflect.Value) { f(path+"="+label, x) }
	switch {
	case t == ctxType:
		set("nil", reflect.Zero(t))
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		set("cancelled", reflect.ValueOf(&ctx).Elem())
		return
	case t == writerType:
		set("nil", reflect.Zero(t))
		var w io.Writer = failWriter{}
		set("failing", reflect.ValueOf(&w).Elem())
		return
	case t == errType:
		set("nil", reflect.Zero(t))
		return
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := t.Bits()
		vals := []int64{0, -1, 1, -1 << (bits - 1), 1<<(bits-1) - 1}
		if bits > 40 {
			vals = append(vals, 1<<40)
		}
		for _, x := range vals {
			y := reflect.New(t).Elem()
			y.SetInt(x)
			set(fmt.Sprint(x), y)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		for _, x := range []uint64{0, 1, math.MaxUint64 >> (64 - t.Bits())} {
			y := reflect.New(t).Elem()
			y.SetUint(x)
			set(fmt.Sprint(x), y)
		}
	case reflect.Float32, reflect.Float64:
		for _, x := range []float64{0, math.Copysign(0, -1), -1, 5e-324, 1e-300, 1 - 0x1p-53, 1e308, math.Inf(1), math.Inf(-1), math.NaN()} {
			y := reflect.New(t).Elem()
			y.SetFloat(x)
			set(fmt.Sprint(x), y)
		}
	case reflect.String:
		for _, x := range []string{"", "\x00", "\n", strings.Repeat("x", 1<<16)} {
			y := reflect.New(t).Elem()
			y.SetString(x)
			label := fmt.Sprintf("%q", x)
			if len(x) > 8 {
				label = fmt.Sprintf("string of %d bytes", len(x))
			}
			set(label, y)
		}
	case reflect.Bool:
		y := reflect.New(t).Elem()
		y.SetBool(!v.Bool())
		set(fmt.Sprint(!v.Bool()), y)
	case reflect.Slice:
		set("nil", reflect.Zero(t))
		set("empty", reflect.MakeSlice(t, 0, 0))
		if v.Len() > 0 {
			variants(path+"[0]", v.Index(0), func(p string, x reflect.Value) {
				y := reflect.MakeSlice(t, v.Len(), v.Len())
				reflect.Copy(y, v)
				y.Index(0).Set(x)
				f(p, y)
			})
		}
	case reflect.Array:
		if v.Len() > 0 {
			variants(path+"[0]", v.Index(0), func(p string, x reflect.Value) {
				y := reflect.New(t).Elem()
				y.Set(v)
				y.Index(0).Set(x)
				f(p, y)
			})
		}
	case reflect.Pointer:
		set("nil", reflect.Zero(t))
		if !v.IsNil() {
			variants(path, v.Elem(), func(p string, x reflect.Value) {
				y := reflect.New(t.Elem())
				y.Elem().Set(x)
				f(p, y)
			})
		}
	case reflect.Struct:
		set("zero", reflect.Zero(t))
		for i := range t.NumField() {
			sf := t.Field(i)
			if !sf.IsExported() {
				continue
			}
			variants(path+"."+sf.Name, v.Field(i), func(p string, x reflect.Value) {
				y := reflect.New(t).Elem()
				y.Set(v)
				y.Field(i).Set(x)
				f(p, y)
			})
		}
	case reflect.Map, reflect.Func, reflect.Chan, reflect.Interface:
		if !v.IsNil() {
			set("nil", reflect.Zero(t))
		}
	}
}

// failWriter fails every write, as a full disk does.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("probe: write failed") }
