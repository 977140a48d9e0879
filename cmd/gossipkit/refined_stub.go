package main

import (
	"context"
	"errors"

	"github.com/gossipkit/gossipkit/approx"
)

type refinedResult struct{ x, y, xsd, ysd []float64 }

func refinedFor(_ context.Context, _ approx.Model, _, _ float64, _ string, _, _ float64) (*refinedResult, error) {
	return nil, errors.New("--refined is not implemented yet")
}
