// Package licenses holds the tests of the project's licensing, in a module
// of its own so that the library keeps its four dependencies and the
// command none it does not run: the LICENSE at the root is the Apache
// License 2.0, as a license scanner (pkg.go.dev's, among them) recognizes
// it, and every module any module of this repository builds with, tests
// included, is under a license on an allowed list.
package licenses
