//go:build unix

package main

import "syscall"

// freeDescriptors is how many more files the process can open, counted up
// to want by duplicating stderr (raw system calls: nothing here needs the
// runtime's poller, which itself needs two descriptors and dies without
// them).
func freeDescriptors(want int) int {
	var fds []int
	for len(fds) < want {
		fd, err := syscall.Dup(2)
		if err != nil {
			break
		}
		fds = append(fds, fd)
	}
	for _, fd := range fds {
		syscall.Close(fd)
	}
	return len(fds)
}

// openFilesLimit is the soft limit of open files (ulimit -n), or -1.
func openFilesLimit() int64 {
	var r syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r) != nil {
		return -1
	}
	return int64(r.Cur)
}
