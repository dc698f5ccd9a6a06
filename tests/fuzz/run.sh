#!/bin/bash
# Runs the libFuzzer targets against the instrumented core, then keeps the grown corpora
# minimised in tests/fuzz/corpus (replayed in every build).  Needs clang (Debian 12's has
# libFuzzer); builds into build-fuzz.
#   tests/fuzz/run.sh [SECONDS-PER-TARGET] [TARGET...]     (default 600 s, every target)
# Prints per target: coverage (cov), features (ft), executions per second, corpus size; exits 1
# when a target found a crash (its input is build-fuzz/crash-TARGET-*).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
secs=${1:-600}; shift || true
targets=("$@"); [ ${#targets[@]} -gt 0 ] || targets=(config mountinfo cmdline request record hostfiles pathsplit textfile finding)
b=build-fuzz
if [ ! -d "$b" ]; then CC=clang meson setup "$b" -Dfuzz=true -Dlab=disabled >/dev/null || exit 2; fi
meson compile -C "$b" >/dev/null || exit 2
failed=0
for t in "${targets[@]}"; do
	work=$b/corpus-$t min=$b/min-$t
	rm -rf "$work" "$min"; mkdir -p "$work" "$min"
	cp tests/fuzz/corpus/"$t"/* "$work"/
	# inputs up to the helper's own limits (a config file of 1 MiB), so that the cost of
	# large inputs is explored too
	"$b/tests/fuzz/fuzz-$t" -max_total_time="$secs" -max_len=1048576 -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$b/crash-$t-" "$work" > "$b/fuzz-$t.log" 2>&1
	rc=$?
	"$b/tests/fuzz/fuzz-$t" -merge=1 "$min" "$work" > /dev/null 2>&1
	if [ "$(ls "$min" | wc -l)" -gt 0 ]; then
		rm -f tests/fuzz/corpus/"$t"/*; cp "$min"/* tests/fuzz/corpus/"$t"/
	fi
	done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$b/fuzz-$t.log" | tail -1)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$b/fuzz-$t.log")
	printf '%-10s %s; %s runs in %s s; corpus kept: %s files, %s KiB\n' "$t" \
		"$(echo "$done_line" | grep -oE 'cov: [0-9]+ ft: [0-9]+|exec/s: [0-9]+' | tr '\n' ' ')" \
		"${execs:-?}" "$secs" "$(ls tests/fuzz/corpus/"$t" | wc -l)" "$(du -sk tests/fuzz/corpus/"$t" | cut -f1)"
	if [ $rc -ne 0 ] || ls "$b"/crash-"$t"-* >/dev/null 2>&1; then
		echo "$t: CRASH, see $b/fuzz-$t.log"; failed=1
	fi
done
exit $failed
