package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/printer"
	"github.com/spf13/cobra"
)

// apiOptions are api's options.
type apiOptions struct {
	common
	// Fields are -f's key=value pairs, in the order given.
	Fields []string
	// Paginate walks a directory's every page into one document.
	Paginate bool
	// Request is what PATH and Fields ask for, once checked.
	Request apiRequest
}

func newCmdAPI(f *factory, runF func(context.Context, *apiOptions) error) *cobra.Command {
	opts := &apiOptions{}
	if runF == nil {
		runF = apiRun
	}
	cmd := &cobra.Command{
		Use:   "api PATH",
		Short: "Read a path of the service and print its body as sent",
		Long: `Read a path of the service with a GET and print the JSON it sends, as
sent: on one line in a pipe, indented on a terminal, every control, bidi
and invisible character of its text escaped. PATH is one of the paths
below, an identifier in it escaped as in a URL (a/b as a%2Fb); its query
and each -f key=value are the query parameters. The request is the
SDK's call for that path, with its retries, rate limit, cache and
redirect rules.

--paginate walks a directory from the page its query names (1 by
default) through the SDK's walk, which reads each entry once, follows
hasNext and bounds a directory that never ends, and prints one
document: the first page with every entry in place of its items, and a
pagination that says so (hasNext false; firstPage and lastPage, the
pages it holds). --jq and --template run once, on that document: --jq
'.items | length' prints the number of entries.

An answer that is not 2xx has its body said on stderr, and the command
exits 1. It gives up after ` + defaultTimeout.String() + ` unless --timeout says otherwise;
with --paginate it has no bound unless --timeout gives one.

The paths:
` + routesHelp(),
		Example: "  gamedata api '/api/dashboard?kind=game' -f pageSize=5\n" +
			"  gamedata api /api/dashboard -f kind=game --paginate --jq '.items | length'\n" +
			"  gamedata api /api/packages/game/neon-miner --jq .title\n" +
			"  gamedata api /openapi.json --jq '.paths | keys'",
		Args: message.ExactArgs(1, "PATH, such as /api/dashboard"),
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if opts.Request, err = parseAPIRequest(args[0], opts.Fields); err != nil {
				return err
			}
			if opts.Paginate && !opts.Request.isDirectory() {
				return message.Usagef("api %s --paginate: not a directory; --paginate walks /api/dashboard and /api/organizations", opts.Request.Path)
			}
			bound := defaultTimeout
			if opts.Paginate {
				bound = 0
			}
			if err := f.complete(cmd, &opts.common, bound); err != nil {
				return err
			}
			return execute(cmd.Context(), opts.common, func(ctx context.Context) error { return runF(ctx, opts) })
		},
	}
	cmd.Flags().StringArrayVarP(&opts.Fields, "field", "f", nil, "a query parameter, key=value; repeat it for more")
	cmd.Flags().BoolVar(&opts.Paginate, "paginate", false, "read every page of a directory, from the page asked for on, into one document")
	f.addServiceFlags(cmd, &opts.common)
	opts.addTimeoutFlag(cmd, pageBound+", and no limit with --paginate")
	opts.TransformFlags.RegisterOn(cmd, "the document")
	return cmd
}

func apiRun(ctx context.Context, opts *apiOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	r := opts.Request
	var doc []byte
	if opts.Paginate {
		doc, err = paginate(ctx, c, r)
	} else {
		doc, err = r.Route.read(ctx, c, r.Args, r.Query)
	}
	if err != nil {
		return failure(opts.common, r, err)
	}
	if opts.Transform != nil {
		return opts.Transform.Apply(ctx, doc)
	}
	return opts.printJSON(doc)
}

// failure is err, a failed read of r, in words that say what failed: a
// status other than 2xx, whose body is said on stderr first, or a page
// the service redirected because the directory ends before it.
func failure(c common, r apiRequest, err error) error {
	var apiErr *gamedata.APIError
	switch {
	case errors.As(err, &apiErr):
		return statusFailure(c, r, err, apiErr)
	case errors.Is(err, gamedata.ErrPageOutOfRange) && r.Query.Get("page") != "":
		return &message.Explained{Msg: fmt.Sprintf("api %s: page %s is past the directory's end; give a smaller page", r.Path, r.Query.Get("page")), Err: err}
	}
	return err
}

// statusFailure is err, whose *APIError apiErr says the service answered
// r with a status other than 2xx: its body is said on stderr first, as
// sent and safe to print, and err as that status.
func statusFailure(c common, r apiRequest, err error, apiErr *gamedata.APIError) error {
	body := bytes.TrimSpace(apiErr.Body)
	if len(body) > 0 {
		line, jerr := printer.SafeJSON(body)
		if jerr != nil { // not JSON, or cut at the bound the SDK keeps
			line = []byte(message.Safe(string(body)))
		}
		fmt.Fprintf(c.IO.errOut, "%s\n", line)
	}
	msg := fmt.Sprintf("api %s", r.Path)
	var pageErr *gamedata.PageError
	if errors.As(err, &pageErr) {
		msg += fmt.Sprintf(" --paginate: page %d", pageErr.Page)
	}
	msg += fmt.Sprintf(": the service answered %d %s", apiErr.StatusCode, http.StatusText(apiErr.StatusCode))
	if apiErr.Attempts > 1 {
		msg += fmt.Sprintf(" after %d attempts", apiErr.Attempts)
	}
	if apiErr.RetryAfter > 0 {
		msg += fmt.Sprintf(", asking to retry after %v", apiErr.RetryAfter)
	}
	if len(body) > 0 {
		msg += "; its body is above"
	}
	return &message.Explained{Msg: msg, Err: err}
}
