// Package crosscheck tests the two engines against each other: it computes
// a declared model exactly (package exact) and by simulation (package sim)
// and reports where they disagree. It sits above both engines, which never
// import each other (what they share is in package engine). Every
// mechanic's tests use it, and so does anything that shows a designer
// whether the engines agree.
package crosscheck
