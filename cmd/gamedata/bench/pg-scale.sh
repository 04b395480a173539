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
export GAMEDATA_SCALE_PG="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
i=1
while [ "$i" -le "$rounds" ]; do
	for b in "$old" "$new"; do
		printf 'round %d %s: ' "$i" "$b"
		nice -n 19 "$b" -test.run '^$' -test.bench 'BenchmarkScale/postgres$' -test.benchtime 1x -test.v 2>&1 |
			grep -o 'runs after the first: .*' || echo failed
	done
	i=$((i + 1))
done
