package message

import "testing"

func TestRedactURLs(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`base URL "http://gd:KvSecret7@127.0.0.1:1/api" carries credentials`, `base URL "http://xxxxx@127.0.0.1:1/api" carries credentials`},
		{`base URL "http://127.0.0.1:1/?password=KvSecret7&user=gd" has a query`, `base URL "http://127.0.0.1:1/?password=xxxxx&user=xxxxx" has a query`},
		{`ftp://KvSecret7@host`, `ftp://xxxxx@host`},
		{`http://gd:Kv/Secret7@host/p?KvSecret7#KvSecret7`, `http://xxxxx@host/p?xxxxx#xxxxx`},
		{`http://gd:KvSecret7%zz@host:1/ and https://x:y@z/`, `http://xxxxx@host:1/ and https://xxxxx@z/`},
		{`http://gd:KvSecret7@`, `http://xxxxx@`},
		{`no URL here: gd:KvSecret7@host`, `no URL here: gd:KvSecret7@host`},
		{`GET http://127.0.0.1:9/api/dashboard: refused`, `GET http://127.0.0.1:9/api/dashboard: refused`},
		{``, ``},
	} {
		if got := RedactURLs(tc.in); got != tc.want {
			t.Errorf("RedactURLs(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}
