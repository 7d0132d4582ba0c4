package notation

import (
	"fmt"

	"github.com/oddsmith/oddsmith/internal/suggest"
)

// SyntaxError is a problem with the text of an expression, at Pos. Msg
// says what was expected and what was found, on one line.
type SyntaxError struct {
	Pos Pos
	Msg string
}

// Error is "line L, column C: problem"; the caller adds the file name.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Pos.Line, e.Pos.Col, e.Msg)
}

// didYouMean is " — did you mean "x"?" or "".
func didYouMean(name string, candidates []string) string {
	if s := suggest.Closest(name, candidates); s != "" {
		return fmt.Sprintf(" — did you mean %q?", s)
	}
	return ""
}
