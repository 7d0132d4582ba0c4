//go:build !linux

package main

// stdoutClosed reports whether the process was started with its standard
// output closed; only Linux tells (see startup_linux.go).
func stdoutClosed() bool { return false }
