package main

import (
	"context"
	"fmt"
	"io"
)

func sandbox(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	return fmt.Errorf("sandbox: not built yet")
}
