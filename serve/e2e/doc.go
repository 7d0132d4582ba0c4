// Package e2e holds the end-to-end tests of the workbench ('oddsmith
// serve'): they build the oddsmith command, start its server on a loopback
// port and drive the page in a real headless Chromium (chromedp) — pick a
// mechanic, move a slider, write a rule with an error and fix it, pin and
// compare, simulate and cancel, tune, open a shared link in a fresh tab and
// download a CSV — checking every number against the command line and
// failing on any console error. Each step leaves a screenshot in
// $ODDSMITH_E2E_ARTIFACTS (default: a temporary directory of the test).
//
// Where no Chromium is installed (Debian's chromium package, or the browser
// that ODDSMITH_CHROMIUM names) the tests skip and say so; .ci/run installs
// Chromium and sets ODDSMITH_E2E_REQUIRE=1 so that there a missing browser
// fails instead.
package e2e
