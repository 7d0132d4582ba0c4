package study

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// zeroFile is a file of size bytes: head, then zeros. It reads as a
// regular file (io.ReaderAt) without the memory of one.
type zeroFile struct {
	head []byte
	size int64
	off  int64
}

func (z *zeroFile) ReadAt(p []byte, off int64) (int, error) {
	if off >= z.size {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), z.size-off))
	for i := range n {
		if at := off + int64(i); at < int64(len(z.head)) {
			p[i] = z.head[at]
		} else {
			p[i] = 0
		}
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (z *zeroFile) Read(p []byte) (int, error) {
	n, err := z.ReadAt(p, z.off)
	z.off += int64(n)
	return n, err
}

// pipe is the same as a stream of unknown size (a pipe, a FIFO).
type pipe struct{ z *zeroFile }

func (p pipe) Read(b []byte) (int, error) { return p.z.Read(b) }

// headerLine is a shard's first line and a header line saying payload
// bytes follow.
func headerLine(t testing.TB, payload int64) []byte {
	h := testShards(t, 1, 1)[0].Header
	h.Format, h.PayloadBytes = ShardFormat, payload
	hj, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	return append([]byte(fmt.Sprintf("%s%d\n", ShardMagic, ShardFormat)), append(hj, '\n')...)
}

// allocated is the number of bytes the heap allocated while f ran.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestReadShardBoundedMemory: huge and hostile shard files are refused
// after allocating at most a few MiB, whatever their size, from a regular
// file or from a pipe (issue 27: a 300 MB file of zeros after a valid
// first line took 631 MB under --memory 64MiB, 0.8–1.1 GB from a pipe; a
// 1.2 GB one was read whole, 2.8 GB, before the refusal). Bytes, not time.
// Not parallel: it measures the process's allocations.
func TestReadShardBoundedMemory(t *testing.T) {
	const mib = 1 << 20
	first := []byte(fmt.Sprintf("%s%d\n", ShardMagic, ShardFormat))
	budget := func() *engine.Budget {
		b := engine.NewBudget(context.Background(), 64*mib)
		b.SuggestSim = false
		return b
	}
	cases := []struct {
		name string
		r    func() io.Reader
		size int64
		want string
		most uint64
	}{
		{"zeros after the first line, 300 MB", func() io.Reader { return &zeroFile{head: first, size: 300e6} }, 300e6, "no header", mib},
		{"zeros after the first line, 1.2 GB", func() io.Reader { return &zeroFile{head: first, size: 1.2e9} }, 1.2e9, "no header", mib},
		{"zeros from a pipe", func() io.Reader { return pipe{&zeroFile{head: first, size: 1 << 40}} }, -1, "no header", mib},
		{"a header for 300 MB of zeros", func() io.Reader {
			h := headerLine(t, 300e6)
			return &zeroFile{head: h, size: int64(len(h)) + 300e6 + trailerLen}
		}, -2, "needs about 4.5 GiB (the memory budget is 64 MiB)", mib},
		{"a header for 300 MB, from a pipe", func() io.Reader {
			return pipe{&zeroFile{head: headerLine(t, 300e6), size: 1 << 40}}
		}, -1, "the memory budget is 64 MiB", mib},
		{"a header for 3 MB of zeros", func() io.Reader {
			h := headerLine(t, 3e6)
			return &zeroFile{head: h, size: int64(len(h)) + 3e6 + trailerLen}
		}, -2, "checksum", 2 * mib},
		{"a header for 3 MB, then zeros from a pipe", func() io.Reader {
			return pipe{&zeroFile{head: headerLine(t, 3e6), size: 1 << 40}}
		}, -1, "checksum", 2 * mib},
		{"a header for 3 MB, a short file", func() io.Reader {
			h := headerLine(t, 3e6)
			return &zeroFile{head: h, size: int64(len(h)) + 1e6}
		}, -2, "truncated or damaged", mib},
		{"a header line of 100 MB", func() io.Reader {
			return &zeroFile{head: append(append(first, slicesRepeat('{', 2*MaxShardHeader)...), '\n'), size: 100e6}
		}, -2, "no header within", 5 * mib}, // the header limit, read in growing pieces
	}
	for _, c := range cases {
		r := c.r()
		size := c.size
		if size == -2 {
			size = r.(*zeroFile).size
		}
		var err error
		n := allocated(func() { _, err = ReadShardFrom("big.shard", r, size, budget()) })
		if err == nil || !mechanics.IsInput(err) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "big.shard") && !strings.Contains(err.Error(), "big.shard") {
			t.Errorf("%s: %v; want bad input saying %q", c.name, err, c.want)
		}
		if n > c.most {
			t.Errorf("%s: %d bytes allocated; want at most %d", c.name, n, c.most)
		}
	}
}

func slicesRepeat(b byte, n int) []byte { return bytes.Repeat([]byte{b}, n) }

// TestReadShardFromPipe: a whole shard read from a stream of unknown size
// is the shard; bytes after its checksum, or a stream that ends early,
// are refused.
func TestReadShardFromPipe(t *testing.T) {
	t.Parallel()
	s := testShards(t, 2, 1)[1]
	data := encode(t, s)
	got, err := ReadShardFrom("p", io.MultiReader(bytes.NewReader(data)), -1, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := ReadShard("p", data)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("from a pipe: %+v; want %+v", got, want)
	}
	if _, err := ReadShardFrom("p", io.MultiReader(bytes.NewReader(data), strings.NewReader("x")), -1, nil); err == nil || !strings.Contains(err.Error(), "after the checksum") {
		t.Errorf("trailing bytes: %v", err)
	}
	for _, n := range []int{len(data) - 1, len(data) - trailerLen, len(data) / 2} {
		if _, err := ReadShardFrom("p", io.MultiReader(bytes.NewReader(data[:n])), -1, nil); err == nil || !mechanics.IsInput(err) {
			t.Errorf("cut to %d bytes: %v", n, err)
		}
	}
}

// TestReadShardReadError: a failure to read is not bad input.
func TestReadShardReadError(t *testing.T) {
	t.Parallel()
	data := encode(t, testShards(t, 2, 1)[0])
	r := io.MultiReader(bytes.NewReader(data[:len(data)-100]), errReader{})
	_, err := ReadShardFrom("e", r, -1, nil)
	var re *ShardReadError
	if err == nil || mechanics.IsInput(err) || !errorsAs(err, &re) {
		t.Errorf("read error: %v", err)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, fmt.Errorf("input/output error") }

func errorsAs(err error, target **ShardReadError) bool {
	for e := err; e != nil; {
		if r, ok := e.(*ShardReadError); ok {
			*target = r
			return true
		}
		u, ok := e.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		e = u.Unwrap()
	}
	return false
}
