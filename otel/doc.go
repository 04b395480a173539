// Package gamedataotel instruments a gamedata.Client with OpenTelemetry,
// through the client's public hooks and middleware only: one span per
// call, named by the call's route template ("GET
// /api/packages/{kind}/{ident}", never the concrete path), with the HTTP
// client semantic conventions and the SDK's own attributes; an event on
// it for each attempt; the trace context propagated on every request;
// and the request-duration histogram and counters of cache outcomes and
// throttling, labelled by route template.
//
// It is a module of its own, so the library keeps its four dependencies.
package gamedataotel
