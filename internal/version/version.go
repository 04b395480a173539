// Package version holds the library's version where every package of the
// module can read it. gamedatatest writes it into a recording, and cannot
// import the root package for gamedata.Version: the root package's own
// tests import gamedatatest, and Go refuses that cycle in a test build.
package version

// Version is the version of the module, gamedata.Version; a test of the
// root package keeps the two equal.
const Version = "0.2.0"
