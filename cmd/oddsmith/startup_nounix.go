//go:build !unix

package main

func freeDescriptors(want int) int { return want }

func openFilesLimit() int64 { return -1 }
