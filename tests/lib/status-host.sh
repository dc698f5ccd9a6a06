# A fake host for `nfs-tuned status` (bash, sourced): status_host makes its trees under $T (an
# empty mountinfo but for /, empty mountstats, fstab and configuration $CONF, the nfsfs (its
# servers file with the header alone: the nfs module loaded, no client yet), sysfs bdi, run
# and udev directories) and points the NFS_TUNED_* variables at them, which
# status reads when run without privileges or by root for tests (nfs-tuned(8), ENVIRONMENT).
status_host() {
	mkdir -p "$T/nfsfs" "$T/sys/class/bdi" "$T/run/mounts" "$T/udev" "$T/proc/sys/kernel/random"
	# this boot, as the kernel names it
	echo 0b7d8a1e-0000-4000-8000-000000000001 > "$T/proc/sys/kernel/random/boot_id"
	chmod 755 "$T/run" "$T/run/mounts"
	echo "21 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw" >"$T/mountinfo"
	CONF=$T/conf
	: >"$T/mountstats" >"$CONF" >"$T/fstab"
	# a kernel with the nfs module loaded and no client yet
	echo "NV SERVER   PORT USE HOSTNAME" > "$T/nfsfs/servers"
	chmod 644 "$CONF"
	export NFS_TUNED_CONFIG=$CONF NFS_TUNED_VENDOR_CONFIG=$T/vendor \
		NFS_TUNED_MOUNTINFO=$T/mountinfo NFS_TUNED_NFSFS=$T/nfsfs NFS_TUNED_SYSFS=$T/sys \
		NFS_TUNED_RUNDIR=$T/run NFS_TUNED_FSTAB=$T/fstab NFS_TUNED_MOUNTSTATS=$T/mountstats \
		NFS_TUNED_UDEV_RULES=$T/udev/etc:$T/udev/lib NFS_TUNED_NFSMOUNT_CONF=$T/nfsmount.conf \
		NFS_TUNED_PROC=$T/proc
}

# mount ID DEV TARGET FSTYPE SOURCE OPTS: a mountinfo line, its bdi (read_ahead_kb 128) and
# its mountstats entry (with `age:` AGE seconds when set) with N transports (XPRTS, default
# the nconnect= of OPTS, else 1), each
# as the kernel writes a tcp one: SENDS requests sent (default 0), the local port 700+ID*16 on
# the first (the main transport), 0 on the ones nconnect adds (the kernel shows no port there)
mount() {
	local id=$1 dev=$2 target=$3 type=$4 src=$5 opts=$6 n i
	echo "$id 21 $dev / $target rw,relatime shared:$id - $type $src rw,$opts" >> "$T/mountinfo"
	mkdir -p "$T/sys/class/bdi/$dev"
	echo 128 > "$T/sys/class/bdi/$dev/read_ahead_kb"
	n=${XPRTS:-$(printf '%s\n' "$opts" | sed -n 's/.*nconnect=\([0-9]*\).*/\1/p')}
	echo "device $src mounted on $target with fstype $type statvers=1.1" >> "$T/mountstats"
	printf '\topts:\trw\n' >> "$T/mountstats"
	[ -z "${AGE:-}" ] || printf '\tage:\t%s\n' "$AGE" >> "$T/mountstats"
	for i in $(seq "${n:-1}"); do
		xprt_line $((i == 1 ? 700 + id * 16 : 0)) "${SENDS:-0}" >> "$T/mountstats"
	done
}
# xprt_line SRCPORT SENDS: srcport bind connect connect_time idle sends recvs bad_xids req_u
# bklog_u max_slots sending_u pending_u
xprt_line() { printf '\txprt:\ttcp %s 1 1 0 0 %s %s 0 %s 0 65 0 0\n' "$1" "$2" "$2" "$2"; }
ra() { echo "$2" > "$T/sys/class/bdi/$1/read_ahead_kb"; }
# record NAME KEY=VALUE...: the helper's mount record
record() {
	local name=$1; shift
	{ echo "# nfs-tuned mount record 1"; printf '%s\n' "$@"; } > "$T/run/mounts/$name"
}
fstab() { printf '%s\n' "$@" > "$T/fstab"; }
# sysfs_xprt SWITCH XPRT SRCPORT MAIN STATE: a transport of the sunrpc sysfs (to 10.99.0.1:2049)
sysfs_xprt() {
	local x=$T/sys/kernel/sunrpc/xprt-switches/switch-$1/xprt-$2-tcp
	mkdir -p "$x"
	printf 'main_xprt=%s\nsrc_port=%s\ndst_port=2049\n' "$4" "$3" > "$x/xprt_info"
	echo 10.99.0.1 > "$x/dstaddr"; echo "state=$5" > "$x/xprt_state"
}
