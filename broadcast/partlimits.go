package broadcast

import (
	"encoding/json"

	"github.com/gossipkit/gossipkit/internal/shard"
)

// The limits of a part's plain JSON (partBounds) apply while
// shard.Decompress counts it, before the part is held in memory: a part of
// a few MB on disk cannot make a reader allocate its 1 GiB cap (a part of
// 0.9 MB whose engine field held 900 MiB of spaces cost 948 MB and 12 s
// before it was refused).
func init() {
	shard.RegisterLimits(PartFormat, func(header []byte) (shard.Limits, error) {
		// A part writes its header fields before its replications, so a
		// header that lacks one (cut by a value of 64 KiB) is refused here.
		if err := checkPartHeader(header); err != nil {
			return shard.Limits{}, err
		}
		var h struct {
			Reps  int     `json:"reps"`
			Shard ShardID `json:"shard"`
		}
		if err := json.Unmarshal(header, &h); err != nil {
			return shard.Limits{}, nil
		}
		maxBytes, maxObjects := partBounds(h.Reps, h.Shard)
		return shard.Limits{Bytes: int64(maxBytes), Objects: int64(maxObjects)}, nil
	})
}
