package gm

import (
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
)

func TestSystem(t *testing.T) {
	mechtest.CheckSystem(t, mechtest.System{Name: "gm", Mechanics: Mechanics(), Extra: extraConfigs})
}
