package main

import (
	"context"
	"errors"

	"github.com/gossipkit/gossipkit/sim"
)

type shardSpec struct{ I, M int }

func resolveShard(_ *env, flag string, _ bool) (*shardSpec, error) {
	if flag != "" {
		return nil, errors.New("--shard is not implemented yet")
	}
	return nil, nil
}

func runShard(context.Context, *env, sim.Config, sim.Options, *shardSpec, string) error {
	return errors.New("--shard is not implemented yet")
}
