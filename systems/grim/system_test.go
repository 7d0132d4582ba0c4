package grim

import (
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
)

func TestSystem(t *testing.T) {
	mechtest.CheckSystem(t, mechtest.System{Name: "grim", Mechanics: Mechanics(), Extra: extraConfigs})
}
