package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/oddsmith/oddsmith/study"
)

// maxPlanBytes bounds a plan file: plans are a few kilobytes of TOML, and
// a device that never ends (/dev/zero) must be refused, not read until
// memory runs out.
const maxPlanBytes = 16 << 20

// maxShardStream bounds a shard read from a pipe or a device (a regular
// file's size is known and read whole).
const maxShardStream = 1 << 30

// openInput opens an input file: a missing or unreadable file and a
// directory are bad input; other failures are I/O errors.
func openInput(name, what string) (*os.File, os.FileInfo, error) {
	f, err := os.Open(name)
	if err != nil {
		if os.IsNotExist(err) || os.IsPermission(err) {
			return nil, nil, badInput("cannot read %s: %v", what, err)
		}
		return nil, nil, fmt.Errorf("cannot read %s: %w", what, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("cannot read %s: %w", what, err)
	}
	if st.IsDir() {
		f.Close()
		return nil, nil, badInput("cannot read %s: %s is a directory", what, name)
	}
	return f, st, nil
}

// readLimited reads at most limit bytes of r; more is bad input.
func readLimited(r io.Reader, name, what string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", what, err)
	}
	if int64(len(data)) > limit {
		return nil, badInput("%s: a %s may be at most %d bytes", name, what, limit)
	}
	return data, nil
}

// readPlan reads a plan file (bad input when it cannot be read, is a
// directory or is too large).
func readPlan(name string) ([]byte, error) {
	f, _, err := openInput(name, "plan")
	if err != nil {
		return nil, badInput("%v", err)
	}
	defer f.Close()
	return readLimited(f, name, "plan", maxPlanBytes)
}

// readShardFile reads a shard file: a regular file whole; a pipe or a
// device only if it starts like a shard, and up to maxShardStream bytes.
func readShardFile(name string) ([]byte, error) {
	f, st, err := openInput(name, "shard")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Mode().IsRegular() {
		return readLimited(f, name, "shard file", max(st.Size(), maxShardStream))
	}
	head := make([]byte, len(study.ShardMagic))
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, fmt.Errorf("cannot read shard: %w", err)
	}
	if !bytes.Equal(head[:n], []byte(study.ShardMagic)) {
		return head[:n], nil // not a shard: ReadShard says so
	}
	rest, err := readLimited(f, name, "shard file", maxShardStream)
	if err != nil {
		return nil, err
	}
	return append(head, rest...), nil
}
