#!/bin/bash
# Parallel mounts of one server, as figures (not a pass/fail timing test): N helpers started at
# once, each mounting its own export of one address, against N stand-in mount.nfs started at
# once, in one run. The stand-in acts as the kernel's sharing rule (STUB_KERNEL: the first
# mount of an address and version creates the client with its nconnect, the others get it)
# and takes MS per mount; each adds its own mountinfo line, which the helper then verifies.
#   parallel.sh HELPER STUB [MS] [N...]        (default 200 ms, N = 20 and 100; REPEATS=5)
# Then the same with half the mounts asking another nconnect (a real conflict) under warn and
# refuse: each one that asked what its client does not have must be warned or refused, the
# others quiet; a helper that says otherwise fails the run (a wrong answer, not a slow one).
set -eu
. "$(dirname "$0")/lib.sh"
HELPER=$1 STUB=$2 MS=${3:-200} REPEATS=${REPEATS:-5}; shift 2; [ $# -gt 0 ] && shift
COUNTS=("${@:-20}"); [ $# -gt 0 ] || COUNTS=(20 100)
# on tmpfs when there is one, as /run is: a disk's metadata writes are not the helper's work
T=$(mktemp -d -p "$([ -w /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")")
trap 'rm -rf "$T"' EXIT
export NFS_TUNED_CONFIG=$T/conf NFS_TUNED_VENDOR_CONFIG=$T/vendor NFS_TUNED_MOUNTINFO=$T/mountinfo \
	   NFS_TUNED_NFSFS=$T/nfsfs NFS_TUNED_SYSFS=$T/sys NFS_TUNED_RUNDIR=$T/run \
	   NFS_TUNED_UDEV_CONTROL=$T/no-udev NFS_TUNED_MOUNT_NFS=$STUB STUB_DIR=$T/stub \
	   STUB_KERNEL=$T/clients STUB_SLEEP_MS=$MS
fresh() { # a host with no NFS mount and no client
	rm -rf "$T/nfsfs" "$T/run" "$T/stub" "$T/out" "$T/mnt"
	mkdir -p "$T/nfsfs" "$T/stub" "$T/out" "$T/mnt"
	: > "$T/mountinfo"; : > "$T/clients"
}
# at_once N PROG NC_ODD: N mounts of 10.1.0.1 started at once (odd ones ask NC_ODD, even 4);
# prints the wall time in ns; each one's exit status and stderr in $T/out
at_once() {
	local n=$1 prog=$2 odd=$3 s e i nc
	fresh
	for i in $(seq 1 "$n"); do mkdir "$T/mnt/m$i"; done
	s=$(now)
	for i in $(seq 1 "$n"); do
		nc=4; [ $((i % 2)) = 1 ] && nc=$odd
		{ "$prog" "10.1.0.1:/e$i" "$T/mnt/m$i" -o "vers=3,nconnect=$nc" 2> "$T/out/$i.err"
		  echo $? > "$T/out/$i.rc"; } &
	done
	wait
	e=$(now)
	echo $((e - s))
}
lock_warnings() { cat "$T"/out/*.err | grep -c 'lock' || true; }
mounted() { wc -l < "$T/mountinfo"; }

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "stand-in mount time $MS ms; all mounts to 10.1.0.1, vers=3,nconnect=4; $REPEATS interleaved repeats, medians"
printf '[global]\nnconnect_policy = warn\n' > "$T/conf"
for n in "${COUNTS[@]}"; do
	stubs=() fulls=() ratios=() lw=0 other=0 short=0
	for _ in $(seq 1 "$REPEATS"); do
		s=$(at_once "$n" "$STUB" 4); [ "$(mounted)" = "$n" ] || short=$((short + 1))
		f=$(at_once "$n" "$HELPER" 4); [ "$(mounted)" = "$n" ] || short=$((short + 1))
		lw=$((lw + $(lock_warnings))); other=$((other + $(cat "$T"/out/*.err | grep -vc lock || true)))
		stubs+=("$s") fulls+=("$f") ratios+=("$(echo "$f / $s" | bc -l)")
	done
	s=$(printf '%s\n' "${stubs[@]}" | median) f=$(printf '%s\n' "${fulls[@]}" | median)
	printf '%3d mounts at once: stand-in alone %7.1f ms, through the helper %7.1f ms, ratio %.2f (%.2f-%.2f); lock warnings %d, other messages %d, runs short of mounts %d\n' \
		"$n" "$(ms "$s")" "$(ms "$f")" "$(echo "$f / $s" | bc -l)" \
		"$(printf '%s\n' "${ratios[@]}" | sort -n | head -n1)" "$(printf '%s\n' "${ratios[@]}" | sort -n | tail -n1)" \
		"$lw" "$other" "$short"
done

# half the mounts ask nconnect=8: one client, 4 or 8, whichever mount claimed it first
conflict() { # conflict N POLICY
	local n=$1 pol=$2 t client want i rc warned=0 refused=0 quiet=0 wrong=0 got
	printf '[global]\nnconnect_policy = %s\n' "$pol" > "$T/conf"
	t=$(at_once "$n" "$HELPER" 8)
	client=$(awk '{ print $3 }' "$T/clients")
	for i in $(seq 1 "$n"); do
		want=4; [ $((i % 2)) = 1 ] && want=8
		rc=$(cat "$T/out/$i.rc")
		got=$(grep " $T/mnt/m$i " "$T/mountinfo" | grep -o 'nconnect=[0-9]*' | cut -d= -f2)
		if [ "$want" = "$client" ]; then
			[ "$rc" = 0 ] && [ ! -s "$T/out/$i.err" ] && [ "$got" = "$client" ] && quiet=$((quiet + 1)) && continue
		elif [ "$pol" = refuse ]; then
			[ "$rc" = 32 ] && grep -q "refusing to mount: nconnect=$want cannot take effect" "$T/out/$i.err" &&
				[ -z "$got" ] && refused=$((refused + 1)) && continue
		else
			[ "$rc" = 0 ] && grep -q "warning: nconnect=$want cannot take effect" "$T/out/$i.err" &&
				[ "$(grep -c warning "$T/out/$i.err")" = 1 ] && [ "$got" = "$client" ] && warned=$((warned + 1)) && continue
		fi
		wrong=$((wrong + 1))
		echo "  mount $i (nconnect=$want, client $client): exit $rc, nconnect ${got:-none}: $(cat "$T/out/$i.err")"
	done
	printf '%3d mounts, half nconnect=8, %-6s: %7.1f ms; client nconnect=%s; %d quiet, %d warned, %d refused, %d wrong; lock warnings %d\n' \
		"$n" "$pol" "$(ms "$t")" "$client" "$quiet" "$warned" "$refused" "$wrong" "$(lock_warnings)"
	return "$((wrong > 0))"
}
rc=0
for n in "${COUNTS[@]}"; do
	for pol in warn refuse; do conflict "$n" "$pol" || rc=1; done
done
exit $rc
