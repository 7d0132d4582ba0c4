// Package gm registers the mechanics of Gods & Monsters (Jerry Stratton):
// a roll-under d20 core, contests resolved when exactly one side succeeds,
// ailments over time, falls, jumps and the smaller rules of its §3.
package gm
