package study

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/sim"
)

// Shards: one run cut into K disjoint slices that run anywhere (the tasks
// of a Slurm job array, a Kubernetes Indexed Job, a cloud batch array),
// each writing a shard file, and merged exactly.
//
// A simulation is cut by chunks (each chunk draws from its own stream
// derived from the seed and the chunk's index, so where a chunk runs does
// not matter); a sweep or a plan is cut by points, each point computed whole
// by one shard. A shard carries the raw integer counts of its simulated
// points (every part of the model) and the computed results of its exact
// points, keyed by what they are (engine, trials, seed and the model's
// fingerprint); merge adds the counts and replays the command with those
// results in place of the engines, so the merged output is written by the
// same code as a single run's and has its bytes.

// ShardFormat is the version of the shard file layout.
const ShardFormat = 1

// ShardMagic starts every shard file, followed by the format number.
const ShardMagic = "oddsmith-shard "

// IndexVars are the environment variables --shard auto/K reads the shard
// index from, in this order: Slurm job arrays, Kubernetes Indexed Jobs, AWS
// Batch array jobs and Google Cloud Batch.
var IndexVars = []string{"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX", "BATCH_TASK_INDEX"}

// MaxShards bounds K.
const MaxShards = 1 << 20

// Shard is shard Index of Count (0 ≤ Index < Count).
type Shard struct {
	Index, Count int
	// From names where the index came from ("" when given), for messages.
	From string
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// ParseShard reads "i/K" or "auto/K" (the index from the first of IndexVars
// that is set, read with getenv). A Slurm array that starts at 1 or any
// other index is shifted by SLURM_ARRAY_TASK_MIN. Errors are bad input.
func ParseShard(s string, getenv func(string) string) (Shard, error) {
	is, ks, ok := strings.Cut(s, "/")
	if !ok {
		return Shard{}, mechanics.Invalid("--shard %q: want i/K (shard i of K, counting from 0) or auto/K", s)
	}
	k, err := strconv.Atoi(ks)
	if err != nil || k < 1 || k > MaxShards {
		return Shard{}, mechanics.Invalid("--shard %q: K must be a whole number from 1 to %d", s, MaxShards)
	}
	sh := Shard{Count: k}
	if is == "auto" {
		for _, v := range IndexVars {
			val := getenv(v)
			if val == "" {
				continue
			}
			i, err := envIndex(val)
			if err != nil {
				return Shard{}, mechanics.Invalid("--shard auto/%d: %s=%q is not a whole number (digits only)", k, v, val)
			}
			sh.From = v
			if v == "SLURM_ARRAY_TASK_ID" {
				if m := getenv("SLURM_ARRAY_TASK_MIN"); m != "" {
					lo, err := envIndex(m)
					if err != nil {
						return Shard{}, mechanics.Invalid("--shard auto/%d: SLURM_ARRAY_TASK_MIN=%q is not a whole number (digits only)", k, m)
					}
					i -= lo
					sh.From = "SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN"
				}
			}
			if i < 0 || i >= k {
				return Shard{}, mechanics.Invalid("--shard auto/%d: %s gives index %d, outside 0..%d (give the array K tasks, e.g. sbatch --array=0-%d)", k, sh.From, i, k-1, k-1)
			}
			sh.Index = i
			return sh, nil
		}
		return Shard{}, mechanics.Invalid("--shard auto/%d: no array index in the environment (set one of %s)", k, strings.Join(IndexVars, ", "))
	}
	i, err := strconv.Atoi(is)
	if err != nil || i < 0 || i >= k {
		return Shard{}, mechanics.Invalid("--shard %q: i must be a whole number from 0 to %d", s, k-1)
	}
	sh.Index = i
	return sh, nil
}

// envIndex reads an array index a scheduler set: decimal digits and
// nothing else (a space, a sign or a '0x' is a damaged variable, not an
// index to guess at).
func envIndex(s string) (int, error) {
	if s == "" || strings.Trim(s, "0123456789") != "" || len(s) > 9 {
		return 0, fmt.Errorf("not an index")
	}
	return strconv.Atoi(s)
}

// Range is the slice [first, last) of total units that shard s runs:
// contiguous, disjoint, covering 0..total over the K shards, sizes within
// one of each other.
func (s Shard) Range(total int64) (first, last int64) {
	k := int64(s.Count)
	return total * int64(s.Index) / k, total * int64(s.Index+1) / k
}

// ShardHeader describes a shard file; it is stored as one line of JSON.
type ShardHeader struct {
	Format  int    `json:"format"`   // ShardFormat
	Version string `json:"oddsmith"` // mechanics.Version of the writer
	// Kind is the command that ran: "sim", "sweep", "solve" or "run" (a command,
	// not an engine.Kind: a sweep or a plan may use both engines).
	Kind string `json:"kind"`
	// Args are the command's canonical arguments (without the shard, the
	// output and the worker count), which merge replays.
	Args []string `json:"args"`
	// Files are the input files the command read (a plan, rule files),
	// with the sha256 of their contents.
	Files map[string]string `json:"files,omitempty"`
	// Fingerprint identifies the whole run: equal for every shard of it.
	Fingerprint string `json:"fingerprint"`
	// What for the summary: the mechanic (sim) or the plan.
	What string `json:"what"`
	// Seed and Trials of a simulation (kind sim); ChunkSize its chunks.
	Seed      uint64 `json:"seed"`
	Trials    int64  `json:"trials"`
	ChunkSize int64  `json:"chunk_size"`
	// Unit is "chunks" (a simulation) or "points" (a sweep or a plan);
	// Total the run's units, First and Last the shard's [First, Last).
	Unit  string `json:"unit"`
	Total int64  `json:"total"`
	Shard int    `json:"shard"`
	Of    int    `json:"of"`
	First int64  `json:"first"`
	Last  int64  `json:"last"`
	// OutputFormat is the --format the command was given (merge's
	// default).
	OutputFormat string `json:"output_format,omitempty"`
	// PayloadBytes is the length of the payload that follows the header.
	PayloadBytes int64 `json:"payload_bytes"`
}

// ShardPoint is one computed point: the counts of every part of the model
// (simulated points) or the result (exact points).
type ShardPoint struct {
	Key    string
	Counts []sim.Hist
	Result *engine.Result
	// Search holds, for a search point (a solve whose settings depend on
	// its results), the result of every setting the search evaluated.
	Search []ShardPoint
}

// ShardFile is a shard: its header and its points.
type ShardFile struct {
	Header ShardHeader
	Points []ShardPoint
}

type shardPayload struct{ Points []ShardPoint }

// Encode lays the shard file out:
//
//	oddsmith-shard 1\n
//	{header as JSON}\n
//	payload (gob of the points, PayloadBytes long)
//	sha256:<64 hex digits of everything before it>\n
//
// The same shard gives the same bytes (no time, host or worker count).
func (f *ShardFile) Encode() ([]byte, error) {
	var payload bytes.Buffer
	if err := gob.NewEncoder(&payload).Encode(shardPayload{f.Points}); err != nil {
		return nil, err
	}
	h := f.Header
	h.Format, h.PayloadBytes = ShardFormat, int64(payload.Len())
	hj, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s%d\n", ShardMagic, ShardFormat)
	b.Write(hj)
	b.WriteByte('\n')
	b.Write(payload.Bytes())
	sum := sha256.Sum256(b.Bytes())
	fmt.Fprintf(&b, "sha256:%s\n", hex.EncodeToString(sum[:]))
	return b.Bytes(), nil
}

// trailerLen is the length of "sha256:<64 hex>\n".
const trailerLen = 7 + 64 + 1

// maxHist bounds a histogram's span and offset in a shard file (larger
// ones come only from a damaged file).
const maxHist = 1 << 40

// ReadShard decodes a shard file named name held in memory. Arbitrary
// bytes give an error (bad input) naming the file and the problem, never a
// panic (FuzzReadShard holds it to that).
func ReadShard(name string, data []byte) (*ShardFile, error) {
	return ReadShardFrom(name, bytes.NewReader(data), int64(len(data)), nil)
}

// Limits of a shard file's parts, read before its payload.
const (
	// MaxShardHeader bounds the header line (the command's arguments and
	// its input files' names: kilobytes).
	MaxShardHeader = 1 << 20
	// ShardExpansion is how many bytes of memory merge may take for a
	// byte of payload: a count of 0 is one byte in the file and eight in
	// memory, and merge holds a shard's counts and their sum.
	ShardExpansion = 16
	// checkAllUpTo is the largest damaged file whose checksum is still
	// worked out, so that a damaged header is reported as the checksum
	// mismatch it is; a larger one is refused on its header.
	checkAllUpTo = 64 << 20
)

// ShardReadError is a failure to read a shard file (an I/O error, not
// damage): a runtime failure rather than bad input.
type ShardReadError struct{ Err error }

func (e *ShardReadError) Error() string { return e.Err.Error() }
func (e *ShardReadError) Unwrap() error { return e.Err }

// ReadShardFrom decodes a shard file named name from r, streaming: its
// first line and header are read (at most MaxShardHeader bytes), the size
// (when known: size ≥ 0, as for a regular file) checked against the
// header's payload length before any payload is read, and the payload
// decoded as it is read and hashed, in buffers of a fixed size, the
// checksum compared at the end. With a budget (b ≠ nil) a payload that
// would not fit what is left of it (ShardExpansion bytes a byte) is
// refused before it is read, with an *engine.MemoryError (bad input), and
// one that fits is held. Damage is bad input naming the file; a failure
// to read r is a *ShardReadError.
func ReadShardFrom(name string, r io.Reader, size int64, b *engine.Budget) (f *ShardFile, err error) {
	bad := func(format string, a ...any) error {
		return mechanics.Invalid("%s: %s", name, fmt.Sprintf(format, a...))
	}
	readErr := func(err error) error {
		return &ShardReadError{fmt.Errorf("cannot read %s: %w", name, err)}
	}
	buf := 64 << 10
	if size >= 0 {
		buf = int(min(int64(buf), max(size+1, 128)))
	}
	br := bufio.NewReaderSize(r, buf)
	// The first line: the magic and the format.
	head, err := br.Peek(64)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, readErr(err)
	}
	nl := bytes.IndexByte(head, '\n')
	if nl < 0 || !bytes.HasPrefix(head, []byte(ShardMagic)) {
		if len(head) < len(ShardMagic) && bytes.HasPrefix([]byte(ShardMagic), head) {
			return nil, bad("truncated shard file (%d bytes)", len(head))
		}
		return nil, bad("not an oddsmith shard file")
	}
	format, err := strconv.Atoi(string(head[len(ShardMagic):nl]))
	if err != nil {
		return nil, bad("not an oddsmith shard file")
	}
	if format != ShardFormat {
		return nil, bad("shard file format %d; this oddsmith (%s) reads format %d: merge with the oddsmith that wrote it", format, mechanics.Version, ShardFormat)
	}
	first := int64(nl + 1)
	if size >= 0 && size < first+trailerLen {
		return nil, bad("truncated shard file (%d bytes, no checksum)", size)
	}
	hash := sha256.New()
	hash.Write(head[:first])
	br.Discard(int(first))
	// A regular file's damage is a checksum mismatch, wherever it is: one
	// whose header cannot be read is hashed (in a bounded buffer) to say
	// so, if it is not too large.
	damaged := func(e error) error {
		if size < 0 || size > checkAllUpTo {
			return e
		}
		ra, ok := r.(io.ReaderAt)
		if !ok {
			return e
		}
		whole := sha256.New()
		if _, err := io.Copy(whole, io.NewSectionReader(ra, 0, size-trailerLen)); err != nil {
			return readErr(err)
		}
		trailer := make([]byte, trailerLen)
		if _, err := ra.ReadAt(trailer, size-trailerLen); err != nil {
			return readErr(err)
		}
		if msg := checkTrailer(trailer, whole.Sum(nil)); msg != "" {
			return bad("%s", msg)
		}
		return e
	}
	// The header line: a JSON object.
	if c, err := br.Peek(1); err == nil && c[0] != '{' {
		return nil, damaged(bad("damaged shard file (no header)"))
	}
	line, err := readLine(br, MaxShardHeader)
	switch {
	case err == errLineTooLong:
		return nil, damaged(bad("damaged shard file (no header within %d bytes)", MaxShardHeader))
	case err == io.EOF:
		return nil, damaged(bad("truncated or damaged shard file (no checksum at the end)"))
	case err != nil:
		return nil, readErr(err)
	}
	hash.Write(line)
	f = &ShardFile{}
	dec := json.NewDecoder(bytes.NewReader(line[:len(line)-1]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f.Header); err != nil {
		return nil, damaged(bad("damaged shard header: %v", err))
	}
	payload := f.Header.PayloadBytes
	if payload < 0 {
		return nil, damaged(bad("damaged shard header: a payload of %d bytes", payload))
	}
	at := first + int64(len(line))
	if size >= 0 && (payload > size || at+payload+trailerLen != size) {
		return nil, damaged(bad("truncated or damaged shard file (%d bytes; the header says %d)", size, at+payload+trailerLen))
	}
	need := engine.MulBytes(payload, ShardExpansion)
	if err := b.Need(need, "", "merging %s (%s of counts in the file)", name, engine.FormatBytes(payload)); err != nil {
		return nil, err
	}
	b.Hold(need)
	// The payload, decoded as it is read and hashed. What the decoder does
	// not take is hashed too; a payload that ends early is damage.
	body := &countingReader{r: io.TeeReader(io.LimitReader(br, payload), hash)}
	var p shardPayload
	decErr := gob.NewDecoder(body).Decode(&p)
	if _, err := io.Copy(io.Discard, body); err != nil {
		return nil, readErr(err)
	}
	if body.err != nil && body.err != io.EOF {
		return nil, readErr(body.err)
	}
	trailer := make([]byte, trailerLen)
	n, err := io.ReadFull(br, trailer)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, readErr(err)
	}
	if body.n < payload || n < trailerLen {
		// The stream ended early (a pipe: its size was not known).
		return nil, bad("truncated shard file (%d bytes, the header says %d)", at+body.n+int64(n), at+payload+trailerLen)
	}
	if msg := checkTrailer(trailer, hash.Sum(nil)); msg != "" {
		return nil, bad("%s", msg)
	}
	if size < 0 {
		if _, err := br.ReadByte(); err != io.EOF {
			if err != nil {
				return nil, readErr(err)
			}
			return nil, bad("damaged shard file (more bytes after the checksum)")
		}
	}
	if decErr != nil {
		return nil, bad("damaged shard payload: %v", decErr)
	}
	f.Points = p.Points
	if err := f.check(); err != nil {
		return nil, bad("%v", err)
	}
	return f, nil
}

// checkTrailer compares a trailer with the sum of what it follows: "" when
// it matches, else what is wrong.
func checkTrailer(trailer, sum []byte) string {
	if !bytes.HasPrefix(trailer, []byte("sha256:")) || trailer[trailerLen-1] != '\n' {
		return "truncated or damaged shard file (no checksum at the end)"
	}
	want, err := hex.DecodeString(string(trailer[7 : trailerLen-1]))
	if err != nil {
		return "truncated or damaged shard file (no checksum at the end)"
	}
	if !bytes.Equal(sum, want) {
		return "checksum mismatch: the file is truncated, damaged or was changed"
	}
	return ""
}

var errLineTooLong = errors.New("line too long")

// readLine reads a line, its newline included, of at most limit bytes
// (errLineTooLong past it; io.EOF when the stream ends without one).
func readLine(br *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		frag, err := br.ReadSlice('\n')
		if len(line)+len(frag) > limit {
			return nil, errLineTooLong
		}
		line = append(line, frag...)
		switch err {
		case nil:
			return line, nil
		case bufio.ErrBufferFull:
			continue
		}
		return nil, err
	}
}

// countingReader counts what it reads and keeps the error that ended it.
type countingReader struct {
	r   io.Reader
	n   int64
	err error
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}

// check validates a decoded shard's header and points against each other.
func (f *ShardFile) check() error {
	h := &f.Header
	if h.Format != ShardFormat {
		return fmt.Errorf("header format %d, want %d", h.Format, ShardFormat)
	}
	switch {
	case h.Kind != "sim" && h.Kind != "sweep" && h.Kind != "run" && h.Kind != "solve":
		return fmt.Errorf("unknown kind %q", h.Kind)
	case h.Unit != "chunks" && h.Unit != "points":
		return fmt.Errorf("unknown unit %q", h.Unit)
	case h.Of < 1 || h.Of > MaxShards || h.Shard < 0 || h.Shard >= h.Of:
		return fmt.Errorf("shard %d/%d is not a shard", h.Shard, h.Of)
	case h.Total < 0 || h.Total > MaxTrials:
		return fmt.Errorf("%d %s in all is out of range", h.Total, h.Unit)
	case h.Trials < 0 || h.Trials > MaxTrials || h.ChunkSize < 1:
		return fmt.Errorf("trials %d, chunk size %d are out of range", h.Trials, h.ChunkSize)
	}
	if first, last := (Shard{Index: h.Shard, Count: h.Of}).Range(h.Total); h.First != first || h.Last != last {
		return fmt.Errorf("range %d..%d is not the range of shard %d/%d of %d %s (%d..%d)", h.First, h.Last, h.Shard, h.Of, h.Total, h.Unit, first, last)
	}
	for _, p := range f.Points {
		if p.Search != nil {
			for _, q := range p.Search {
				if q.Result == nil || q.Counts != nil || q.Search != nil {
					return fmt.Errorf("search point %q: setting %q holds no result", p.Key, q.Key)
				}
			}
			if p.Result != nil || p.Counts != nil {
				return fmt.Errorf("search point %q holds a result of its own", p.Key)
			}
			continue
		}
		if (p.Result == nil) == (p.Counts == nil) {
			return fmt.Errorf("point %q holds neither counts nor a result", p.Key)
		}
		for _, c := range p.Counts {
			if c.Lo < -maxHist || c.Lo > maxHist || len(c.Counts) > maxHist {
				return fmt.Errorf("point %q: counts out of range", p.Key)
			}
			for _, n := range c.Counts {
				if n < 0 {
					return fmt.Errorf("point %q: a negative count", p.Key)
				}
			}
		}
	}
	if h.Unit == "chunks" {
		if len(f.Points) != 1 || f.Points[0].Counts == nil {
			return fmt.Errorf("a simulation shard holds one point of counts, this one %d", len(f.Points))
		}
		want := ChunkTrials(h.First, h.Last, h.Trials, h.ChunkSize)
		for i, c := range f.Points[0].Counts {
			if t := c.Total(); t != want {
				return fmt.Errorf("part %d counts %d trials, the range %d..%d has %d", i, t, h.First, h.Last, want)
			}
		}
	} else if int64(len(f.Points)) != h.Last-h.First {
		return fmt.Errorf("%d points for the range %d..%d", len(f.Points), h.First, h.Last)
	}
	return nil
}

// ChunkTrials is the number of trials in chunks [first, last) of a
// simulation of trials trials, chunkSize to a chunk.
func ChunkTrials(first, last, trials, chunkSize int64) int64 {
	return min(last*chunkSize, trials) - min(first*chunkSize, trials)
}

// Trials is the number of trials a point's counts hold (0 for an exact
// point): the sum over its parts.
func (p *ShardPoint) Trials() int64 {
	var n int64
	for _, c := range p.Counts {
		n += c.Total()
	}
	return n
}

// Trials is the number of trials the shard's points simulated.
func (f *ShardFile) Trials() int64 {
	var n int64
	for i := range f.Points {
		n += f.Points[i].Trials()
	}
	return n
}

// Point is one computation of a sweep or a plan.
type Point struct {
	Engine   Engine
	Mechanic *mechanics.Mechanic
	Config   mechanics.Config
	// Search, when set, makes the point a whole search (a solve over one
	// parameter, whose settings depend on its results): one machine runs
	// it and keeps the result of every setting it evaluates.
	Search *Solve
}

// Key names what a point computes: the engine, for a simulation its
// trials and seed, and the model's fingerprint (version, mechanic or rule
// text, canonical parameters and options).
func (p Point) Key() string {
	if p.Search != nil {
		return p.Search.searchKey()
	}
	fp := p.Mechanic.Fingerprint(p.Config)
	if p.Engine.Kind == engine.Sim {
		return fmt.Sprintf("%s trials=%d seed=%d %s", engine.Sim, p.Engine.Trials, p.Engine.Seed, fp)
	}
	return string(p.Engine.Kind) + " " + fp
}

// unique drops repeated points (the same model computed the same way),
// keeping the first.
func unique(pts []Point) []Point {
	seen := map[string]bool{}
	var out []Point
	for _, p := range pts {
		if k := p.Key(); !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	return out
}

// ShardPoints lists the points of a validated sweep, without repeats.
func (s *Sweep) ShardPoints() ([]Point, error) {
	if s.configs == nil {
		if err := s.Validate(); err != nil {
			return nil, err
		}
	}
	return unique(s.points()), nil
}

// points lists the points of a validated sweep, repeats included.
func (s *Sweep) points() []Point {
	var pts []Point
	for _, c := range s.configs {
		pts = append(pts, Point{Engine: s.Engine, Mechanic: s.Mechanic, Config: c})
	}
	return pts
}

// ShardPoints lists every computation of a plan (each analysis's points,
// each overlay series' points, each chart's points, each compare's two
// sides), without repeats, in plan order.
func (p *Plan) ShardPoints() ([]Point, error) {
	var pts []Point
	for i := range p.Analyses {
		s, err := p.Analyses[i].sweep(p)
		if err != nil {
			return nil, err
		}
		if len(s.Axes) == 0 {
			pts = append(pts, Point{Engine: s.Engine, Mechanic: s.Mechanic, Config: s.Base})
			continue
		}
		pts = append(pts, s.points()...)
	}
	for i := range p.Overlays {
		o := &p.Overlays[i]
		for _, s := range o.Series {
			vs, _, err := s.points(o)
			if err != nil {
				return nil, err
			}
			m, cs, err := s.configs(p, vs)
			if err != nil {
				return nil, err
			}
			for _, c := range cs {
				pts = append(pts, Point{Engine: p.exactEngine(), Mechanic: m, Config: c})
			}
		}
	}
	for i := range p.Charts {
		cps, err := p.chartRequests(&p.Charts[i])
		if err != nil {
			return nil, fmt.Errorf("chart %s: %w", p.Charts[i].Name, err)
		}
		pts = append(pts, cps...)
	}
	for i := range p.Compares {
		cps, err := p.comparePoints(&p.Compares[i])
		if err != nil {
			return nil, fmt.Errorf("compare %s: %w", p.Compares[i].Name, err)
		}
		pts = append(pts, cps...)
	}
	for i := range p.Solves {
		sps, err := p.solveRequests(&p.Solves[i])
		if err != nil {
			return nil, fmt.Errorf("solve %s: %w", p.Solves[i].Name, err)
		}
		pts = append(pts, sps...)
	}
	// Plan.Points counts every computation, independently of this list: a
	// table the list missed would be missing from the shards.
	if n := p.Points(); n != len(pts) {
		return nil, fmt.Errorf("the plan counts %d computations but lists %d for its shards: run it on one machine", n, len(pts))
	}
	return unique(pts), nil
}

// RunPoints computes points (several at a time); done is called after
// each. A simulated point keeps the counts of every part of its model, an
// exact point its result.
func RunPoints(ctx context.Context, pts []Point, done func()) ([]ShardPoint, error) {
	out := make([]ShardPoint, len(pts))
	g, gctx := newGroup(ctx, runtime.GOMAXPROCS(0))
	for i, p := range pts {
		g.Go(func() error {
			sp, err := runPoint(gctx, p)
			if err != nil {
				return fmt.Errorf("%s at %s: %w", p.Mechanic.ID, settings(p.Mechanic, p.Config), err)
			}
			out[i] = sp
			if done != nil {
				done()
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	return out, nil
}

func runPoint(ctx context.Context, p Point) (ShardPoint, error) {
	if p.Search != nil {
		return runSearch(ctx, p)
	}
	sp := ShardPoint{Key: p.Key()}
	e := p.Engine
	if e.Kind != engine.Sim {
		e.Source = nil
		r, err := e.Run(ctx, p.Mechanic, p.Config)
		sp.Result = r
		return sp, err
	}
	if err := e.Validate(p.Mechanic); err != nil {
		return sp, err
	}
	spec, err := p.Mechanic.Model(p.Config)
	if err != nil {
		return sp, err
	}
	sp.Counts, err = sim.SimulateChunks(ctx, spec, e.simOptions(), 0, sim.Chunks(e.Trials))
	return sp, err
}

func (e Engine) simOptions() sim.Options {
	return sim.Options{Trials: e.Trials, Seed: e.Seed, Workers: e.Workers, OnProgress: e.OnProgress, MemoryBytes: e.MemoryBytes}
}

// SimShard runs chunks [first, last) of a simulation of m at c: a shard of
// 'oddsmith sim'.
func SimShard(ctx context.Context, e Engine, m *mechanics.Mechanic, c mechanics.Config, first, last int64) (ShardPoint, error) {
	if err := e.Validate(m); err != nil {
		return ShardPoint{}, err
	}
	spec, err := m.Model(c)
	if err != nil {
		return ShardPoint{}, err
	}
	p := Point{Engine: e, Mechanic: m, Config: c}
	hs, err := sim.SimulateChunks(ctx, spec, e.simOptions(), first, last)
	if err != nil {
		return ShardPoint{}, err
	}
	return ShardPoint{Key: p.Key(), Counts: hs}, nil
}

// RunFingerprint is the fingerprint of a whole sharded run: a hash of the
// version, the command, its arguments and input files, the simulation
// settings, the units and the keys of every point.
func RunFingerprint(h ShardHeader, keys []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "oddsmith %s\nshard format %d\n%s\n", mechanics.Version, ShardFormat, h.Kind)
	for _, a := range h.Args {
		fmt.Fprintf(&b, "arg %q\n", a)
	}
	files := make([]string, 0, len(h.Files))
	for f := range h.Files {
		files = append(files, f)
	}
	slices.Sort(files)
	for _, f := range files {
		fmt.Fprintf(&b, "file %q %s\n", f, h.Files[f])
	}
	fmt.Fprintf(&b, "seed %d trials %d chunk %d\n%d %s\n", h.Seed, h.Trials, h.ChunkSize, h.Total, h.Unit)
	for _, k := range keys {
		fmt.Fprintf(&b, "point %s\n", k)
	}
	return mechanics.Fingerprint(b.String())
}

// PointSource computes a point in place of the engines: merge replays a
// command with the shards' results.
type PointSource interface {
	Result(ctx context.Context, e Engine, m *mechanics.Mechanic, c mechanics.Config) (*engine.Result, error)
}

// Merged is the sum of a complete, consistent set of shards: a PointSource.
type Merged struct {
	Header ShardHeader // the first shard's, range aside
	Shards int
	points map[string]*ShardPoint
	// searched are the points held because a search evaluated them: a
	// shard may compute the same setting again (another analysis's).
	searched map[string]bool
}

// MergeShards checks that shards (named by names) are all the shards of
// one run, by this version of oddsmith, none twice and none missing, and
// adds their counts. Every refusal is bad input naming the files.
func MergeShards(names []string, shards []*ShardFile) (*Merged, error) {
	if len(shards) == 0 {
		return nil, mechanics.Invalid("merge needs the shard files of a run")
	}
	if err := sameRun(names, shards); err != nil {
		return nil, err
	}
	order, err := coverage(names, shards)
	if err != nil {
		return nil, err
	}
	h0 := shards[0].Header
	m := &Merged{Header: h0, Shards: len(shards), points: map[string]*ShardPoint{}, searched: map[string]bool{}}
	m.Header.Shard, m.Header.First, m.Header.Last = 0, 0, h0.Total
	for _, i := range order {
		for _, p := range shards[i].Points {
			if !m.add(p) {
				return nil, mechanics.Invalid("%s repeats point %s", names[i], p.Key)
			}
		}
	}
	return m, nil
}

// sameRun refuses shards written by another version of oddsmith, or of
// different runs.
func sameRun(names []string, shards []*ShardFile) error {
	for i, s := range shards {
		if s.Header.Version != mechanics.Version {
			return mechanics.Invalid("%s was written by oddsmith %s, this is oddsmith %s: merge with the version that ran the shards, or rerun them", names[i], s.Header.Version, mechanics.Version)
		}
	}
	h0 := shards[0].Header
	for i, s := range shards[1:] {
		h := s.Header
		if h.Fingerprint != h0.Fingerprint || h.Kind != h0.Kind {
			return mechanics.Invalid("%s and %s are shards of different runs (%s; fingerprints %s and %s)", names[0], names[i+1], differ(h0, h), h0.Fingerprint, h.Fingerprint)
		}
	}
	return nil
}

// coverage checks the shards' ranges: none twice, none overlapping, none
// missing. It returns the shards' indices in the order of their ranges.
func coverage(names []string, shards []*ShardFile) ([]int, error) {
	h0 := shards[0].Header
	byIndex := map[[2]int]int{}
	order := make([]int, len(shards))
	for i, s := range shards {
		id := [2]int{s.Header.Shard, s.Header.Of}
		if j, ok := byIndex[id]; ok {
			return nil, mechanics.Invalid("shard %d/%d is given twice (%s and %s)", id[0], id[1], names[j], names[i])
		}
		byIndex[id] = i
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		ha, hb := shards[a].Header, shards[b].Header
		if ha.First != hb.First {
			return int(ha.First - hb.First)
		}
		return int(ha.Last - hb.Last)
	})
	var missing []string
	next := int64(0)
	for _, i := range order {
		h := shards[i].Header
		if h.First < next {
			prev := ""
			for _, j := range order {
				if hj := shards[j].Header; j != i && hj.First < h.Last && h.First < hj.Last {
					prev = names[j]
					break
				}
			}
			return nil, mechanics.Invalid("%s (%s) overlaps %s: give each shard of the run once", names[i], RangeText(h.Unit, h.First, h.Last), prev)
		}
		if h.First > next {
			missing = append(missing, RangeText(h.Unit, next, h.First))
		}
		next = max(next, h.Last)
	}
	if next < h0.Total {
		missing = append(missing, RangeText(h0.Unit, next, h0.Total))
	}
	if err := missingIndices(shards, byIndex); err != nil {
		return nil, err
	}
	if len(missing) > 0 {
		return nil, mechanics.Invalid("missing shards: no shard holds %s", strings.Join(missing, ", "))
	}
	return order, nil
}

// missingIndices names the shards missing from shards of the same K by
// their indices (an empty shard's range is empty, so it is missed by index
// only); byIndex holds the (index, K) of those given.
func missingIndices(shards []*ShardFile, byIndex map[[2]int]int) error {
	h0 := shards[0].Header
	for _, s := range shards {
		if s.Header.Of != h0.Of {
			return nil
		}
	}
	if len(shards) >= h0.Of {
		return nil
	}
	var idx []string
	for k := range h0.Of {
		if _, ok := byIndex[[2]int{k, h0.Of}]; !ok {
			f, l := (Shard{Index: k, Count: h0.Of}).Range(h0.Total)
			idx = append(idx, fmt.Sprintf("%d/%d (%s)", k, h0.Of, RangeText(h0.Unit, f, l)))
		}
	}
	return mechanics.Invalid("missing shard%s %s: merge needs all %d shards of the run", plural(len(idx)), strings.Join(idx, ", "), h0.Of)
}

// add adds a shard's point: a new one is copied in; a simulation's chunks
// of a point already held add their counts. It reports false for any
// other repeat.
func (m *Merged) add(p ShardPoint) bool {
	have := m.points[p.Key]
	if p.Search != nil {
		if have != nil {
			return false
		}
		m.points[p.Key] = &ShardPoint{Key: p.Key}
		for _, q := range p.Search {
			if m.points[q.Key] == nil {
				cp := q
				m.points[q.Key] = &cp
				m.searched[q.Key] = true
			}
		}
		return true
	}
	if have != nil && m.searched[p.Key] {
		// A search computed it too: the same model, the same way.
		delete(m.searched, p.Key)
		cp := p
		m.points[p.Key] = &cp
		return true
	}
	if have == nil {
		cp := p
		if cp.Counts != nil {
			cp.Counts = make([]sim.Hist, len(p.Counts))
			for j, c := range p.Counts {
				cp.Counts[j].Merge(c)
			}
		}
		m.points[p.Key] = &cp
		return true
	}
	if m.Header.Unit != "chunks" || len(have.Counts) != len(p.Counts) {
		return false
	}
	for j, c := range p.Counts {
		have.Counts[j].Merge(c)
	}
	return true
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// differ says how two shard headers differ, for the refusal.
func differ(a, b ShardHeader) string {
	switch {
	case a.Kind != b.Kind:
		return fmt.Sprintf("'oddsmith %s' and 'oddsmith %s'", a.Kind, b.Kind)
	case a.What != b.What:
		return fmt.Sprintf("%s and %s", a.What, b.What)
	case a.Seed != b.Seed:
		return fmt.Sprintf("seed %d and seed %d", a.Seed, b.Seed)
	case a.Trials != b.Trials:
		return fmt.Sprintf("%d and %d trials", a.Trials, b.Trials)
	case !slices.Equal(a.Args, b.Args):
		return fmt.Sprintf("arguments %q and %q", strings.Join(a.Args, " "), strings.Join(b.Args, " "))
	case a.Total != b.Total:
		return fmt.Sprintf("%d and %d %s", a.Total, b.Total, a.Unit)
	}
	return "different models or input files"
}

// Result returns the merged result of a point: a simulated point's
// figures from the summed counts (exactly as the simulator summarizes its
// own), an exact point's stored result. A point the shards do not hold is
// bad input (the plan or a rule file changed since they ran).
func (m *Merged) Result(ctx context.Context, e Engine, mech *mechanics.Mechanic, c mechanics.Config) (*engine.Result, error) {
	key := Point{Engine: e, Mechanic: mech, Config: c}.Key()
	p := m.points[key]
	if p == nil {
		return nil, mechanics.Invalid("the shards hold no result for %s at %s (%s engine): did the command, the plan or a rule file change since they ran?", mech.ID, settings(mech, c), e.Kind)
	}
	if p.Result != nil {
		return cloneResult(p.Result)
	}
	spec, err := mech.Model(c)
	if err != nil {
		return nil, err
	}
	res := engine.NewResult(mech, c, engine.Sim)
	if err := sim.FromCounts(ctx, spec, e.simOptions(), p.Counts, res); err != nil {
		return nil, err
	}
	return res, nil
}

// Trials is the number of trials the merged shards simulated.
func (m *Merged) Trials() int64 {
	var n int64
	for _, p := range m.points {
		n += p.Trials()
	}
	return n
}

// cloneResult copies a stored result, so that no two callers share one.
func cloneResult(r *engine.Result) (*engine.Result, error) {
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(r); err != nil {
		return nil, err
	}
	out := &engine.Result{}
	err := gob.NewDecoder(&b).Decode(out)
	return out, err
}

// settings prints a configuration's parameters, for messages.
func settings(m *mechanics.Mechanic, c mechanics.Config) string {
	r := engine.NewResult(m, c, "")
	var parts []string
	for _, p := range r.Params {
		parts = append(parts, p.Name+"="+mechanics.FormatNum(p.Value))
	}
	if len(parts) == 0 {
		return "its defaults"
	}
	return strings.Join(parts, " ")
}

// RangeText names the half-open range [first, last) of chunks or points
// for people: "chunks 3–5" (inclusive), "chunk 3", "no chunks".
func RangeText[T int | int64](unit string, first, last T) string {
	one := strings.TrimSuffix(unit, "s")
	switch {
	case last <= first:
		return "no " + unit
	case last == first+1:
		return fmt.Sprintf("%s %d", one, first)
	}
	return fmt.Sprintf("%s %d–%d", unit, first, last-1)
}
