#!/bin/bash
# Cost of the helper in front of mount.nfs, as figures (not a pass/fail timing test):
# - a whole mount through the helper (stub mount.nfs) against the stub alone;
# - the scan with 10 to 100,000 NFS mounts in mountinfo, over 250 servers and over as many
#   servers as mounts (each with its /proc/fs/nfsfs line): a busy host or a k8s node;
# - a configuration of 40,000 options, and 40,000 -o arguments.
# Ratios are measured in one run.   helper.sh HELPER STUB [ITERATIONS]
set -eu
. "$(dirname "$0")/lib.sh"
HELPER=$1 STUB=$2 N=${3:-200}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
mkdir -p "$T/nfsfs" "$T/sys/class/bdi" "$T/run" "$T/stub" "$T/mnt"
export NFS_TUNED_CONFIG=$T/conf NFS_TUNED_VENDOR_CONFIG=$T/vendor NFS_TUNED_MOUNTINFO=$T/mountinfo NFS_TUNED_NFSFS=$T/nfsfs \
	   NFS_TUNED_SYSFS=$T/sys NFS_TUNED_RUNDIR=$T/run NFS_TUNED_UDEV_CONTROL=$T/no-udev \
	   NFS_TUNED_MOUNT_NFS=$STUB STUB_DIR=$T/stub
base_conf() { printf '[global]\nhard\n[server "10.0.0.0/8"]\nnconnect = 4\n' > "$T/conf"; }
base_conf

mountinfo() { # mountinfo COUNT SERVERS: mounts spread over SERVERS addresses, and their nfsfs lines
	awk -v n="$1" -v s="$2" -v mi="$T/mountinfo" -v sv="$T/nfsfs/servers" 'BEGIN {
		print "NV SERVER   PORT USE HOSTNAME" > sv
		for (i = 1; i <= n; i++) {
			a = i % s
			ip = sprintf("10.%d.%d.%d", 1 + int(a / 65536), int(a / 256) % 256, a % 256)
			printf "%d 21 0:%d / /mnt/m%d rw,relatime - nfs %s:/e%d rw,vers=3,rsize=1048576,wsize=1048576,hard,nconnect=4,proto=tcp,timeo=600,retrans=2,sec=sys,addr=%s\n", 100 + i, 100 + i, i, ip, i, ip > mi
			if (i <= s)
				printf "v3 %02x%02x%02x%02x  801 %d %s\n", 10, 1 + int(a / 65536), int(a / 256) % 256, a % 256, 1, ip > sv
		}
	}'
}
loop() { # loop RUNS CMD...: ns per run
	local n=$1 s e; shift
	s=$(now)
	for _ in $(seq 1 "$n"); do "$@" >/dev/null 2>&1 || true; : > "$T/stub/argv"; done
	e=$(now)
	echo $(( (e - s) / n ))
}
rss() { # max RSS in KiB of one run, from GNU time (its own RSS, about 2 MiB, is the floor)
	/usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1
}

mountinfo 10 10
stub=$(loop "$N" "$STUB" 10.1.0.1:/x "$T/mnt" -o vers=3)
full=$(loop "$N" "$HELPER" 10.1.0.1:/x "$T/mnt" -o vers=3)
echo "runs per figure: $N (fewer for the large tables)"
printf 'stub mount.nfs alone:                     %9.2f ms\n' "$(ms "$stub")"
printf 'helper + stub, 10 mounts in table:        %9.2f ms (x%.1f the stub alone)\n' "$(ms "$full")" "$(echo "$full / $stub" | bc -l)"

# the dry run against growing tables; each figure against the one 10x smaller
for spread in 250 all; do
	prev=
	for count in 10 1000 10000 100000; do
		runs=$N; [ "$count" -ge 10000 ] && runs=5
		servers=$spread; [ "$spread" = all ] && servers=$count
		mountinfo "$count" "$servers"
		t=$(loop "$runs" "$HELPER" 10.1.0.1:/x "$T/mnt" -f -o vers=3)
		m=$(rss "$HELPER" 10.1.0.1:/x "$T/mnt" -f -o vers=3)
		g=$(growth "$t" "$prev" "$count" "${pcount:-1}")
		printf 'dry run, %6d mounts over %6s servers: %9.2f ms, max RSS %6d KiB%s\n' "$count" "$servers" "$(ms "$t")" "$m" "$g"
		prev=$t pcount=$count
	done
done

# a large configuration, and a long -o
mountinfo 10 10
awk 'BEGIN { print "[global]"; for (i = 0; i < 40000; i++) printf "x-opt%d = %d\n", i, i }' > "$T/conf"
t=$(loop 3 "$HELPER" 10.1.0.1:/x "$T/mnt" -f -o vers=3)
printf 'dry run, config of 40000 options:         %9.2f ms, max RSS %6d KiB\n' "$(ms "$t")" "$(rss "$HELPER" 10.1.0.1:/x "$T/mnt" -f -o vers=3)"
base_conf
args=(); for i in $(seq 1 40000); do args+=(-o "o$i=$i"); done
t=$(loop 3 "$HELPER" 10.1.0.1:/x "$T/mnt" -f "${args[@]}" -o vers=3)
printf 'dry run, 40000 -o arguments:              %9.2f ms\n' "$(ms "$t")"

# the udev mode for one bdi event: an NFS superblock whose line is there, and a device that is
# not NFS (the fast way out); its own run time, what udev waits for per event
mountinfo 10 10
udev10=$(loop "$N" "$HELPER" --udev-bdi 0:105)
udevnot=$(loop "$N" "$HELPER" --udev-bdi 0:4095)
mountinfo 5000 250
udev5000=$(loop 50 "$HELPER" --udev-bdi 0:4105)
printf 'udev mode, NFS bdi, 10 mounts:            %9.2f ms per event\n' "$(ms "$udev10")"
printf 'udev mode, NFS bdi, 5000 mounts:          %9.2f ms per event\n' "$(ms "$udev5000")"
printf 'udev mode, not NFS:                       %9.2f ms per event\n' "$(ms "$udevnot")"
