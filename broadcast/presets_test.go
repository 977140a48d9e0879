package broadcast

import "testing"

// TestPresetApply: a preset sets the fanout, memberlist's budget for N
// (LAN at N = 200: 4·⌈log10 201⌉ = 12; Local: 2·3 = 6), the interval and
// sync interval in seconds and the asynchronous clock; an unknown name
// is not a preset. The values themselves are checked against the pinned
// memberlist by validate/memberlist's TestPresets.
func TestPresetApply(t *testing.T) {
	for _, c := range []struct {
		name                   string
		k, b                   int
		interval, syncInterval float64
	}{
		{"memberlist-lan", 3, 12, 0.2, 30},
		{"memberlist-wan", 4, 12, 0.5, 60},
		{"memberlist-local", 3, 6, 0.1, 15},
	} {
		p, ok := PresetByName(c.name)
		if !ok {
			t.Fatalf("%s: not a preset", c.name)
		}
		got := p.Apply(Config{Nodes: 200, Protocol: Push, Level: 1})
		if got.Fanout != c.k || got.Budget != c.b || got.Interval != c.interval || got.SyncInterval != c.syncInterval || got.Time != Async {
			t.Errorf("%s: %+v", c.name, got)
		}
		if err := got.Validate(); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if _, ok := PresetByName("memberlist"); ok {
		t.Error("memberlist is a preset")
	}
	if n := len(PresetNames()); n != len(Presets()) || n != 3 {
		t.Errorf("%d names, %d presets", n, len(Presets()))
	}
}
