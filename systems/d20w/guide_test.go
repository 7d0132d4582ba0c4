package d20w

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestGuideMatchesSource keeps docs/adding-a-mechanic.md true: every Go
// block marked with <!-- file: PATH --> must appear verbatim in that file.
func TestGuideMatchesSource(t *testing.T) {
	t.Parallel()
	guide, err := os.ReadFile("../../docs/adding-a-mechanic.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)<!-- file: (\\S+) -->\n```go\n(.*?)```").FindAllStringSubmatch(string(guide), -1)
	if len(blocks) < 5 {
		t.Fatalf("found %d marked Go blocks in the guide", len(blocks))
	}
	for _, b := range blocks {
		src, err := os.ReadFile("../../" + b[1])
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(src), b[2]) {
			t.Errorf("the guide's block from %s is not in the source:\n%s", b[1], b[2])
		}
	}
}
