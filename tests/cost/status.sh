#!/bin/bash
# Cost of `nfs-tuned status`, as figures (not a pass/fail timing test): 10, 1,000 and 10,000
# NFS mounts over 250 servers (SERVERS), each with its mountstats entry (4 transports), its bdi and a
# record of the helper, one in ten asking for more than its client has (a finding each), and
# an fstab of 100 entries.  The table, --json and --prometheus; wall time per run and max RSS;
# the textfile's series and bytes, with and without the per-transport counters.
#   status.sh NFS_TUNED [RUNS] [SERVERS]
set -eu
. "$(dirname "$0")/lib.sh"
BIN=$1 N=${2:-20} SERVERS=${3:-250}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
mkdir -p "$T/nfsfs" "$T/sys/class/bdi" "$T/run/mounts" "$T/udev"
chmod 755 "$T/run" "$T/run/mounts"
export NFS_TUNED_CONFIG=$T/conf NFS_TUNED_VENDOR_CONFIG=$T/vendor NFS_TUNED_MOUNTINFO=$T/mountinfo \
	   NFS_TUNED_NFSFS=$T/nfsfs NFS_TUNED_SYSFS=$T/sys NFS_TUNED_RUNDIR=$T/run \
	   NFS_TUNED_FSTAB=$T/fstab NFS_TUNED_MOUNTSTATS=$T/mountstats NFS_TUNED_UDEV_RULES=$T/udev \
	   NFS_TUNED_NFSMOUNT_CONF=$T/nfsmount.conf
printf '[global]\nread_ahead_kb = 15x\n[server "10.0.0.0/8"]\nnconnect = 4\n' > "$T/conf"

tree() { # tree COUNT: mountinfo, mountstats, bdis, records (SERVERS servers)
	rm -rf "$T/sys/class/bdi" "$T/run/mounts"; mkdir -p "$T/sys/class/bdi" "$T/run/mounts"
	# awk cannot make directories
	(cd "$T/sys/class/bdi" && seq 101 $((100 + $1)) | sed 's/^/0:/' | xargs mkdir -p)
	awk -v n="$1" -v T="$T" -v servers="$SERVERS" 'BEGIN {
		mi = T "/mountinfo"; ms = T "/mountstats"; sv = T "/nfsfs/servers"; fs = T "/fstab"
		print "NV SERVER   PORT USE HOSTNAME" > sv
		printf "" > fs
		for (i = 1; i <= n; i++) {
			a = i % servers
			ip = sprintf("10.1.%d.%d", int(a / 256), a % 256)
			printf "%d 21 0:%d / /mnt/m%d rw,relatime - nfs %s:/e%d rw,vers=3,rsize=1048576,wsize=1048576,hard,nconnect=4,proto=tcp,timeo=600,retrans=2,sec=sys,addr=%s\n", 100 + i, 100 + i, i, ip, i, ip > mi
			printf "device %s:/e%d mounted on /mnt/m%d with fstype nfs statvers=1.1\n\topts:\trw\n", ip, i, i > ms
			# as the kernel writes a tcp transport: port bind connect conntime idle sends
			# recvs badxids req bklog maxslots sending pending
			for (x = 0; x < 4; x++) printf "\txprt:\ttcp %d 1 1 0 0 %d %d 0 %d 0 65 0 0\n", 700 + x, 1000 * i + x, 1000 * i + x, 1000 * i + x > ms
			if (i <= servers) printf "v3 0a01%02x%02x  801 1 %s\n", int(a / 256), a % 256, ip > sv
			if (i <= 100) printf "%s:/e%d /mnt/m%d nfs vers=3,nconnect=%d 0 0\n", ip, i, i, i % 10 ? 4 : 8 > fs
			print 15360 > (T "/sys/class/bdi/0:" (100 + i) "/read_ahead_kb")
			printf "# nfs-tuned mount record 1\nspec=%s:/e%d\ntarget=/mnt/m%d\nnconnect_requested=%d\nnconnect_from=cmdline\ndev=0:%d\n", ip, i, i, i % 10 ? 4 : 8, 100 + i > (T "/run/mounts/mnt-m" i)
			close(T "/sys/class/bdi/0:" (100 + i) "/read_ahead_kb"); close(T "/run/mounts/mnt-m" i)
		}
	}'
}
loop() { # loop RUNS ARGS...: ns per run
	local n=$1 s e; shift
	s=$(now)
	for _ in $(seq 1 "$n"); do "$BIN" status "$@" >/dev/null 2>&1 || true; done
	e=$(now)
	echo $(( (e - s) / n ))
}
rss() { /usr/bin/time -f %M "$BIN" status "$@" 2>&1 >/dev/null | tail -n 1; }

echo "runs per figure: $N (5 at 10,000 mounts)"
for mode in table json prometheus; do
	case $mode in table) args=() ;; json) args=(--json) ;; prometheus) args=(--prometheus "$T/out.prom") ;; esac
	prev=
	for count in 10 1000 10000; do
		tree "$count"
		runs=$N; [ "$count" -ge 10000 ] && runs=5
		t=$(loop "$runs" "${args[@]}")
		m=$(rss "${args[@]}")
		g=$(growth "$t" "$prev" "$count" "${pcount:-1}")
		printf 'status %-10s %6d mounts: %9.2f ms, max RSS %6d KiB%s\n' "$mode" "$count" "$(ms "$t")" "$m" "$g"
		prev=$t pcount=$count
	done
done
# the findings are really there: one in ten mounts asks for 8 and has 4
"$BIN" status -o target,findings -n > "$T/out" 2> /dev/null || true
echo "findings at 10,000 mounts: $(grep -c nconnect-inherited "$T/out") mounts with nconnect-inherited"
# what node_exporter and Prometheus carry: series (lines that are not comments) and bytes
"$BIN" status --prometheus "$T/out.prom" 2> /dev/null || true
printf 'textfile at 10,000 mounts over %d clients: %d series, %d bytes\n' "$SERVERS" \
	"$(grep -vc '^#' "$T/out.prom")" "$(wc -c < "$T/out.prom")"
"$BIN" status --prometheus "$T/out.prom" --no-transport-series 2> /dev/null || true
printf '  with --no-transport-series: %d series, %d bytes\n' \
	"$(grep -vc '^#' "$T/out.prom")" "$(wc -c < "$T/out.prom")"
