package study

import (
	"slices"
	"strings"
	"testing"
)

func TestParseAxisListsAndWords(t *testing.T) {
	for _, c := range []struct {
		in     string
		values []float64
		labels []string
	}{
		{"tn=4..6", []float64{4, 5, 6}, nil},
		{"tn=0..1:0.5", []float64{0, 0.5, 1}, nil},
		{"tn=8,4, 6", []float64{8, 4, 6}, nil},
		{"height=2.5", []float64{2.5}, nil},
		{"opt.crit_count=extra_copies,kept_only", []float64{0, 1}, []string{"extra_copies", "kept_only"}},
		{"surface = standard , rough", []float64{0, 1}, []string{"standard", "rough"}},
		{"opt.x=1,b", []float64{0, 1}, []string{"1", "b"}},
	} {
		a, err := ParseAxis(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if !slices.Equal(a.Values, c.values) || !slices.Equal(a.Labels, c.labels) {
			t.Errorf("%s: values %v labels %q, want %v %q", c.in, a.Values, a.Labels, c.values, c.labels)
		}
		for i, x := range a.Values {
			want := strings.TrimSpace(strings.Split(strings.SplitN(c.in, "=", 2)[1], ",")[min(i, len(strings.Split(c.in, ","))-1)])
			if a.Categorical() && a.Text(x) != want {
				t.Errorf("%s: Text(%v) = %q, want %q", c.in, x, a.Text(x), want)
			}
		}
	}
	for _, c := range []struct{ in, want string }{
		{"tn", "is not name=a..b"},
		{"=1,2", "is not name=a..b"},
		{"tn=4,,5", "value 2 is empty"},
		{"tn=4,5,4", "lists \"4\" twice"},
		{"tn=4,4.0", "lists 4 twice"},
		{"opt.a=x,y,x", "lists \"x\" twice"},
		{"tn=5..4", "end below start"},
	} {
		if _, err := ParseAxis(c.in); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseAxis(%q) = %v, want %q", c.in, err, c.want)
		}
	}
}
