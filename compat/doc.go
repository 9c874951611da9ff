// Package compat holds the compatibility suite: tests that play the
// provider's published client and webhook receiver samples, re-implemented
// in Go line by line from their documented logic, against the real server
// (the sandbox, with a brand header prefix). Nothing in the suite uses this
// project's own signing code: every signature is computed the way the
// samples compute it, so a drift on either side fails here.
package compat
