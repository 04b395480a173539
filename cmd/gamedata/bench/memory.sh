#!/bin/sh
# memory.sh: the resident memory of gamedata sync and gamedata exporter at
# a platform's size, each a process of its own against the twin of the
# service in another (bench/twin), so that neither counts the twin's
# catalogue (BENCHMARKS.md, issue 40). Usage, from cmd/gamedata:
#
#   bench/memory.sh [PACKAGES [POLLS [EVERY [TOP]]]]
#
# Defaults: 100000 packages, 24 polls 30s apart, --top 25000 games (about
# 100,000 series, which --max-series 100000 caps). It says the peak
# resident memory of a first sync (every record and report fetched) and a
# second (nothing changed) into a SQLite file, as /usr/bin/time -v counts
# it, then the exporter's resident memory (VmRSS) after each poll and its
# peak (VmHWM). Every process runs under nice -n 19. It takes about an hour
# at the defaults on 2 shared cores: not for CI.
set -eu
packages=${1:-100000} polls=${2:-24} every=${3:-30s} top=${4:-25000}
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

for run in 1 2; do
	/usr/bin/time -v -o "$tmp/time$run" nice -n 19 "$tmp/gamedata" sync --db "$tmp/g.sqlite" \
		--base-url "$url" --rate 0 --cache-dir "$tmp/cache" 2>"$tmp/sync$run.err" || cat "$tmp/sync$run.err"
	echo "sync run $run: $(grep -h 'Maximum resident' "$tmp/time$run" | tr -s ' \t' ' '), \
$(grep -h 'Elapsed' "$tmp/time$run" | tr -s ' \t' ' '); $(tail -n 1 "$tmp/sync$run.err")"
done

port=$((20000 + $$ % 20000))
nice -n 19 "$tmp/gamedata" exporter --base-url "$url" --rate 0 --kind game --top "$top" --max-series 100000 \
	--every "$every" --listen "127.0.0.1:$port" --cache-dir "$tmp/cache-exporter" 2>"$tmp/exporter.err" &
exp=$!
seen=0
while [ "$seen" -lt "$polls" ]; do
	n=$(grep -c 'poll succeeded' "$tmp/exporter.err" || true)
	if [ "$n" -gt "$seen" ]; then
		seen=$n
		echo "exporter poll $seen: $(grep VmRSS /proc/$exp/status | tr -s ' \t' ' ') \
$(grep 'poll succeeded' "$tmp/exporter.err" | tail -n 1 | grep -o 'series=[0-9]* took=[^ ]*')"
	fi
	if grep -q 'poll failed' "$tmp/exporter.err"; then
		grep 'poll failed' "$tmp/exporter.err" | head -n 3
	fi
	sleep 1
done
echo "exporter after $polls polls: $(grep VmHWM /proc/$exp/status | tr -s ' \t' ' ')"
