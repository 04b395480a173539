#!/bin/sh
# pg-scale.sh: BenchmarkScale's PostgreSQL fill by two builds of the store,
# in turn against one PostgreSQL server, so that their ratio is measured in
# one run (BENCHMARKS.md, issue 40). Usage, from cmd/gamedata:
#
#   bench/pg-scale.sh OLD.test NEW.test [ROUNDS]
#
# OLD.test and NEW.test are test binaries of ./internal/store (go test -c);
# GAMEDATA_SCALE_GAMES and GAMEDATA_SCALE_HOURS size the fill as for the
# benchmark. The server is Debian's PostgreSQL 15 with the settings of the
# tests' own (pgtest: fsync off), on a temporary directory and port, run as
# the postgres user when run as root; it is stopped at the end.
set -eu
old=$1 new=$2 rounds=${3:-3}
bin=${PGBIN:-/usr/lib/postgresql/15/bin}
dir=$(mktemp -d /tmp/pg-scale.XXXXXX)
port=${PGPORT_SCALE:-55439}
as=""
if [ "$(id -u)" = 0 ]; then
	chown postgres "$dir"
	as="runuser -u postgres --"
fi
$as "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >/dev/null
$as nice -n 19 "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
	-o "-p $port -c listen_addresses=127.0.0.1 -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null
trap '$as "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null; rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM
export GAMEDATA_SCALE_PG="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
# Each round runs the two builds one after the other; each fill's runs
# after the second (the second rolls up the first hour, every member of
# every game) are the steady runs of an hourly sync, whose median each
# line gives, and the ratio old ÷ new of the round's two medians.
log=$(mktemp /tmp/pg-scale-log.XXXXXX)
i=1
while [ "$i" -le "$rounds" ]; do
	for b in "$old" "$new"; do
		nice -n 19 "$b" -test.run '^$' -test.bench 'BenchmarkScale/postgres$' -test.benchtime 1x -test.v >"$log" 2>&1 || true
		printf 'round %d %s: %s\n' "$i" "$b" "$(grep -o 'runs after the first: .*' "$log" || echo failed)"
		grep -o 'run [0-9]*: .*' "$log" | sed "s|^|round $i $b: |"
		grep -o 'run [0-9]*: .*' "$log" | awk -v round="$i" -v build="$b" '
			function sec(d) { # a Go duration as seconds: 850ms, 1.2s, 1m2.3s
				if (d ~ /ms$/) return substr(d, 1, length(d) - 2) / 1000
				if (d ~ /m/) { split(d, p, "m"); return p[1] * 60 + substr(p[2], 1, length(p[2]) - 1) }
				return substr(d, 1, length(d) - 1) + 0
			}
			function median(a, n,   i, j, t) {
				for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
				return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
			}
			{ h = $2 + 0; if (h < 2) next; n++; run[n] = sec(substr($3, 1, length($3) - 1)); save[n] = sec(substr($5, 1, length($5) - 1)); fin[n] = sec($7) }
			END { if (n) printf "round %d %s: median of %d steady runs %.3fs, SaveEntries %.3fs, FinishRun %.3fs\n", round, build, n, median(run, n), median(save, n), median(fin, n) }'
	done
	i=$((i + 1))
done
rm -f "$log"
