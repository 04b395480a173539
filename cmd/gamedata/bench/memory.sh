#!/bin/sh
# memory.sh: the resident memory of gamedata sync and gamedata exporter at
# a platform's size, each a process of its own against the twin of the
# service in another (bench/twin), so that neither counts the twin's
# catalogue (BENCHMARKS.md, issue 40). Usage, from cmd/gamedata:
#
#   bench/memory.sh sync|exporter|both [PACKAGES [POLLS [EVERY [TOP]]]]
#
# Defaults: 100000 packages, 24 polls 120s apart, --top 25000 games (about
# 100,000 series, which --max-series 100000 caps). sync says the peak
# resident memory of a first sync (every record and report fetched) and a
# second (nothing changed) into a SQLite file, as /usr/bin/time -v counts
# it; exporter, the exporter's resident memory (VmRSS) after each poll
# that succeeded (seen on /healthz) and its peak (VmHWM). Every process
# runs under nice -n 19. A poll must end within --every: at 100,000
# packages the twin sorts the directory for each of the 250 pages, about
# 15 s a poll on an idle core. It takes about an hour at the defaults on
# 2 shared cores: not for CI.
set -eu
what=$1 packages=${2:-100000} polls=${3:-24} every=${4:-120s} top=${5:-25000}
tmp=$(mktemp -d /tmp/gd-memory.XXXXXX)
twin="" exp=""
trap 'for p in $exp $twin; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"' EXIT
GOTOOLCHAIN=auto go build -o "$tmp/gamedata" .
GOTOOLCHAIN=auto go test -c -o "$tmp/twin.test" ./bench/twin
GAMEDATA_TWIN_PACKAGES=$packages nice -n 19 "$tmp/twin.test" -test.run TestServe -test.timeout 0 >"$tmp/url" &
twin=$!
until [ -s "$tmp/url" ]; do sleep 1; done
url=$(head -n 1 "$tmp/url")
echo "twin of $packages packages at $url (pid $twin)"

if [ "$what" != exporter ]; then
	for run in 1 2; do
		/usr/bin/time -v -o "$tmp/time$run" nice -n 19 "$tmp/gamedata" sync --db "$tmp/g.sqlite" \
			--base-url "$url" --rate 0 --cache-dir "$tmp/cache" 2>"$tmp/sync$run.err" || cat "$tmp/sync$run.err"
		echo "sync run $run: $(grep -h 'Maximum resident' "$tmp/time$run" | tr -s ' \t' ' '), \
$(grep -h 'Elapsed' "$tmp/time$run" | tr -s ' \t' ' '); $(tail -n 1 "$tmp/sync$run.err")"
	done
fi
[ "$what" = sync ] && exit 0

port=$((20000 + $$ % 20000))
nice -n 19 "$tmp/gamedata" exporter --base-url "$url" --rate 0 --kind game --top "$top" --max-series 100000 \
	--every "$every" --listen "127.0.0.1:$port" --cache-dir "$tmp/cache-exporter" 2>"$tmp/exporter.err" &
exp=$!
seen=0 last=""
while [ "$seen" -lt "$polls" ]; do
	sleep 1
	now=$(curl -s "http://127.0.0.1:$port/healthz" | grep -o 'started at [^ ,]*' || true)
	if [ -n "$now" ] && [ "$now" != "$last" ]; then
		seen=$((seen + 1)) last=$now
		echo "exporter poll $seen ($now): $(grep VmRSS /proc/$exp/status | tr -s ' \t' ' ')"
	fi
done
echo "exporter after $polls polls: $(grep VmHWM /proc/$exp/status | tr -s ' \t' ' '); \
$(curl -s "http://127.0.0.1:$port/metrics" | grep -c '^gamedata_') series; \
$(grep -c 'poll failed' "$tmp/exporter.err" || true) poll failures logged"
