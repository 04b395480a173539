// Package served compares what the service served with what a command
// asked for: the service answers a kind, sort, filter, page size or range
// it does not support with its default, without an error, and a command
// says each difference once on stderr.
package served

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gamedata-go/gamedata"
)

// The service turns a kind, sort, filter or range it does not support
// into its default, without an error (SERVICE.md, 4.3 and 7): a
// misspelt --sort gives the default order, an unknown --filter is
// dropped, --range bogus gives seven days. The response says what it
// served, so a command compares that with what it asked and says each
// difference once on stderr; it says nothing about a member the service
// does not send.

// Asked is what a directory command asked for.
type Asked struct {
	Kind     string
	Sort     string
	Filters  []string
	PageSize int
}

// Notices are the differences between what a directory page served
// (its envelope and its pagination) and what was asked, a sentence each.
func Notices(asked Asked, envelope gamedata.Fields, pagination gamedata.Pagination) []string {
	var out []string
	if asked.Kind != "" {
		if raw, ok := envelope.Raw("kind"); ok {
			served, _ := envelope.Text("kind")
			switch {
			case string(raw) == "null":
				out = append(out, fmt.Sprintf("kind %q is not supported; the service sent every kind of package", asked.Kind))
			case served.Unsanitized() != asked.Kind:
				out = append(out, fmt.Sprintf("kind %q is not supported; the service sent kind %s", asked.Kind, served.Unsanitized()))
			}
		}
	}
	if asked.Sort != "" {
		if served, ok := envelope.Text("sort"); ok && served.Unsanitized() != asked.Sort {
			out = append(out, fmt.Sprintf("sort %q is not supported; the service sorted by %s", asked.Sort, served.Unsanitized()))
		}
	}
	if len(asked.Filters) > 0 {
		if served, ok := servedFilters(envelope); ok {
			for _, f := range asked.Filters {
				if !slices.Contains(served, f) {
					out = append(out, fmt.Sprintf("filter %q is not supported; the service applied %s", f, filterList(served)))
				}
			}
		}
	}
	if asked.PageSize > 0 {
		if n, ok := pagination.Metric("pageSize").Get(); ok && n != float64(asked.PageSize) {
			out = append(out, fmt.Sprintf("page size %d was not kept; the service sent pages of %s", asked.PageSize, strconv.FormatFloat(n, 'f', -1, 64)))
		}
	}
	return out
}

// servedFilters reads the filters member of a directory page: the filters
// the service applied, when it says.
func servedFilters(envelope gamedata.Fields) ([]string, bool) {
	var f struct {
		Filters *[]string `json:"filters"`
	}
	if envelope.Decode(&f) != nil || f.Filters == nil {
		return nil, false
	}
	return *f.Filters, true
}

func filterList(filters []string) string {
	if len(filters) == 0 {
		return "no filter"
	}
	return "only " + strings.Join(filters, ", ")
}

// Range is the range an activity history says it covers, or asked
// when it does not say; its notice says when that is not the range asked
// for.
func Range(asked string, h *gamedata.ActivityHistory) (string, string) {
	served, ok := h.Fields.Text("range")
	if !ok {
		return asked, ""
	}
	if s := served.Unsanitized(); asked != "" && s != asked {
		return s, fmt.Sprintf("range %q is not supported; the service sent %s", asked, s)
	}
	return served.Unsanitized(), ""
}
