package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/reports"
	"github.com/oddsmith/oddsmith/study"
)

// maxPlanBytes bounds a plan file: plans are a few kilobytes of TOML, and
// a device that never ends (/dev/zero) must be refused, not read until
// memory runs out.
const maxPlanBytes = 16 << 20

// openInput opens an input file: a missing or unreadable file and a
// directory are bad input; other failures (no file descriptor left, an
// I/O error) are runtime failures. Messages name the file and say the
// problem in words.
func openInput(name, what string) (*os.File, os.FileInfo, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, inputError(what, name, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("cannot read the %s %s: %s", what, name, reports.Words(err))
	}
	if st.IsDir() {
		f.Close()
		return nil, nil, badInput("cannot read the %s %s: it is a directory", what, name)
	}
	return f, st, nil
}

// inputError is the failure to open an input file: bad input when the
// name is at fault (missing, unreadable, through a file, a loop of links),
// a runtime failure when the system is (no descriptor left, an I/O error).
func inputError(what, name string, err error) error {
	if os.IsNotExist(err) || os.IsPermission(err) || errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.ELOOP) {
		return badInput("cannot read the %s %s: %s", what, name, reports.Words(err))
	}
	return fmt.Errorf("cannot read the %s %s: %s", what, name, reports.Words(err))
}

// readLimited reads at most limit bytes of r; more is bad input.
func readLimited(r io.Reader, name, what string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read the %s %s: %s", what, name, reports.Words(err))
	}
	if int64(len(data)) > limit {
		return nil, badInput("%s: a %s may be at most %d bytes", name, what, limit)
	}
	return data, nil
}

// readPlan reads a plan file: bad input when it is missing, unreadable, a
// directory or too large; a runtime failure (exit 1) when the system
// fails to read it (no file descriptor left: issue 27 called that bad
// input).
func readPlan(name string) ([]byte, error) {
	f, _, err := openInput(name, "plan")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(f, name, "plan", maxPlanBytes)
}

// readShardFile reads a shard file, streaming (study.ReadShardFrom): its
// header and, for a regular file, its size first, then the payload within
// what is left of the budget.
func readShardFile(name string, b *engine.Budget) (*study.ShardFile, error) {
	f, st, err := openInput(name, "shard file")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := int64(-1)
	if st.Mode().IsRegular() {
		size = st.Size()
	}
	return study.ReadShardFrom(name, f, size, b)
}
