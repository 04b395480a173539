// Package conformance holds a test, in a module of its own so that the
// library keeps its four dependencies, that validates every request the
// SDK sends and every response the twin (gamedatatest) gives, across a
// fault-free matrix of every endpoint, against the twin's own published
// OpenAPI 3.1 document, with a third-party validator
// (github.com/pb33f/libopenapi-validator). The twin and its document
// cannot drift apart without this test failing.
package conformance
