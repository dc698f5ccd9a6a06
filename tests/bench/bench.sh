#!/bin/bash
# Cost of the helper in front of mount.nfs, as figures (not a pass/fail timing test):
# - a whole mount through the helper (stub mount.nfs) against the stub alone;
# - the scan with 10 and with 5000 NFS mounts in mountinfo (a busy host or a k8s node).
# Ratios are measured in one run.   bench.sh HELPER STUB [ITERATIONS]
set -eu
HELPER=$1 STUB=$2 N=${3:-200}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
mkdir -p "$T/nfsfs" "$T/sys/class/bdi" "$T/run" "$T/stub" "$T/mnt"
export NFS_TUNED_CONFIG=$T/conf NFS_TUNED_MOUNTINFO=$T/mountinfo NFS_TUNED_NFSFS=$T/nfsfs \
       NFS_TUNED_SYSFS=$T/sys NFS_TUNED_RUNDIR=$T/run NFS_TUNED_UDEV_CONTROL=$T/no-udev \
       NFS_TUNED_MOUNT_NFS=$STUB STUB_DIR=$T/stub
printf '[global]\nhard\n[server "10.0.0.0/8"]\nnconnect = 4\n' > "$T/conf"

mountinfo() { # mountinfo COUNT
    : > "$T/mountinfo"
    for i in $(seq 1 "$1"); do
        a=$((i % 250 + 1))
        echo "$((100 + i)) 21 0:$((100 + i)) / /mnt/m$i rw,relatime - nfs 10.1.0.$a:/e$i rw,vers=3,rsize=1048576,wsize=1048576,hard,nconnect=4,proto=tcp,timeo=600,retrans=2,sec=sys,addr=10.1.0.$a"
    done >> "$T/mountinfo"
}
now() { date +%s%N; }
loop() { # loop CMD...: ns per run over N runs
    local s e
    s=$(now)
    for _ in $(seq 1 "$N"); do "$@" >/dev/null 2>&1 || true; : > "$T/stub/argv"; done
    e=$(now)
    echo $(( (e - s) / N ))
}
rss() { # max RSS in KiB of one run, from GNU time (its own RSS, about 2 MiB, is the floor)
    /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1
}

mountinfo 10
stub=$(loop "$STUB" 10.1.0.1:/x "$T/mnt" -o vers=3)
full=$(loop "$HELPER" 10.1.0.1:/x "$T/mnt" -o vers=3)
dry10=$(loop "$HELPER" 10.1.0.1:/x "$T/mnt" -f -o vers=3)
rss10=$(rss "$HELPER" 10.1.0.1:/x "$T/mnt" -f -o vers=3)
# the udev mode for one bdi event: an NFS superblock whose line is there, and a device that is
# not NFS (the fast way out); its own run time, what udev waits for per event
udev10=$(loop "$HELPER" --udev-bdi 0:105)
udevnot=$(loop "$HELPER" --udev-bdi 0:4095)
mountinfo 5000
dry5000=$(loop "$HELPER" 10.1.0.1:/x "$T/mnt" -f -o vers=3)
rss5000=$(rss "$HELPER" 10.1.0.1:/x "$T/mnt" -f -o vers=3)
udev5000=$(loop "$HELPER" --udev-bdi 0:4105)

echo "runs per figure: $N"
printf 'stub mount.nfs alone:                 %8.2f ms\n' "$(echo "$stub / 1000000" | bc -l)"
printf 'helper + stub, 10 mounts in table:    %8.2f ms (x%.1f the stub alone)\n' "$(echo "$full / 1000000" | bc -l)" "$(echo "$full / $stub" | bc -l)"
printf 'dry run, 10 mounts in table:          %8.2f ms, max RSS %d KiB\n' "$(echo "$dry10 / 1000000" | bc -l)" "$rss10"
printf 'dry run, 5000 mounts in table:        %8.2f ms, max RSS %d KiB (x%.1f the 10-mount time)\n' "$(echo "$dry5000 / 1000000" | bc -l)" "$rss5000" "$(echo "$dry5000 / $dry10" | bc -l)"
printf 'udev mode, NFS bdi, 10 mounts:        %8.2f ms per event\n' "$(echo "$udev10 / 1000000" | bc -l)"
printf 'udev mode, NFS bdi, 5000 mounts:      %8.2f ms per event\n' "$(echo "$udev5000 / 1000000" | bc -l)"
printf 'udev mode, not NFS:                   %8.2f ms per event\n' "$(echo "$udevnot / 1000000" | bc -l)"
