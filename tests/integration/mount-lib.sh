# The helper's side of the integration cases (bash, sourced by each file of cases): the built
# mount.nfs-tuned against fixture trees (mountinfo, nfsfs, a sysfs bdi directory) and a stub
# mount.nfs that records its argv.  The lab proves the same behaviour against a real kernel
# client and server.  A file of cases, one stage of the mount (doc/DESIGN.md, "Data flow"):
#   FILE --list                      the case names, one a line (meson registers them)
#   FILE HELPER STUB FIXTURES CASE   runs one case; an unknown CASE is an error (exit 2)
# A case is a function tc_NAME (NAME with '_' for '-'): defining it is all it takes.
# Harness: tests/lib/harness.sh; assertions: tests/lib/assert.sh (status_is, out_has,
# out_lacks, out_quiet, value_is ...), reading RC and OUT, which run sets: OUT is the helper's
# stderr, byte for byte.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/assert.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../lib/harness.sh"
OUT_IS=stderr

# the scratch tree every case starts from, and the helper's paths pointed into it
harness_setup() {
	HELPER=$1 STUB=$2 FIXTURES=$3
	mkdir -p "$T/nfsfs" "$T/sys/class/bdi" "$T/run" "$T/stub" "$T/mnt/b" "$T/bin" "$T/proc"
	: >"$T/mountinfo"
	CONF=$T/conf
	: >"$CONF"
	chmod 644 "$CONF"
	export NFS_TUNED_CONFIG=$CONF NFS_TUNED_VENDOR_CONFIG=$T/vendor NFS_TUNED_MOUNTINFO=$T/mountinfo \
		NFS_TUNED_NFSFS=$T/nfsfs NFS_TUNED_SYSFS=$T/sys NFS_TUNED_RUNDIR=$T/run \
		NFS_TUNED_UDEV_CONTROL=$T/no-udev NFS_TUNED_MOUNT_NFS=$STUB STUB_DIR=$T/stub \
		NFS_TUNED_PROC=$T/proc
	unset STUB_EXIT STUB_MOUNTINFO_LINE STUB_BDI STUB_SLEEP_MS STUB_KERNEL STUB_KERNEL_DELAY_MS NFS_TUNED_MOUNTSTATS \
		NFS_TUNED_UDEV_RULES NFS_TUNED_UDEV_NS
	DIR=$T/mnt/b
	# the mount the scratch mount points are on: a mount on one of them has it as parent
	PARENT=$(findmnt -no ID -T "$T/mnt" 2>/dev/null) || PARENT=21
	export STUB_PARENT=$PARENT
	STDOUT=
}
# run_cases ARGS...: the end of every file of cases
run_cases() { harness_main tc 4 "$(basename "$0") --list | $(basename "$0") HELPER STUB FIXTURES CASE" "$@"; }

fixture() { # fixture MOUNTINFO [SERVERS VOLUMES]
	cp "$FIXTURES/$1" "$T/mountinfo"
	[ $# -ge 3 ] && cp "$FIXTURES/$2" "$T/nfsfs/servers" && cp "$FIXTURES/$3" "$T/nfsfs/volumes"
	return 0
}

# took STATUS: after a command that wrote its stderr to $T/err, sets RC and OUT
took() {
	RC=$1
	OUT=$(cat "$T/err"; printf x)   # the x keeps trailing newlines: "no output" means none
	OUT=${OUT%x}
}
# run ARGS...: runs the helper; sets RC, OUT (stderr) and STDOUT
run() {
	rm -f "$T/stub/argv"
	"$HELPER" "$@" > "$T/out" 2> "$T/err"
	took $?
	STDOUT=$(cat "$T/out")
}
# what the stub mount.nfs was given
mount_nfs_ran() { [ -f "$T/stub/argv" ] || fail "mount.nfs was not run"; }
mount_nfs_not_run() { [ ! -f "$T/stub/argv" ] || fail "mount.nfs was run: $(tr '\n' ' ' < "$T/stub/argv")"; }
argv() { [ -f "$T/stub/argv" ] && sed -n "$1p" "$T/stub/argv"; }
argv_all() { [ -f "$T/stub/argv" ] && tr '\n' ' ' < "$T/stub/argv"; }
argv_is() { value_is "argv[$(($1 - 1))]" "$(argv "$1")" "$2" "argv: $(argv_all)"; }
opts_has() { argv_all | grep -qE -- "(^| )-o ([^ ]*,)?$1(,| |$)" || fail "options lack $1: $(argv_all)"; }
opts_lacks() { ! argv_all | grep -qE -- "(^| )-o ([^ ]*,)?$1(,| |$)" || fail "options have $1: $(argv_all)"; }
# the line the stub appends for the new mount
newmount() { # newmount DEV OPTS [PARENT]
	export STUB_MOUNTINFO_LINE="60 ${3:-$PARENT} $1 / $DIR rw,relatime shared:60 - nfs filer:/export/b rw,$2"
}
V3NEW="vers=3,rsize=1048576,wsize=1048576,namlen=255,hard,proto=tcp,timeo=600,retrans=2,sec=sys,mountaddr=10.99.0.1,local_lock=none,addr=10.99.0.1"

# two_at_once POLICY NC_A NC_B [ENV_A]: helper A on $T/mnt/a, then, once A's mount.nfs has
# started (A has claimed), helper B on $T/mnt/b, both to 10.99.0.1 vers=3 against the stub
# acting as the kernel (STUB_KERNEL) with 2 s mounts; RC "rcA rcB", $T/errA and $T/errB, the
# stub's log in PATTERN
two_at_once() {
	conf "nconnect_policy = $1"
	rm -f "$T/stub/log"
	export STUB_SLEEP_MS=2000 STUB_KERNEL=$T/clients
	mkdir -p "$T/mnt/a"
	env ${4:-} "$HELPER" 10.99.0.1:/a "$T/mnt/a" -o "vers=3,nconnect=$2" 2> "$T/errA" &
	local p1=$!
	stub_started 1
	"$HELPER" 10.99.0.1:/b "$T/mnt/b" -o "vers=3,nconnect=$3" 2> "$T/errB" &
	local p2=$!
	wait $p1; local r1=$?; wait $p2; local r2=$?
	RC="$r1 $r2" OUT=$(cat "$T/errA" "$T/errB")
	PATTERN=$(awk '{print $1}' "$T/stub/log" | tr '\n' ' ')
}
# The cases that run two helpers at once order them by what the first one has done, never by
# a fixed sleep: under a full run's load (two lab VMs, the ASan build beside) a helper took
# more than the 0.3 s a case had given it to put its claim.
# until_true WHAT COMMAND...: COMMAND succeeds (10 s at most)
until_true() {
	local i
	for i in $(seq 200); do
		"${@:2}" && return 0
		sleep 0.05
	done
	fail "$1: not after 10 s"
}
# stub_started N: mount.nfs (the stub) has started N times: a helper run in the background has
# then put its claim, which comes before mount.nfs
stub_started() { until_true "mount.nfs (the stub) started $1 time(s)" stub_starts_at_least "$1"; }
stub_starts_at_least() { [ "$(grep -c '^start' "$T/stub/log" 2>/dev/null)" -ge "$1" ]; }
# locked FILE: a process started in the background holds FILE flocked
locked() { until_true "$1 locked" held "$1"; }
held() { flock -n -E 99 "$1" true; [ $? = 99 ]; }
# put_claim FILE TEXT: a claim file as the helper leaves one (0600, printf's format TEXT)
put_claim() { (umask 077; printf "$2" > "$1"); }
# the stub's kernel forgets every client: its clients file, mountinfo and nfsfs
no_clients() { rm -f "$T/clients" "$T/nfsfs/servers"; : > "$T/mountinfo"; }
# plain_first VERS: a plain mount of 10.99.0.1 on $T/mnt/a through the helper, the stub acting as
# the kernel (STUB_KERNEL)
plain_first() {
	export STUB_KERNEL=$T/clients
	mkdir -p "$T/mnt/a"
	run 10.99.0.1:/a "$T/mnt/a" -o "vers=$1"
	status_is 0 "the plain mount"; out_quiet
}
# as_nobody_setuid ARGS...: the helper installed setuid root (on a tmpfs: /tmp may be nosuid)
# and run as user nobody, in a private mount namespace whose /etc and /usr/lib/nfs-tuned.conf.d
# are $T/etc and $T/vendor (a setuid run takes no path from the environment); --root: run by
# root, the same way; sets RC, OUT
# setuid_tree [DIR...]: a case of the setuid copy needs root and mount namespaces (else it
# skips, 77); makes $T/suid, the /etc and vendor directories as_nobody_setuid binds, and DIRs
SETUID_NEEDS="the helper installed setuid root, /etc bound over in a mount namespace of its own"
setuid_tree() {
	needs_root "$SETUID_NEEDS"
	unshare --mount true 2>/dev/null || { echo "SKIP: cannot create a mount namespace here"; exit 77; }
	mkdir -p "$T/suid" "$T/etc" "$T/vendor" "$@"; chmod 755 "$T" "$T/etc" "$T/vendor"
}
# SUID_NAME: the setuid copy's name (default h; umount.nfs for that mode); SUID_PREFIX: a
# command the caller runs it through (prlimit --nofile=N: the caller's own limits)
as_nobody_setuid() {
	local u=""
	[ "${1:-}" = --root ] && { u=root; shift; }
	unshare --mount --propagation private sh -c '
		T=$1 H=$2 U=$3 N=$4 P=$5; shift 5
		mount -t tmpfs -o mode=755 tmpfs "$T/suid" && install -m 4755 "$H" "$T/suid/$N" &&
		mount --bind "$T/etc" /etc && mkdir -p /usr/lib/nfs-tuned.conf.d &&
		mount --bind "$T/vendor" /usr/lib/nfs-tuned.conf.d || exit 99
		unset $(env | sed -n "s/^\(NFS_TUNED_[A-Z_]*\)=.*/\1/p")
		if [ -n "$U" ]; then exec $P "$T/suid/$N" "$@"; fi
		exec setpriv --reuid=65534 --regid=65534 --clear-groups $P "$T/suid/$N" "$@"' \
		sh "$T" "$HELPER" "$u" "${SUID_NAME:-h}" "${SUID_PREFIX:-}" "$@" > "$T/out" 2> "$T/err"
	took $?
	OUT="$(cat "$T/out")$OUT"
}
vendor() { mkdir -p "$T/vendor"; printf '%s\n' "${@:2}" > "$T/vendor/$1"; }

# What only root's run of the helper does, or only root may set up: a case of it skips (77) as
# another user (needs_root, tests/lib/harness.sh), before it checks anything; what such a
# user's run can check is a case of its own.
# --check-config checks owners as root's mount would, whoever runs it: a scratch tree of
# another user's is never used (the trust rule, README "Configuration")
needs_root_check_config() { needs_root "--check-config reads the configuration as root's mount does: only a tree of root's is used"; }
# a claim (and the lock of a client's key) is taken for root's mounts only: a user's run leaves
# nothing in the run directory
needs_root_claims() { needs_root "the helper claims a new client's key for root's mounts only"; }
# a mount record, read by the udev mode and nfs-tuned status, is left by root's mounts only
# monotonic_ms: CLOCK_MONOTONIC in milliseconds, the clock of the record's verified_ms
monotonic_ms() { python3 -c 'import time; print(int(time.monotonic() * 1000))'; }
needs_root_records() { needs_root "the helper leaves a mount record for root's mounts only"; }
# the udev mode is udev's, run as root: the helper refuses every other caller
needs_root_udev() { needs_root "--udev-bdi is udev's, run as root: any other caller is refused"; }

# helper_link NAME: $T/bin/NAME, a link to the helper that the helper follows to itself. Root
# follows a link along root's directories to anywhere; a user's run follows none out of that
# user's own directories (sys/chase.c: an absolute link, or one up into root's /tmp, is a step
# into root's), so there the link is to a copy of the helper beside it, and HELPER that copy
helper_link() {
	if [ "$(id -u)" = 0 ]; then
		ln -s "$HELPER" "$T/bin/$1"
		return
	fi
	[ -f "$T/bin/mount.nfs-tuned" ] || cp "$HELPER" "$T/bin/mount.nfs-tuned"
	HELPER=$T/bin/mount.nfs-tuned
	ln -s mount.nfs-tuned "$T/bin/$1"
}
