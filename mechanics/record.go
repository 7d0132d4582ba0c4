package mechanics

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// FieldKind is the type of one field of an outcome record.
type FieldKind uint8

// Field kinds.
const (
	// IntField is a bounded integer.
	IntField FieldKind = iota
	// FlagField is yes/no.
	FlagField
	// EnumField is one of a list of labels.
	EnumField
	// ScaledField is a rational on a fixed lattice: the value is an integer
	// number of units of 1/Den (damage on halves, tenths…), so that an
	// unrounded value stays exact.
	ScaledField
)

func (k FieldKind) String() string {
	return [...]string{"int", "flag", "enum", "scaled"}[k]
}

// Field declares one named field of an outcome record. Build fields with
// Int, Flag, Enum and Scaled.
type Field struct {
	Name, Doc string
	// Unit names the unit of an Int or Scaled value ("m", "wounds"), for
	// axis labels.
	Unit string
	Kind FieldKind
	// Lo and Hi bound the stored integer (units of 1/Den for a Scaled
	// field, the label index for an Enum, 0/1 for a Flag).
	Lo, Hi int
	// Den is the denominator of a Scaled field (1 otherwise).
	Den    int
	Labels []string
}

// Int declares an integer field with values in [lo, hi].
func Int(name string, lo, hi int, doc string) Field {
	return Field{Name: name, Doc: doc, Kind: IntField, Lo: lo, Hi: hi, Den: 1}
}

// Flag declares a yes/no field.
func Flag(name, doc string) Field {
	return Field{Name: name, Doc: doc, Kind: FlagField, Lo: 0, Hi: 1, Den: 1}
}

// Enum declares a field taking one of the labels (stored as the index).
func Enum(name, doc string, labels ...string) Field {
	return Field{Name: name, Doc: doc, Kind: EnumField, Lo: 0, Hi: len(labels) - 1, Den: 1, Labels: labels}
}

// Scaled declares a rational field on the lattice 1/den with values in
// [lo/den, hi/den] (lo and hi are given in units).
func Scaled(name string, den, lo, hi int, doc string) Field {
	return Field{Name: name, Doc: doc, Kind: ScaledField, Lo: lo, Hi: hi, Den: den}
}

// In sets the unit of a numeric field.
func (f Field) In(unit string) Field { f.Unit = unit; return f }

// Format prints a stored value the way a person reads it.
func (f Field) Format(v int) string {
	switch f.Kind {
	case FlagField:
		if v != 0 {
			return "yes"
		}
		return "no"
	case EnumField:
		if v >= 0 && v < len(f.Labels) {
			return f.Labels[v]
		}
	case ScaledField:
		return expr.Frac(int64(v), int64(f.Den)).String()
	}
	return strconv.Itoa(v)
}

// Value is the field's value for a stored integer.
func (f Field) Value(v int) expr.Rat {
	if f.Kind == ScaledField {
		return expr.Frac(int64(v), int64(f.Den))
	}
	return expr.Int(int64(v))
}

// Record is the declared type of a model's outcome: named, typed fields. The
// framework encodes a record into one integer (mixed radix, the first field
// varying fastest) so that both engines keep working on integer outcomes;
// mechanics set and read fields through Slots and never pack bits by hand.
type Record struct {
	Fields []Field
	stride []int
	size   int
	start  int
}

// maxRecordSize bounds the number of distinct encoded records.
const maxRecordSize = 1 << 52

// NewRecord declares a record. It panics (the declaration is a programming
// error) on a duplicate or empty name, an empty range, an enum without
// labels, a Scaled field with Den < 1, or more than 2⁵² combinations.
func NewRecord(fields ...Field) *Record {
	r, err := MakeRecord(fields...)
	if err != nil {
		panic(err.Error())
	}
	return r
}

// MakeRecord is NewRecord for fields that come from input (a designer's
// rule, whose rolls may be too many or too wide to hold jointly): a
// declaration NewRecord would panic on is returned as an error with the
// same message.
func MakeRecord(fields ...Field) (*Record, error) {
	r := &Record{Fields: fields, stride: make([]int, len(fields)), size: 1}
	seen := map[string]bool{}
	for i, f := range fields {
		switch {
		case f.Name == "" || strings.ContainsAny(f.Name, " \t\n=,"):
			return nil, fmt.Errorf("mechanics: record field name %q", f.Name)
		case seen[f.Name]:
			return nil, errors.New("mechanics: duplicate record field " + f.Name)
		case f.Lo > f.Hi:
			return nil, fmt.Errorf("mechanics: record field %s has the empty range [%d, %d]", f.Name, f.Lo, f.Hi)
		case f.Kind == EnumField && len(f.Labels) == 0:
			return nil, errors.New("mechanics: enum field " + f.Name + " has no labels")
		case f.Den < 1:
			return nil, errors.New("mechanics: field " + f.Name + " needs a denominator ≥ 1")
		}
		seen[f.Name] = true
		radix := f.Hi - f.Lo + 1
		r.stride[i] = r.size
		if radix <= 0 || r.size > maxRecordSize/radix {
			return nil, fmt.Errorf("mechanics: record with field %s has more than 2^52 values", f.Name)
		}
		r.size *= radix
	}
	// The start record has every field at 0 where 0 is in range, else at Lo.
	for i, f := range fields {
		if f.Lo < 0 && f.Hi >= 0 {
			r.start += -f.Lo * r.stride[i]
		}
	}
	return r, nil
}

// Size is the number of distinct records: codes are 0..Size()-1.
func (r *Record) Size() int { return r.size }

// Start is the code of the record with every field at 0 (or at its lowest
// value where 0 is out of range): the usual starting point for Slot.Set.
func (r *Record) Start() int { return r.start }

// Index returns the position of a named field, or −1.
func (r *Record) Index(name string) int {
	for i, f := range r.Fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// Slot is the handle of one field, looked up by name once when the model is
// built and used to set and read the field on every trial.
type Slot struct {
	// The hot fields first; the field's declaration (name, kind, bounds,
	// denominator) behind a pointer, so that a Slot travels in registers.
	lo, radix, stride int
	// Codes below fastBelow = ⌊(2⁶⁴−1)/d⌋, d = stride·radix, are read by
	// multiplication instead of two hardware divisions by numbers the
	// compiler cannot see: with magic = ⌈2⁶⁴/d⌉, the low word of magic·code
	// is frac(code/d)·2⁶⁴ and the high word of that times radix is
	// ⌊code/stride⌋ mod radix (Lemire, Kaser & Kurz 2019, "Faster remainder
	// by direct computation", with the divisor d = stride·radix; exact while
	// code·d < 2⁶⁴, which holds for every code of a record of up to 2³²
	// values).
	fastBelow, magic uint64
	f                *Field
}

// Slot returns the handle of a named field. It panics if there is none.
func (r *Record) Slot(name string) Slot {
	i := r.Index(name)
	if i < 0 {
		panic("mechanics: record has no field " + name)
	}
	f := r.Fields[i]
	return newSlot(f.Lo, r.stride[i], f.Hi-f.Lo+1, &r.Fields[i])
}

func newSlot(lo, stride, radix int, f *Field) Slot {
	d := uint64(stride) * uint64(radix) // ≤ 2⁵² (maxRecordSize)
	// ⌈2⁶⁴/d⌉; for d = 1 it wraps to 0, which reads 0 = the only value.
	return Slot{lo: lo, stride: stride, radix: radix, f: f, fastBelow: ^uint64(0) / d, magic: ^uint64(0)/d + 1}
}

// Get reads the stored integer of the field (units for Scaled fields).
func (s Slot) Get(code int) int {
	if u := uint64(code); u < s.fastBelow {
		r, _ := bits.Mul64(s.magic*u, uint64(s.radix))
		return int(r) + s.lo
	}
	return (code/s.stride)%s.radix + s.lo
}

// Bool reads a flag.
func (s Slot) Bool(code int) bool { return s.Get(code) != 0 }

// Set returns the code with the field replaced by v (the stored integer:
// the value, the enum index, 0/1, or units of 1/Den). It panics if v is out
// of the declared range, with a Fault: a model that produces an undeclared
// value is wrong, and the engines report the fault as a model error (or,
// where they tabulate a step over states the chain may never reach, leave
// that table out).
func (s Slot) Set(code, v int) int {
	if uint(v-s.lo) >= uint(s.radix) {
		panic(Fault{outsideField{s.f, v}})
	}
	return code + (v-s.Get(code))*s.stride
}

// outsideField is the error of the Fault Set panics with: a model stored a
// value outside a field's declared range (an error value, so that Set stays
// small enough to inline).
type outsideField struct {
	f *Field
	v int
}

func (e outsideField) Error() string {
	return fmt.Sprintf("mechanics: field %s = %d is outside its declared range [%d, %d]", e.f.Name, e.v, e.f.Lo, e.f.Hi)
}

// SetBool sets a flag.
func (s Slot) SetBool(code int, b bool) int {
	v := 0
	if b {
		v = 1
	}
	return s.Set(code, v)
}

// SetRat sets a Scaled field to an exact rational; it panics with a Fault
// if v is not on the field's lattice or out of its range.
func (s Slot) SetRat(code int, v expr.Rat) int {
	u := v.Mul(expr.Int(int64(s.f.Den)))
	if !u.IsInt() {
		Raise("mechanics: field %s = %s is not a multiple of 1/%d", s.f.Name, v, s.f.Den)
	}
	if u.N < math.MinInt32 || u.N > math.MaxInt32 {
		Raise("mechanics: field %s = %s is outside its declared range", s.f.Name, v)
	}
	return s.Set(code, int(u.N))
}

// Values decodes every field's value into vals (len(r.Fields)).
func (r *Record) Values(code int, vals []expr.Rat) {
	for i, f := range r.Fields {
		v := (code/r.stride[i])%(f.Hi-f.Lo+1) + f.Lo
		vals[i] = f.Value(v)
	}
}

// Format prints a record as "name=value …".
func (r *Record) Format(code int) string {
	var b strings.Builder
	for i, f := range r.Fields {
		if i > 0 {
			b.WriteByte(' ')
		}
		v := (code/r.stride[i])%(f.Hi-f.Lo+1) + f.Lo
		name := f.Name
		if strings.HasPrefix(name, "_") && f.Doc != "" {
			name = "[" + f.Doc + "]" // an anonymous part: what it was written as
		}
		b.WriteString(name + "=" + f.Format(v))
	}
	return b.String()
}

// Resolve is the field resolver for expr.Compile.
func (r *Record) Resolve(name string) (int, bool) {
	i := r.Index(name)
	return i, i >= 0
}

// Prefixed returns copies of the record's fields with the prefix added to
// their names, for a record that holds several sub-records ("actor_roll",
// "opponent_roll").
func (r *Record) Prefixed(prefix string) []Field {
	out := make([]Field, len(r.Fields))
	for i, f := range r.Fields {
		f.Name = prefix + f.Name
		out[i] = f
	}
	return out
}

// Embedding copies a sub-record into the prefixed fields of a larger
// record (declared with sub.Prefixed(prefix)).
type Embedding struct {
	src, dst []Slot
}

// Embed returns the embedding of sub under prefix. It panics if r lacks one
// of the prefixed fields.
func (r *Record) Embed(prefix string, sub *Record) Embedding {
	var e Embedding
	for _, f := range sub.Fields {
		e.src = append(e.src, sub.Slot(f.Name))
		e.dst = append(e.dst, r.Slot(prefix+f.Name))
	}
	return e
}

// Put copies the fields of the sub-record code sub into code.
func (e Embedding) Put(code, sub int) int {
	for i, s := range e.src {
		code = e.dst[i].Set(code, s.Get(sub))
	}
	return code
}

// Get extracts the sub-record's code from code.
func (e Embedding) Get(code int) int {
	sub := 0
	for i, s := range e.src {
		sub = s.Set(sub, e.dst[i].Get(code))
	}
	return sub
}

// Joint is the record rec built from two independent sub-records: x's
// value embedded by ex and y's by ey.
func Joint(rec *Record, x Node, ex Embedding, y Node, ey Embedding) Node {
	start := rec.Start()
	return Combine{X: x, Y: y, Name: "joint record", F: func(a, b int) int { return ey.Put(ex.Put(start, a), b) }}
}
