package gamedatatest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"

	"github.com/gamedata-go/gamedata/gamedatatest"
)

func ExampleNewServer() {
	s := gamedatatest.NewServer(gamedatatest.WithSize(45, 10, 5))
	defer s.Close()

	// Point the code under test at s.URL; here, plain net/http.
	resp, err := http.Get(s.URL + "/api/dashboard?kind=game&pageSize=100")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	var page struct {
		Items      []map[string]any
		Pagination struct {
			Page    int
			Total   int
			HasNext bool
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&page); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(page.Items) == len(s.Catalog().Entries(url.Values{"kind": {"game"}})), page.Pagination.HasNext)
	fmt.Println(len(s.Requests()), s.Requests()[0].Path, s.Requests()[0].Status)
	// Output:
	// true false
	// 1 /api/dashboard 200
}

func ExampleServer_SetFaults() {
	s := gamedatatest.NewServer()
	defer s.Close()
	s.SetFaults(gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.Fault503}})

	resp, err := http.Get(s.URL + "/api/organizations")
	if err != nil {
		fmt.Println(err)
		return
	}
	resp.Body.Close()
	fmt.Println(resp.StatusCode, s.Requests()[0].Fault)
	// Output: 503 503
}

func ExampleInjectFaults() {
	mine := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, `{"ok":true}`) })
	// The first attempt at every URL under /api/ fails; a client that
	// retries once recovers.
	fi := gamedatatest.InjectFaults(mine, gamedatatest.Faults{
		Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.Fault500}, Attempts: 1,
	})
	srv := httptest.NewServer(fi)
	defer srv.Close()
	defer fi.Close() // ends any stall before the server closes

	for range 2 {
		resp, err := http.Get(srv.URL + "/api/thing")
		if err != nil {
			fmt.Println(err)
			return
		}
		resp.Body.Close()
		fmt.Println(resp.StatusCode)
	}
	for _, r := range fi.Requests() {
		fmt.Println(r.Path, r.Fault)
	}
	// Output:
	// 500
	// 200
	// /api/thing 500
	// /api/thing none
}
