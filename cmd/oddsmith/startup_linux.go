//go:build linux

package main

import "syscall"

// stdoutClosed reports whether the process was started with its standard
// output closed ('oddsmith … >&-'). The Go runtime opens /dev/null
// (read-write) on a standard descriptor that is closed at start, so the
// writes would succeed into nothing: fd 1 is then /dev/null open for
// reading and writing, which a shell's '>/dev/null' (write-only) is not.
// A daemon that gives a process /dev/null read-write on all of 0, 1 and 2
// is told apart by its stdin, read-write /dev/null too.
func stdoutClosed() bool {
	return devNullReadWrite(1) && !devNullReadWrite(0)
}

// devNullReadWrite reports whether descriptor fd is /dev/null open for
// reading and writing.
func devNullReadWrite(fd int) bool {
	var null, st syscall.Stat_t
	if syscall.Stat("/dev/null", &null) != nil || syscall.Fstat(fd, &st) != nil {
		return false
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFCHR || st.Rdev != null.Rdev {
		return false
	}
	fl, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFL, 0)
	return errno == 0 && int(fl)&syscall.O_ACCMODE == syscall.O_RDWR
}
