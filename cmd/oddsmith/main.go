// Command oddsmith computes how tabletop dice mechanics behave, exactly and
// by simulation.
//
//	oddsmith list
//	oddsmith describe ag.skill_test
//	oddsmith exact ag.skill_test --set skill=2 --set attribute=2 --set tn=5
//	oddsmith sim ag.skill_test --set skill=2 -n 1000000 -s 42 --workers 2
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
