// Package peers measures the SDK beside what a Go user would pick
// instead: clients generated from the service's own OpenAPI document by
// ogen and oapi-codegen, and net/http with encoding/json, against a floor,
// net/http reading each body and decoding nothing. It is a module of its
// own so that the generators' runtimes stay out of the library's go.mod.
//
// The benchmarks (activity_test.go, package_test.go, walk_test.go, their
// harness in peers_test.go) need the -bench flag; BENCHMARKS.md says how
// to run them and what they measured. A plain test run checks, without
// timing anything, that every client decoded the same data.
package peers
