#!/bin/bash
# Integration cases: the built mount.nfs-tuned against fixture trees (mountinfo, nfsfs, a sysfs
# bdi directory) and a stub mount.nfs that records its argv.  The lab suite proves the same
# behaviour against a real kernel client and server.
#   cases.sh --list                      the case names, one a line (meson registers them)
#   cases.sh HELPER STUB FIXTURES CASE   runs one case; an unknown CASE is an error (exit 2)
# A case is a function tc_NAME (NAME with '_' for '-'): defining it is all it takes.
# Assertions: tests/lib/assert.sh (status_is, out_has, out_lacks, out_quiet, value_is ...),
# reading RC and OUT, which run sets: OUT is the helper's stderr, byte for byte.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/assert.sh"

fixture() { # fixture MOUNTINFO [SERVERS VOLUMES]
	cp "$FIXTURES/$1" "$T/mountinfo"
	[ $# -ge 3 ] && cp "$FIXTURES/$2" "$T/nfsfs/servers" && cp "$FIXTURES/$3" "$T/nfsfs/volumes"
	return 0
}
conf() { printf '%s\n' "$@" > "$T/conf"; }

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
on_fail() { echo "FAIL [$CASE]: $*"; echo "  rc=$RC"; echo "  stderr: $OUT" | head -c 3000; echo; }
# what the stub mount.nfs was given
mount_nfs_ran() { [ -f "$T/stub/argv" ] || fail "mount.nfs was not run"; }
mount_nfs_not_run() { [ ! -f "$T/stub/argv" ] || fail "mount.nfs was run: $(tr '\n' ' ' < "$T/stub/argv")"; }
argv() { [ -f "$T/stub/argv" ] && sed -n "$1p" "$T/stub/argv"; }
argv_all() { [ -f "$T/stub/argv" ] && tr '\n' ' ' < "$T/stub/argv"; }
argv_is() { value_is "argv[$(($1 - 1))]" "$(argv "$1")" "$2" "argv: $(argv_all)"; }
opts_has() { argv_all | grep -qE -- "(^| )-o ([^ ]*,)?$1(,| |$)" || fail "options lack $1: $(argv_all)"; }
opts_lacks() { ! argv_all | grep -qE -- "(^| )-o ([^ ]*,)?$1(,| |$)" || fail "options have $1: $(argv_all)"; }
# the line the stub appends for the new mount
newmount() { # newmount DEV OPTS
	export STUB_MOUNTINFO_LINE="60 21 $1 / $DIR rw,relatime shared:60 - nfs filer:/export/b rw,$2"
}
V3NEW="vers=3,rsize=1048576,wsize=1048576,namlen=255,hard,proto=tcp,timeo=600,retrans=2,sec=sys,mountaddr=10.99.0.1,local_lock=none,addr=10.99.0.1"

tc_dry_run_plan() {
	fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
	conf '[global]' 'read_ahead_kb = 15360'
	run 10.99.0.1:/export/b "$DIR" -f -v -o vers=3,nconnect=8
	status_is 0; mount_nfs_not_run
	for l in "endpoint: 10.99.0.1:/export/b -> 10.99.0.1" "client: 10.99.0.1 port 2049, NFSv3 over tcp: nconnect=4" \
			 "/mnt/a (filer:/export/a), /mnt/a2 (10.99.0.1:/export/a) <- this mount shares it" \
			 "verdict: shares a client; nconnect: warn" "exec: $STUB 10.99.0.1:/export/b $DIR -v -o vers=3,nconnect=8 (as mount.nfs)" \
			 "read-ahead: 15360 KiB" "config: read_ahead_kb=15360 from $T/conf:2"; do out_has "$l"; done
}
tc_dry_run_quiet() {
	fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
	run 10.99.0.1:/export/b "$DIR" -f -o vers=3,nconnect=4
	status_is 0; mount_nfs_not_run; out_quiet
}
tc_good_mount_silent() {
	newmount 0:60 "$V3NEW"
	run 10.99.0.1:/export/b "$DIR" -o vers=3
	status_is 0; mount_nfs_ran; out_quiet
	argv_is 1 mount.nfs; argv_is 2 10.99.0.1:/export/b; argv_is 3 "$DIR"; argv_is 4 -o; argv_is 5 vers=3
}
tc_conflict_warn() {
	fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
	newmount 0:53 "${V3NEW/hard,/hard,nconnect=4,}"
	run 10.99.0.1:/export/b "$DIR" -o vers=3,nconnect=8
	status_is 0; mount_nfs_ran; opts_has nconnect=8
	out_has "mount.nfs-tuned: warning: nconnect=8 cannot take effect"
	out_has "/mnt/a (filer:/export/a)"; out_has "which has 4 connections (nconnect=4)"
	out_has "unmount every mount of that client first"
	# verification agrees with the plan (4 connections): no second warning
	value_is "number of warnings" "$(grep -c warning "$T/err")" 1
}
tc_conflict_refuse() {
	fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
	conf '[server "10.99.0.0/16"]' 'nconnect_policy = refuse'
	run 10.99.0.1:/export/b "$DIR" -o vers=3,nconnect=8
	status_is 32; mount_nfs_not_run
	out_has "refusing to mount: nconnect=8 cannot take effect"; out_has "/mnt/a (filer:/export/a)"
}
tc_conflict_follow() {
	fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
	conf 'nconnect_policy = follow'
	run 10.99.0.1:/export/b "$DIR" -o vers=3,nconnect=8,hard
	status_is 0; mount_nfs_ran; opts_lacks 'nconnect=[0-9]*'; opts_has hard
	out_has "following the existing client: nconnect=8 cannot take effect"
}
tc_config_default_follows_quietly() {
	fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
	conf '[global]' 'nconnect = 8'
	newmount 0:53 "${V3NEW/hard,/hard,nconnect=4,}"
	run 10.99.0.1:/export/b "$DIR" -o vers=3
	status_is 0; mount_nfs_ran; opts_lacks 'nconnect=[0-9]*'; out_quiet
	run 10.99.0.1:/export/b "$DIR" -v -f -o vers=3
	out_has "nconnect: follow (quiet)"; out_has "the configured default nconnect is dropped"
	# the same default on a new client is used
	: > "$T/mountinfo"; : > "$T/nfsfs/servers"
	newmount 0:60 "${V3NEW/hard,/hard,nconnect=8,}"
	run 10.99.0.1:/export/b "$DIR" -o vers=3
	status_is 0; opts_has nconnect=8
}
tc_same_nconnect_silent() {
	fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
	newmount 0:53 "${V3NEW/hard,/hard,nconnect=4,}"
	run 10.99.0.1:/export/b "$DIR" -o vers=3,nconnect=4
	status_is 0; mount_nfs_ran; out_quiet
}
tc_no_conflict_other_port_version_proto() {
	fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
	conf 'nconnect_policy = refuse'
	for o in vers=3,port=2050 vers=4.1 vers=4.2 vers=3,proto=rdma vers=3,proto=udp; do
		run 10.99.0.1:/export/b "$DIR" -f -o "$o,nconnect=8"
		status_is 0; out_lacks refusing
	done
	# port=2049 is the default: the same client
	run 10.99.0.1:/export/b "$DIR" -f -o vers=3,port=2049,nconnect=8
	status_is 32
}
tc_minor_version_separate() {
	fixture mountinfo-v41-loopback
	conf 'nconnect_policy = refuse'
	run 127.0.0.1:/x "$DIR" -f -o vers=4.2,nconnect=8
	status_is 0
	run 127.0.0.1:/x "$DIR" -f -o vers=4,minorversion=1,nconnect=8
	status_is 32; out_has "NFSv4.1 over tcp"
	run 127.0.0.1:/x "$DIR" -f -t nfs4 -o v4.1,nconnect=8
	status_is 32
}
tc_hostname_same_address() {
	fixture mountinfo-v41-loopback
	conf 'nconnect_policy = refuse'
	# localhost resolves to 127.0.0.1; proto=tcp keeps IPv4 as mount.nfs does
	run localhost:/y "$DIR" -f -o vers=4.1,proto=tcp,nconnect=4
	status_is 32; out_has "127.0.0.1 port 2049, NFSv4.1 over tcp with /mnt/lo (127.0.0.1:/)"
	# the bare tcp flag means proto=tcp in mount.nfs: IPv4 too
	run localhost:/y "$DIR" -f -o vers=4.1,tcp,nconnect=4
	status_is 32; out_has "with /mnt/lo (127.0.0.1:/)"
}
tc_other_network_namespace() {
	# /mnt/v6 shows in this mount table, but this netns has no client to fd00::1: it was
	# mounted from another network namespace, whose clients are separate
	fixture mountinfo-v41-loopback
	cp "$FIXTURES/nfsfs-servers-other-netns" "$T/nfsfs/servers"
	conf 'nconnect_policy = refuse'
	run "[fd00::1]:/z" "$DIR" -f -v -o vers=4.2,nconnect=4
	status_is 0; out_has "(made from another network namespace: separate)"
	out_has "verdict: new client"
	run 127.0.0.1:/z "$DIR" -f -o vers=4.1,nconnect=4
	status_is 32
}
tc_ipv6_literal() {
	fixture mountinfo-v41-loopback
	conf 'nconnect_policy = refuse' '[server "fd00::/8"]' 'krb5_policy = refuse'
	run "[fd00::1]:/z" "$DIR" -f -o vers=4.2,nconnect=4
	status_is 32; out_has "fd00::1 port 2049, NFSv4.2 over tcp with /mnt/v6 ([fd00::1]:/)"
	run "[fd00::1]:/z" "$DIR" -f -o vers=4.2,nconnect=2,sec=krb5
	status_is 32; out_has "refusing to mount: sec=krb5 on an NFS client with 2 connections (inherited from /mnt/v6"
}
tc_hidden_client() {
	fixture mountinfo-v3-nconnect4 nfsfs-servers-hidden nfsfs-volumes-hidden
	run 10.99.0.2:/export/c "$DIR" -f -o vers=3,nconnect=4
	status_is 0; out_has "no mount of this mount namespace shows it"
	conf 'nconnect_policy = refuse'
	run 10.99.0.2:/export/c "$DIR" -f -o vers=3,nconnect=4
	status_is 32; out_has "refusing to mount: nconnect=4 cannot take effect"
	# a config default meeting a hidden client is followed quietly, and the verification
	# does not take the unknown nconnect for a race
	conf 'nconnect = 8'
	newmount 0:71 "${V3NEW//10.99.0.1/10.99.0.2}"
	run 10.99.0.2:/export/c "$DIR" -o vers=3
	status_is 0; mount_nfs_ran; out_quiet; opts_lacks 'nconnect=[0-9]*'
	unset STUB_MOUNTINFO_LINE
	conf 'nconnect_policy = refuse'
	# NFSv4: nfsfs shows no minor version, so a hidden v4 client may be this mount's
	fixture mountinfo-v41-loopback
	cp "$FIXTURES/nfsfs-servers-v4-hidden" "$T/nfsfs/servers"
	run 10.99.0.9:/v4 "$DIR" -f -o vers=4.2,nconnect=4
	status_is 32; out_has "its NFSv4 minor version is not shown either"
	# 127.0.0.1's v4 line is the visible /mnt/lo client, not a hidden one
	run 127.0.0.1:/v4 "$DIR" -f -o vers=4.2,nconnect=4
	status_is 0; out_lacks "no mount of this mount namespace"
	fixture mountinfo-v3-nconnect4 nfsfs-servers-hidden nfsfs-volumes-hidden
	# the visible client's lines are accounted for: 10.99.0.1 is not hidden
	run 10.99.0.1:/export/c "$DIR" -f -o vers=3,nconnect=4
	status_is 0; out_lacks "no mount of this mount namespace"
}
tc_krb5() {
	conf '[global]' 'krb5_policy = warn'
	run 10.99.0.3:/k "$DIR" -f -o vers=4.1,sec=krb5p,nconnect=4
	status_is 0; out_has "warning: sec=krb5p on an NFS client with 4 connections (requested by this mount's nconnect)"
	out_has "one GSS context and sequence window"
	conf 'krb5_policy = refuse'
	run 10.99.0.3:/k "$DIR" -o vers=4.1,sec=krb5i,nconnect=4
	status_is 32; mount_nfs_not_run; out_has "refusing to mount: sec=krb5i"
	run 10.99.0.3:/k "$DIR" -f -o vers=4.1,sec=krb5p,nconnect=1
	status_is 0; out_lacks krb5
	# inherited: no nconnect asked, the client has 4
	fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
	run 10.99.0.1:/k "$DIR" -o vers=3,sec=krb5
	status_is 32; out_has "sec=krb5 on an NFS client with 4 connections (inherited from /mnt/a (filer:/export/a)"
}
tc_nconnect_range() {
	for v in 0 17 -1 abc "" 99999999999999999999; do
		run 10.99.0.1:/e "$DIR" -o "vers=3,nconnect=$v"
		status_is 32; mount_nfs_not_run; out_has "refusing to mount: nconnect=$v (from the command line) is not valid: it must be a number from 1 to 16"
	done
	run 10.99.0.1:/e "$DIR" -o vers=5
	status_is 32; out_has "vers=5 (from the command line) is not valid: it must be 3, 4, 4.0, 4.1 or 4.2"
}
tc_exit_status_passthrough() {
	for s in 32 1 2 16 64; do
		export STUB_EXIT=$s
		run 10.99.0.1:/e "$DIR" -o vers=3
		status_is "$s"; mount_nfs_ran
	done
}
tc_self_exec_refused() {
	export NFS_TUNED_MOUNT_NFS=$HELPER
	run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 2; out_has "refusing to run $HELPER: it is this helper itself"
	ln -s "$HELPER" "$T/bin/mount.nfs"
	export NFS_TUNED_MOUNT_NFS=$T/bin/mount.nfs
	run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 2; out_has "mount_nfs in [global]"
	# and via the config's mount_nfs
	export NFS_TUNED_MOUNT_NFS=$STUB
	conf "mount_nfs = $HELPER"
	run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 2
	ln -s "$HELPER" "$T/bin/umount.nfs"
	"$T/bin/umount.nfs" "$DIR" 2> "$T/err"; took $?
	status_is 2; out_has "it is this helper itself"
}
tc_missing_mount_nfs() {
	export NFS_TUNED_MOUNT_NFS=$T/none/mount.nfs
	run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 2; out_has "cannot run the real mount.nfs $T/none/mount.nfs: No such file or directory"
}
tc_mount_nfs_candidates() {
	# several build-time names for the real binary: the first that exists is run
	export NFS_TUNED_MOUNT_NFS="$T/none/mount.nfs.usr-is-merged:$STUB:$T/none/other"
	run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 0; mount_nfs_ran
	run 10.99.0.1:/e "$DIR" -f -v -o vers=3
	out_has "exec: $STUB 10.99.0.1:/e"
	# one that exists but cannot run stops the search: it is reported, never skipped
	mkdir -p "$T/dir.d"
	export NFS_TUNED_MOUNT_NFS="$T/dir.d:$STUB"
	run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 2; mount_nfs_not_run; out_has "cannot run the real mount.nfs $T/dir.d: not a regular file"
	export NFS_TUNED_MOUNT_NFS="$T/none/a:$T/none/b"
	run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 2; out_has "cannot run the real mount.nfs $T/none/a:$T/none/b: No such file or directory"
}
tc_umount_passthrough() {
	for name in umount.nfs umount.nfs4; do
		ln -sf "$HELPER" "$T/bin/$name"
		rm -f "$T/stub/argv"
		"$T/bin/$name" "$DIR" -f -v -l 2> "$T/err"; took $?
		status_is 0; argv_is 1 "$T/bin/$name"; argv_is 2 "$DIR"; argv_is 3 -f; argv_is 4 -v; argv_is 5 -l; argv_is 6 --
		export STUB_EXIT=16
		"$T/bin/$name" "$DIR" 2> /dev/null; RC=$?
		status_is 16; unset STUB_EXIT
	done
}
tc_invocation_names() {
	ln -s "$HELPER" "$T/bin/mount.nfs4"; ln -s "$HELPER" "$T/bin/mount.nfs"
	HELPER=$T/bin/mount.nfs4 run 10.99.0.1:/e "$DIR" -o rsize=65536
	status_is 0; argv_is 1 mount.nfs4
	HELPER=$T/bin/mount.nfs run 10.99.0.1:/e "$DIR" -t nfs4 -N "$$" -s -n -r -o rsize=65536
	status_is 0; argv_is 1 mount.nfs4
	argv_all | grep -qE -- ' -t | -N |nfs4 (.* )?nfs4' && fail "-t or -N forwarded: $(argv_all)"
	argv_is 4 -s; argv_is 5 -n; argv_is 6 -r
	HELPER=$T/bin/mount.nfs run 10.99.0.1:/e "$DIR" -o rsize=65536
	argv_is 1 mount.nfs
}
tc_namespace_with_own_proc() {
	# -N into a mount namespace whose /proc belongs to another PID namespace (a container):
	# /proc/self does not resolve there, so every read goes through the caller's root
	unshare -m -p -f --mount-proc --kill-child sleep 30 >/dev/null 2>&1 & ns=$!
	sleep 0.5
	kill -0 "$ns" 2>/dev/null && [ "$(readlink /proc/$ns/ns/mnt)" != "$(readlink /proc/self/ns/mnt)" ] ||
		{ echo "SKIP: cannot create mount and PID namespaces here"; exit 77; }
	fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
	newmount 0:53 "${V3NEW/hard,/hard,nconnect=4,}"
	# under ASan: LeakSanitizer reads /proc/self/task at exit, which the target's /proc lacks
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		run 10.99.0.1:/export/b "$DIR" -N "$ns" -o vers=3,nconnect=8
	kill "$ns"
	status_is 0; mount_nfs_ran; out_lacks "cannot read"
	out_has "warning: nconnect=8 cannot take effect"
	value_is "number of warnings" "$(grep -c warning "$T/err")" 1 "the verification found the mount"
}
tc_command_line_shapes() {
	run -o vers=3 10.99.0.1:/e -v -o nconnect=2 "$DIR" -w -o hard -f
	status_is 0; out_has "exec: $STUB 10.99.0.1:/e $DIR -v -w -o vers=3,nconnect=2,hard"
	run 10.99.0.1:/e "$DIR" -fvo'vers=3,sec=sys'
	status_is 0; out_has "-o vers=3,sec=sys (as mount.nfs)"
	run 10.99.0.1:/e "$DIR" -f -v -o 'vers=3,context="system_u:object_r:nfs_t:s0:c1,c2"'
	status_is 0; out_has '-o vers=3,context="system_u:object_r:nfs_t:s0:c1,c2" (as mount.nfs)'
}
tc_usage_errors() {
	run; status_is 1; out_has "missing remote file system and mount point"
	run 10.99.0.1:/e; status_is 1; out_has "missing mount point"
	run nocolon "$DIR"; status_is 1; out_has "'nocolon' is not a remote file system"
	run fd00::1:/x "$DIR"; status_is 1; out_has "[IPv6-address]:/path"
	run 10.99.0.1:/e "$DIR" -t xfs; status_is 1; out_has "file system type 'xfs' is not nfs"
	run 10.99.0.1:/e "$DIR" -q; status_is 1; out_has "unknown option '-q'"
	run 10.99.0.1:/e "$DIR" -o; status_is 1; out_has "option '-o' needs an argument"
	run 10.99.0.1:/e "$DIR" -o "mount_nfs=/tmp/x"; status_is 1; out_has "mount_nfs cannot be given on the command line"
	run 10.99.0.1:/e "$DIR" -o "read_ahead_kb=lots"; status_is 1
	out_has "read_ahead_kb=lots on the command line is not valid: it must be a size in KiB (15360), a multiple of rsize (15x) or keep"
	run 10.99.0.1:/e "$DIR" -N /nonexistent/ns; status_is 2; out_has "cannot enter the mount namespace /nonexistent/ns"
	mount_nfs_not_run
	run -h; status_is 0; grep -q "Usage: mount.nfs-tuned" "$T/out" || fail "-h prints no usage"
	run -V; status_is 0; grep -q "^mount.nfs-tuned [0-9]" "$T/out" || fail "-V prints no version"
}
tc_config_precedence() {
	mkdir "$T/conf.d"
	conf '[global]' 'hard' 'rsize = 65536' 'timeo = 100' 'actimeo = 30' \
		 '[server "10.99.*"]' 'rsize = 131072' 'timeo = 200' \
		 '[mountpoint "'"$T"'/mnt/*"]' 'rsize = 262144' \
		 '[server "filer"]' 'wsize = 4096'
	printf '[global]\ntimeo = 300\nnconnect_policy = refuse\nread_ahead_kb = keep\n' > "$T/conf.d/50-late.conf"
	printf '[global]\ntimeo = 150\n' > "$T/conf.d/10-early.conf"
	printf 'garbage\n' > "$T/conf.d/ignored.txt"
	run 10.99.0.1:/e "$DIR" -o vers=3,soft,acregmin=5
	status_is 0
	opts_has rsize=262144; opts_has timeo=200; opts_has soft
	opts_lacks hard; opts_lacks wsize=4096; opts_lacks nconnect_policy=refuse
	opts_lacks read_ahead_kb=keep; opts_has acregmin=5
	# command line options come last, so the kernel's last-one-wins agrees with the precedence
	argv_all | grep -qE -- "actimeo=30.*acregmin=5" || fail "config options not before the command line's: $(argv_all)"
	run filer:/e "$DIR" -o vers=3
	opts_has wsize=4096; opts_has timeo=300
}
tc_config_errors() {
	conf '[global]' 'nconnect = 99' 'nconnect_policy = maybe' '[server]' 'hard' '[mountpoint "relative"]' \
		 'rsize = 1' '[global]' 'rsize=8192' "$(head -c 5000 /dev/zero | tr '\0' a) = 1" 'a,b' 'read_ahead_kb = 15y'
	newmount 0:60 "$V3NEW"
	run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 0; mount_nfs_ran; opts_has rsize=8192; opts_lacks nconnect=99; opts_lacks hard
	out_has "$T/conf:2: nconnect=99: nconnect must be a number from 1 to 16, skipped"
	out_has "$T/conf:3: nconnect_policy=maybe: nconnect_policy must be warn, refuse or follow"
	out_has "$T/conf:4: section needs a pattern"
	out_has "$T/conf:6: a mount point pattern must be an absolute path"
	out_has "$T/conf:10: line of 4096 bytes or more"
	out_has "$T/conf:11: 'a,b' is not an option name"
	out_has "$T/conf:12: read_ahead_kb=15y"
	run --check-config; status_is 1; out_has "$T/conf:2:"
	conf '[global]' 'hard'
	run --check-config; status_is 0; grep -q "no problems" "$T/out" || fail "--check-config said: $STDOUT"
}
tc_config_permissions() {
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
	conf '[global]' 'nconnect_policy = refuse'
	fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
	chmod 666 "$T/conf"
	run 10.99.0.1:/e "$DIR" -f -o vers=3,nconnect=8
	status_is 0; out_has "$T/conf: not used: not owned by root or writable by group or others"
	chmod 644 "$T/conf"; chown 1:1 "$T/conf"
	run 10.99.0.1:/e "$DIR" -f -o vers=3,nconnect=8
	status_is 0; out_has "not owned by root"
	chown 0:0 "$T/conf"
	run 10.99.0.1:/e "$DIR" -f -o vers=3,nconnect=8
	status_is 32
	# a drop-in directory others may write is not used either
	mkdir "$T/conf.d"; printf '[global]\nnconnect_policy = follow\n' > "$T/conf.d/x.conf"
	chmod 777 "$T/conf.d"
	run 10.99.0.1:/e "$DIR" -f -o vers=3,nconnect=8
	status_is 32; out_has "$T/conf.d: not used: not owned by root or writable by group or others"
	run --check-config
	status_is 1; out_has "$T/conf.d: not used"
	chmod 755 "$T/conf.d"
	run 10.99.0.1:/e "$DIR" -f -o vers=3,nconnect=8
	status_is 0; out_has "following the existing client"
}
tc_read_ahead_absolute() {
	conf 'read_ahead_kb = 15360'
	newmount 0:60 "$V3NEW"; export STUB_BDI=0:60
	run 10.99.0.1:/e "$DIR" -v -o vers=3
	status_is 0; opts_lacks read_ahead_kb=15360
	value_is "read_ahead_kb of bdi 0:60" "$(cat "$T/sys/class/bdi/0:60/read_ahead_kb")" 15360
	out_has "read-ahead: bdi 0:60 read_ahead_kb 128 -> 15360"
}
tc_read_ahead_rsize() {
	conf '[mountpoint "'"$DIR"'"]' 'read_ahead_kb = 15x'
	newmount 0:61 "${V3NEW/rsize=1048576/rsize=262144}"; export STUB_BDI=0:61
	run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 0; out_quiet
	value_is "read_ahead_kb of bdi 0:61" "$(cat "$T/sys/class/bdi/0:61/read_ahead_kb")" 3840
}
tc_read_ahead_shared_superblock() {
	fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
	conf 'read_ahead_kb = 15360'
	mkdir -p "$T/sys/class/bdi/0:53"; echo 128 > "$T/sys/class/bdi/0:53/read_ahead_kb"
	newmount 0:53 "${V3NEW/hard,/hard,nconnect=4,}"
	run 10.99.0.1:/export/a "$DIR" -v -o vers=3
	status_is 0; out_has "shares the superblock (bdi 0:53) of an earlier mount; its read-ahead is left alone"
	value_is "read_ahead_kb of the shared bdi 0:53" "$(cat "$T/sys/class/bdi/0:53/read_ahead_kb")" 128 "left alone"
	# a superblock only /proc/fs/nfsfs/volumes knows (another mount namespace) is shared too
	fixture mountinfo-v3-nconnect4 nfsfs-servers-hidden nfsfs-volumes-hidden
	mkdir -p "$T/sys/class/bdi/0:70"; echo 128 > "$T/sys/class/bdi/0:70/read_ahead_kb"
	newmount 0:70 "${V3NEW//10.99.0.1/10.99.0.2}"
	run 10.99.0.2:/export/c "$DIR" -o vers=3
	status_is 0
	value_is "read_ahead_kb of the hidden shared bdi 0:70" "$(cat "$T/sys/class/bdi/0:70/read_ahead_kb")" 128 "left alone"
}
tc_read_ahead_failure() {
	conf 'read_ahead_kb = 15360'
	newmount 0:62 "$V3NEW"
	mkdir -p "$T/sys/class/bdi/0:62/read_ahead_kb"   # a directory: the write fails
	run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 0; out_has "warning: mounted, but cannot set read_ahead_kb of bdi 0:62 to 15360"
	out_has "the mount keeps the kernel's value"
}
tc_verify_nconnect() {
	# planned a new client with nconnect=8; the kernel shows none (a racing mount won)
	newmount 0:63 "$V3NEW"
	run 10.99.0.1:/e "$DIR" -o vers=3,nconnect=8
	status_is 0; out_has "warning: the kernel gave $DIR nconnect=1, not the 8 planned"
	# negotiated version: no pre-mount verdict, the check comes after
	fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
	conf 'nconnect_policy = refuse'
	newmount 0:53 "${V3NEW/hard,/hard,nconnect=4,}"
	run 10.99.0.1:/export/b "$DIR" -v -o nconnect=8
	status_is 0; out_has "the NFS version is left to negotiation"
	out_has "warning: the kernel gave $DIR nconnect=4, not the 8 planned: it joined the existing client of /mnt/a (filer:/export/a)"
}
tc_verify_trunking() {
	fixture mountinfo-v41-loopback
	export STUB_MOUNTINFO_LINE="61 21 0:54 / $DIR rw,relatime shared:61 - nfs4 127.0.0.2:/ rw,vers=4.1,rsize=524288,wsize=524288,namlen=255,hard,proto=tcp,timeo=600,retrans=2,sec=sys,clientaddr=127.0.0.1,local_lock=none,addr=127.0.0.1"
	run 127.0.0.2:/ "$DIR" -o vers=4.1
	status_is 0
	out_has "warning: the kernel uses server address 127.0.0.1 for $DIR, not 127.0.0.2: NFSv4 trunking found the same server and merged the mount into the existing client of /mnt/lo (127.0.0.1:/)"
}
tc_verify_missing() {
	run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 0; out_has "warning: mounted, but no NFS mount on $DIR shows in $T/mountinfo: not verified"
	# bg: mount.nfs returns 0 and retries in the background; no false alarm
	run 10.99.0.1:/e "$DIR" -o vers=3,bg
	status_is 0; out_quiet
	run 10.99.0.1:/e "$DIR" -o vers=3,fg,bg
	status_is 0; out_quiet
	# the last of fg/bg wins, as in mount.nfs
	run 10.99.0.1:/e "$DIR" -o vers=3,bg,fg
	status_is 0; out_has "not verified"
}
# two_at_once POLICY NC_A NC_B [ENV_A]: helper A on $T/mnt/a, 0.2 s later helper B on $T/mnt/b,
# both to 10.99.0.1 vers=3 against the stub acting as the kernel (STUB_KERNEL) with 700 ms
# mounts; RC "rcA rcB", $T/errA and $T/errB, the stub's log in PATTERN
two_at_once() {
	conf "nconnect_policy = $1"
	export STUB_SLEEP_MS=700 STUB_KERNEL=$T/clients
	mkdir -p "$T/mnt/a"
	env ${4:-} "$HELPER" 10.99.0.1:/a "$T/mnt/a" -o "vers=3,nconnect=$2" 2> "$T/errA" &
	local p1=$!
	sleep 0.2
	"$HELPER" 10.99.0.1:/b "$T/mnt/b" -o "vers=3,nconnect=$3" 2> "$T/errB" &
	local p2=$!
	wait $p1; local r1=$?; wait $p2; local r2=$?
	RC="$r1 $r2" OUT=$(cat "$T/errA" "$T/errB")
	PATTERN=$(awk '{print $1}' "$T/stub/log" | tr '\n' ' ')
}
# the stub's kernel forgets every client: its clients file, mountinfo and nfsfs
no_clients() { rm -f "$T/clients" "$T/nfsfs/servers"; : > "$T/mountinfo"; }
mi_nconnect() { grep " $1 " "$T/mountinfo" | grep -o 'nconnect=[0-9]*' | cut -d= -f2; }
claim_files() { ls "$T/run/clients/" 2>/dev/null | grep -v '\.lock$'; }
tc_claim_joiner_runs_at_once() {
	# B finds A's claim: it joins the client A is creating, warned, without waiting for A
	two_at_once warn 4 8
	value_is "exit statuses" "$RC" "0 0"
	value_is "mount.nfs starts and ends" "$PATTERN" "start start end end " "the joiner did not wait"
	grep -qF "warning: nconnect=8 cannot take effect: this mount shares the NFS client for 10.99.0.1 port 2049, NFSv3 over tcp, which the mount of $T/mnt/a (10.99.0.1:/a) is creating now with nconnect=4" "$T/errB" ||
		fail "B did not report the claimed client: $(cat "$T/errB")"
	grep -q "passes nconnect=4" "$T/errB" || fail "B did not say it passes A's nconnect"
	[ -s "$T/errA" ] && fail "the claimant printed: $(cat "$T/errA")"
	value_is "A's nconnect" "$(mi_nconnect "$T/mnt/a")" 4; value_is "B's nconnect" "$(mi_nconnect "$T/mnt/b")" 4
	ls "$T/run/clients/"*-10.99.0.1-2049-tcp-v3.lock > /dev/null || fail "no lock of the client's key"
	value_is "claims left" "$(claim_files)" "" "a claim outlived its mount.nfs"
}
tc_claim_joiner_first_at_the_kernel() {
	# A claims but its mount.nfs reaches the kernel late: B's mount.nfs creates the client,
	# with A's nconnect, under every policy that mounts B
	for pol in warn follow; do
		no_clients; rm -f "$T/stub/log" "$T/stub/argv"
		two_at_once "$pol" 2 8 STUB_KERNEL_DELAY_MS=500
		value_is "$pol: exit statuses" "$RC" "0 0"
		value_is "$pol: the client B created" "$(cat "$T/clients")" "10.99.0.1 3 2 none"
		value_is "$pol: A's nconnect" "$(mi_nconnect "$T/mnt/a")" 2 "A's plan undone by B"
		[ -s "$T/errA" ] && fail "$pol: the claimant printed: $(cat "$T/errA")"
		argv_b=$(awk -v RS='--\n' '/10.99.0.1:\/b/' "$T/stub/argv" | tr '\n' ' ')
		grep -q -- "-o vers=3,nconnect=2 " <<<"$argv_b" && ! grep -q "nconnect=8" <<<"$argv_b" || fail "$pol: B did not pass nconnect=2: $argv_b"
	done
	grep -qF "following the existing client: nconnect=8 cannot take effect" "$T/errB" || fail "follow: B said $(cat "$T/errB")"
}
tc_claim_client_in_nfsfs_before_mountinfo() {
	# A's client is in nfsfs (the stub's kernel lists it at once) 700 ms before A's mountinfo
	# line: B, 0.2 s after A, finds a client only nfsfs shows; A's live claim says whose it is,
	# so B joins it quietly (same nconnect), under refuse too, and without waiting for A
	export STUB_SLEEP_MS=700 STUB_KERNEL=$T/clients
	local key; key=$(printf 'net%s-10.99.0.1-2049-tcp-v4.1' "$(stat -L -c %i /proc/self/ns/net)")
	mkdir -p "$T/mnt/a"
	for pol in warn refuse; do
		no_clients; rm -f "$T/stub/log"
		conf "nconnect_policy = $pol"
		"$HELPER" 10.99.0.1:/a "$T/mnt/a" -o vers=4.1,nconnect=2 2> "$T/errA" &
		local p1=$!
		sleep 0.2
		grep -q '^v4 0a630001' "$T/nfsfs/servers" && [ ! -s "$T/mountinfo" ] ||
			fail "$pol: the window is not there (nfsfs: $(cat "$T/nfsfs/servers" 2>&1), mountinfo: $(cat "$T/mountinfo"))"
		"$HELPER" 10.99.0.1:/b "$T/mnt/b" -v -o vers=4.1,nconnect=2 2> "$T/errB"
		local r2=$?
		wait $p1; local r1=$?
		RC="$r1 $r2" OUT=$(cat "$T/errB")
		value_is "$pol: exit statuses" "$RC" "0 0"
		out_lacks "warning"; out_lacks "refusing"; out_lacks "no mount of this mount namespace shows it"
		out_has "claim: $key is claimed by pid $p1 ($T/mnt/a): this mount joins the client it creates"
		value_is "$pol: mount.nfs starts and ends" "$(awk '{print $1}' "$T/stub/log" | tr '\n' ' ')" "start start end end " "B waited for A"
		[ -s "$T/errA" ] && fail "$pol: the claimant printed: $(cat "$T/errA")"
		value_is "$pol: B's nconnect" "$(mi_nconnect "$T/mnt/b")" 2
	done
	# the same nfsfs line with no claim behind it is another mount namespace's client: joined,
	# warned as one whose nconnect cannot be read, and no claim left
	no_clients; conf "nconnect_policy = warn"
	echo "v4 0a630001  801    1 10.99.0.1" > "$T/nfsfs/servers"
	echo "10.99.0.1 4.1 4" > "$T/clients"
	run 10.99.0.1:/b "$DIR" -v -o vers=4.1,nconnect=2
	status_is 0; out_has "no mount of this mount namespace shows it"
	out_has "claim: $key: no claim: the client only /proc/fs/nfsfs shows is another mount namespace's; this mount joins it"
	value_is "claims left" "$(claim_files)" ""
}
tc_claim_refused_at_once() {
	two_at_once refuse 4 8
	value_is "exit statuses" "$RC" "0 32"
	value_is "mount.nfs runs" "$PATTERN" "start end " "B must not have run mount.nfs"
	grep -qF "refusing to mount: nconnect=8 cannot take effect" "$T/errB" || fail "B: $(cat "$T/errB")"
}
tc_claim_other_key_parallel() {
	# NFSv3 and NFSv4.1 of one address are two clients: two claims, neither waits, no word
	conf "nconnect_policy = refuse"
	export STUB_SLEEP_MS=700 STUB_KERNEL=$T/clients
	mkdir -p "$T/mnt/a"
	"$HELPER" 10.99.0.1:/a "$T/mnt/a" -v -o vers=3,nconnect=4 2> "$T/errA" &
	local p1=$!
	sleep 0.2
	"$HELPER" 10.99.0.1:/b "$T/mnt/b" -v -o vers=4.1,nconnect=8 2> "$T/errB" &
	local p2=$!
	wait $p1; local r1=$?; wait $p2; local r2=$?
	RC="$r1 $r2" OUT=$(cat "$T/errA" "$T/errB")
	value_is "exit statuses" "$RC" "0 0"
	value_is "mount.nfs starts and ends" "$(awk '{print $1}' "$T/stub/log" | tr '\n' ' ')" "start start end end "
	out_has "-10.99.0.1-2049-tcp-v3: this mount creates the client (nconnect=4)"
	out_has "-10.99.0.1-2049-tcp-v4.1: this mount creates the client (nconnect=8)"
	out_lacks "warning"
}
tc_claim_stale_or_live() {
	export STUB_KERNEL=$T/clients
	mkdir -p "$T/run/clients"
	key=$(printf 'net%s-10.99.0.1-2049-tcp-v3' "$(stat -L -c %i /proc/self/ns/net)")
	printf '# nfs-tuned client claim 1\npid=1\nnconnect=2\ntarget=/mnt/gone\nspec=10.99.0.1:/gone\n' > "$T/run/clients/$key.claim"
	# left by a helper that is gone (no one holds it locked): not a claim, whatever pid=1 is
	run 10.99.0.1:/b "$DIR" -v -o vers=3,nconnect=8
	status_is 0; out_lacks "warning"; out_has "claim: $key: this mount creates the client (nconnect=8)"
	value_is "claims left" "$(claim_files)" ""
	# a live one (its holder has it locked): the client it names is joined
	printf '# nfs-tuned client claim 1\npid=1\nnconnect=2\ntarget=/mnt/live\nspec=10.99.0.1:/live\n' > "$T/run/clients/$key.claim"
	no_clients
	flock "$T/run/clients/$key.claim" sleep 3 &
	local holder=$!
	sleep 0.3
	run 10.99.0.1:/b "$DIR" -o vers=3,nconnect=8
	status_is 0; out_has "which the mount of /mnt/live (10.99.0.1:/live) is creating now with nconnect=2"
	opts_has nconnect=2
	# a live file that is not a claim (another format, another owner's) is none
	no_clients
	echo garbage > "$T/run/clients/$key.claim"
	run 10.99.0.1:/b "$DIR" -o vers=3,nconnect=8
	status_is 0; out_lacks "warning"
	kill "$holder" 2> /dev/null; wait "$holder" 2> /dev/null
}
tc_read_ahead_udev_rule_last() {
	# nfs-tuned's udev rule is udev's last word on read_ahead_kb: the helper writes at once and
	# leaves it to the rule, which writes the same value after nfsrahead; otherwise it waits
	# for udev's bdi event (DESIGN.md "After mount.nfs succeeds")
	local rule=99-zz-nfs-tuned.rules
	mkdir -p "$T/etc-rules" "$T/rules" "$T/otherns"
	echo 'SUBSYSTEM=="bdi", ACTION=="add", KERNEL=="0:*", PROGRAM="/sbin/mount.nfs-tuned --udev-bdi %k", ATTR{read_ahead_kb}="%c"' > "$T/rules/$rule"
	echo 'SUBSYSTEM=="bdi", ACTION=="add", PROGRAM="/usr/libexec/nfsrahead %k", ATTR{read_ahead_kb}="%c"' > "$T/rules/99-nfs.rules"
	: > "$T/udev-control"; : > "$T/otherns/net"; : > "$T/otherns/mnt"
	export NFS_TUNED_UDEV_CONTROL=$T/udev-control NFS_TUNED_UDEV_RULES=$T/etc-rules:$T/rules NFS_TUNED_UDEV_NS=/proc/self/ns
	conf '[global]' 'read_ahead_kb = 2048'
	newmount 0:60 "$V3NEW"; export STUB_BDI=0:60
	run 10.99.0.1:/export/b "$DIR" -v -o vers=3
	status_is 0; out_lacks "warning"
	out_has "read-ahead: udev's rule $T/rules/$rule writes the same value last in the bdi's event (after nfs-utils' nfsrahead): written at once, no wait for udev"
	out_has "read-ahead: bdi 0:60 read_ahead_kb 128 -> 2048"; out_lacks "udev finished"
	value_is "read_ahead_kb" "$(cat "$T/sys/class/bdi/0:60/read_ahead_kb")" 2048
	unset STUB_BDI STUB_MOUNTINFO_LINE
	# what makes it wait, each said
	waits() { run 10.99.0.1:/export/b "$DIR" -f -v -o vers=3; status_is 0; out_has "read-ahead: $1: written after udev's bdi event"; }
	: > "$T/etc-rules/$rule"
	waits "nfs-tuned's udev rule $rule is masked ($T/etc-rules/$rule)"
	cp "$T/rules/$rule" "$T/etc-rules/$rule"
	waits "nfs-tuned's udev rule $rule is replaced by a file of its name ($T/etc-rules/$rule)"
	rm "$T/etc-rules/$rule"
	echo 'SUBSYSTEM=="bdi", ATTR{read_ahead_kb}="4096"' > "$T/etc-rules/99-zzz-site.rules"
	waits "nfs-tuned's udev rule $rule is followed by a rule that writes read_ahead_kb ($T/etc-rules/99-zzz-site.rules)"
	rm "$T/etc-rules/99-zzz-site.rules" "$T/rules/$rule"
	waits "nfs-tuned's udev rule $rule is not installed"
	echo 'SUBSYSTEM=="bdi", RUN+="/bin/true"' > "$T/rules/$rule"
	waits "nfs-tuned's udev rule $rule writes no read_ahead_kb ($T/rules/$rule)"
	echo 'SUBSYSTEM=="bdi", PROGRAM="x --udev-bdi %k", ATTR{read_ahead_kb}="%c"' > "$T/rules/$rule"
	NFS_TUNED_UDEV_NS=$T/otherns waits "udev runs in other namespaces than this mount ($T/otherns), where its rule may not find it"
	NFS_TUNED_UDEV_CONTROL=$T/no-udev run 10.99.0.1:/export/b "$DIR" -f -v -o vers=3
	status_is 0; out_has "read-ahead: udev is not running: written at once"
	# nothing to write: nothing said, nothing looked at
	conf '[global]' 'read_ahead_kb = keep'
	run 10.99.0.1:/export/b "$DIR" -f -v -o vers=3
	status_is 0; out_lacks "read-ahead: udev"; out_lacks "written"
}
tc_udev_bdi_line_present() {
	# udev's bdi add event for an NFS superblock whose mountinfo line is there
	echo "60 21 0:60 / /data rw,relatime - nfs filer:/export/b rw,$V3NEW" > "$T/mountinfo"
	echo "61 21 0:61 / /mnt/x rw,relatime - nfs 10.99.0.7:/x rw,${V3NEW//10.99.0.1/10.99.0.7}" >> "$T/mountinfo"
	echo "62 21 0:62 / /mnt/y rw,relatime - nfs4 [fd99::1]:/ rw,vers=4.1,rsize=65536,wsize=65536,proto=tcp6,addr=fd99::1" >> "$T/mountinfo"
	for d in 0:60 0:61 0:62; do mkdir -p "$T/sys/class/bdi/$d"; echo 640 > "$T/sys/class/bdi/$d/read_ahead_kb"; done
	conf '[global]' 'read_ahead_kb = 1024' '[server "filer"]' 'read_ahead_kb = 2048' \
		 '[server "10.99.0.0/24"]' 'read_ahead_kb = 3072' '[server "fd99::/64"]' 'read_ahead_kb = 15x' \
		 '[mountpoint "/data"]' 'read_ahead_kb = 4096'
	run --udev-bdi 0:60
	status_is 0; [ "$STDOUT" = 4096 ] || fail "printed '$STDOUT', expected 4096 ([mountpoint])"
	out_has "mount.nfs-tuned: bdi 0:60 /data (filer:/export/b): read_ahead_kb 640 -> 4096 ([mountpoint \"/data\"] $T/conf:10)"
	[ "$(grep -c . "$T/err")" = 1 ] || fail "expected one line"
	run --udev-bdi 0:61
	status_is 0; [ "$STDOUT" = 3072 ] || fail "printed '$STDOUT', expected 3072 ([server] CIDR over addr=)"
	run --udev-bdi=0:62
	status_is 0; [ "$STDOUT" = 960 ] || fail "printed '$STDOUT', expected 960 (15 x rsize 65536)"
	# the value it already has: printed for udev, no line (nothing changes)
	echo 960 > "$T/sys/class/bdi/0:62/read_ahead_kb"
	run --udev-bdi 0:62
	status_is 0; [ "$STDOUT" = 960 ] || fail "printed '$STDOUT'"; out_quiet
	# keep: nothing printed, exit 1 (udev's PROGRAM does not match: nothing written)
	conf '[global]' 'read_ahead_kb = keep'
	run --udev-bdi 0:60
	status_is 1; [ -z "$STDOUT" ] || fail "printed '$STDOUT'"; out_quiet
	# a name is never resolved: a section of the address a name would resolve to does not match a
	# source written with the name, but matches through addr=
	conf '[server "filer.example.com"]' 'read_ahead_kb = 2000'
	run --udev-bdi 0:60
	status_is 1; [ -z "$STDOUT" ] || fail "printed '$STDOUT' for a name not written in the source"
}
tc_udev_bdi_line_late() {
	# the event comes before mount(2) returns: nfsfs lists the volume, the line follows
	printf 'NV SERVER   PORT DEV          FSID                              FSC\nv3 0a630001  801 0:60         1:0                               no\n' > "$T/nfsfs/volumes"
	conf '[server "10.99.0.1"]' 'read_ahead_kb = 2048'
	( sleep 0.3; echo "60 21 0:60 / /mnt/late rw,relatime - nfs 10.99.0.1:/e rw,$V3NEW" >> "$T/mountinfo" ) &
	run --udev-bdi 0:60 -v
	wait
	status_is 0; [ "$STDOUT" = 2048 ] || fail "printed '$STDOUT', expected 2048"
	out_has "bdi 0:60 /mnt/late (10.99.0.1:/e): read_ahead_kb 0 -> 2048"
	ms=$(sed -n 's/.*mountinfo line found after waiting \([0-9]*\) ms.*/\1/p' "$T/err")
	[ -n "$ms" ] && [ "$ms" -ge 250 ] && [ "$ms" -lt 1000 ] || fail "waited '$ms' ms for a line 300 ms late"
}
tc_udev_bdi_line_absent() {
	# another mount namespace made it: only nfsfs volumes lists it; the wait is bounded
	printf 'NV SERVER   PORT DEV          FSID                              FSC\nv4 0a630001  801 0:60         1:0                               no\n' > "$T/nfsfs/volumes"
	mkdir -p "$T/sys/class/bdi/0:60"; echo 128 > "$T/sys/class/bdi/0:60/read_ahead_kb"
	conf '[global]' 'read_ahead_kb = 1024' '[server "10.99.0.0/24"]' 'read_ahead_kb = 15360'
	start=$(date +%s%N)
	run --udev-bdi 0:60 -v
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	status_is 0; [ "$STDOUT" = 15360 ] || fail "printed '$STDOUT', expected 15360 ([server] by the volume's address)"
	out_has "no mountinfo line, only nfsfs volumes lists it after waiting 10"
	out_has "bdi 0:60 server 10.99.0.1, mounted in another mount namespace: read_ahead_kb 128 -> 15360"
	[ "$ms" -ge 1000 ] && [ "$ms" -lt 3000 ] || fail "took $ms ms, expected the 1000 ms bound"
	# 15x needs the rsize, which only a mountinfo line shows: nothing
	conf '[global]' 'read_ahead_kb = 15x'
	run --udev-bdi 0:60
	status_is 1; [ -z "$STDOUT" ] || fail "printed '$STDOUT'"; out_quiet
	# a volume that goes away while its line is waited for (NFSv4's superblock of the server's
	# root, dropped once mount(2) has walked to the export): nothing, no word, no full wait
	( sleep 0.2; : > "$T/nfsfs/volumes" ) &
	start=$(date +%s%N)
	run --udev-bdi 0:60 -v
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	wait
	status_is 1; [ -z "$STDOUT" ] || fail "printed '$STDOUT' for a volume that went away"; out_quiet
	[ "$ms" -lt 700 ] || fail "took $ms ms for a volume gone after 200 ms"
	# a line that is there: no wait
	printf 'NV SERVER   PORT DEV          FSID                              FSC\nv4 0a630001  801 0:60         1:0                               no\n' > "$T/nfsfs/volumes"
	echo "60 21 0:60 / /mnt/late rw,relatime - nfs 10.99.0.1:/e rw,$V3NEW" > "$T/mountinfo"
	run --udev-bdi 0:60 -v
	out_has "mountinfo line there at once"
}
tc_udev_bdi_wait_costs_nothing() {
	# the real /proc/self/mountinfo wakes a poller only when a mount is made or gone in this
	# namespace: the 1 s wait for a line that never comes reads the table once, not every 20 ms
	printf 'NV SERVER   PORT DEV          FSID                              FSC\nv4 0a630001  801 0:60         1:0                               no\n' > "$T/nfsfs/volumes"
	conf '[global]' 'read_ahead_kb = 1024'
	NFS_TUNED_MOUNTINFO=/proc/self/mountinfo run --udev-bdi 0:60 -v
	status_is 0; out_has "only nfsfs volumes lists it after waiting"
	looks=$(sed -n 's/.*(\([0-9]*\) looks\{0,1\} at the mount table).*/\1/p' "$T/err")
	[ -n "$looks" ] && [ "$looks" -le 5 ] || fail "read the mount table '$looks' times in a 1 s wait"
}
tc_udev_bdi_flood_bound() {
	# a device nfsfs does not list is no NFS superblock of this network namespace: the mount
	# table is not even opened (2,000 FUSE mounts made at once are 2,000 events, each of which
	# read every line of it); here the table is a FIFO that would block the reader
	printf 'NV SERVER   PORT DEV          FSID                              FSC\nv3 0a630001  801 0:60         1:0                               no\n' > "$T/nfsfs/volumes"
	rm "$T/mountinfo"; mkfifo "$T/mountinfo"
	conf '[global]' 'read_ahead_kb = 15360'
	timeout 10 "$HELPER" --udev-bdi 0:70 > "$T/out" 2> "$T/err"; took $?
	status_is 1; out_quiet
}
tc_udev_bdi_other_namespace_no_wait() {
	# the kernel already shows the superblock in another mount namespace's table (a
	# container's): its line will never come here, so no wait; the volume's address decides
	printf 'NV SERVER   PORT DEV          FSID                              FSC\nv4 0a630001  801 0:60         1:0                               no\n' > "$T/nfsfs/volumes"
	mkdir -p "$T/proc/self/ns" "$T/proc/4242/ns" "$T/proc/4243/ns" "$T/sys/class/bdi/0:60"
	echo self > "$T/proc/self/ns/mnt"; echo other > "$T/proc/4242/ns/mnt"; echo third > "$T/proc/4243/ns/mnt"
	: > "$T/proc/4242/mountinfo"
	echo "60 21 0:60 / /srv/c rw,relatime - nfs4 10.99.0.1:/e rw,vers=4.1,rsize=1048576,wsize=1048576,proto=tcp,addr=10.99.0.1" > "$T/proc/4243/mountinfo"
	echo 128 > "$T/sys/class/bdi/0:60/read_ahead_kb"
	conf '[server "10.99.0.0/24"]' 'read_ahead_kb = 15360'
	start=$(date +%s%N)
	run --udev-bdi 0:60 -v
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	status_is 0; [ "$STDOUT" = 15360 ] || fail "printed '$STDOUT', expected 15360"
	out_has "bdi 0:60: mounted in another mount namespace ("; out_has "mount tables read): no wait"
	[ "$ms" -lt 700 ] || fail "took $ms ms: waited for a line that cannot come"
}
tc_udev_bdi_not_nfs() {
	echo "70 21 0:70 / /mnt/fuse rw,relatime - fuse.sshfs u@h:/ rw,user_id=0,group_id=0" > "$T/mountinfo"
	echo "71 21 0:71 / /mnt/lu rw,relatime - lustre 10.99.0.1@tcp:/fs rw,addr=10.99.0.1" >> "$T/mountinfo"
	conf '[global]' 'read_ahead_kb = 15360'
	for d in 0:70 0:71 0:72 9p-1 8:0 254:16 0:x '' ; do
		start=$(date +%s%N)
		run --udev-bdi "$d" -v
		ms=$(( ($(date +%s%N) - start) / 1000000 ))
		status_is 1; [ -z "$STDOUT" ] || fail "$d: printed '$STDOUT'"; out_quiet
		# no wait: the device is not an NFS volume of this network namespace
		[ "$ms" -lt 500 ] || fail "$d: took $ms ms"
	done
	run --udev-bdi
	status_is 1; out_has "option '--udev-bdi' needs an argument"
	run --udev-bdi 0:70 extra
	status_is 1; out_has "--udev-bdi takes no other argument"
}
tc_udev_bdi_record() {
	# the mount path leaves its plan; the command line's read_ahead_kb reaches the udev mode
	conf '[global]' 'read_ahead_kb = 1024'
	run 10.99.0.1:/e "$DIR" -o vers=3,nconnect=8,bg,read_ahead_kb=15x
	status_is 0; out_quiet
	rec=$(ls "$T/run/mounts/")
	case $rec in *-mnt-b) ;; *) fail "record name '$rec'" ;; esac
	printf '# nfs-tuned mount record 1\nspec=10.99.0.1:/e\ntarget=%s\nserver=10.99.0.1\nnconnect=8\nread_ahead_kb=15x\nbg=yes\nnconnect_requested=8\nnconnect_from=cmdline\nread_ahead_from=cmdline\nxprtsec=none\n' "$DIR" |
		cmp -s - "$T/run/mounts/$rec" || fail "record: $(cat "$T/run/mounts/$rec")"
	[ "$(stat -c %a "$T/run/mounts/$rec")" = 644 ] || fail "record mode $(stat -c %a "$T/run/mounts/$rec")"
	ls -a "$T/run/mounts" | grep -q "\.tmp$" && fail "a temporary file is left"
	# the bg mount lands later, on a client another mount made with nconnect=4 meanwhile
	echo "60 21 0:60 / $DIR rw,relatime - nfs 10.99.0.1:/e rw,${V3NEW/hard,/hard,nconnect=4,}" > "$T/mountinfo"
	run --udev-bdi 0:60
	status_is 0; [ "$STDOUT" = 15360 ] || fail "printed '$STDOUT', expected 15 x 1 MiB from the record"
	out_has "warning: bg mount $DIR (10.99.0.1:/e) landed with nconnect=4, not the 8 the helper planned"
	out_has "(the helper's plan for this mount)"
	# a dry run leaves nothing; a record that cannot be written does not stop the mount
	rm -rf "$T/run/mounts"
	run 10.99.0.1:/e "$DIR" -f -o vers=3
	[ -e "$T/run/mounts" ] && fail "a dry run left a record"
	echo x > "$T/run/mounts"
	run 10.99.0.1:/e "$DIR" -o vers=3,bg
	status_is 0; out_quiet; mount_nfs_ran
	run 10.99.0.1:/e "$DIR" -v -o vers=3,bg
	status_is 0; out_has "cannot leave the plan in $T/run/mounts"
}

# ---- TLS: the sharing model (NFSv4 folds TLS policies into one client), refuse and warn ----
# plain_first VERS: a plain mount of 10.99.0.1 on $T/mnt/a through the helper, the stub acting as
# the kernel (STUB_KERNEL)
plain_first() {
	export STUB_KERNEL=$T/clients
	mkdir -p "$T/mnt/a"
	run 10.99.0.1:/a "$T/mnt/a" -o "vers=$1"
	status_is 0 "the plain mount"; out_quiet
}
tc_tls_beside_plain_refused() {
	plain_first 4.1
	run 10.99.0.1:/b "$DIR" -o vers=4.1,xprtsec=tls
	status_is 32; mount_nfs_not_run
	out_has "mount.nfs-tuned: refusing to mount: xprtsec=tls would land on the NFS client for 10.99.0.1 port 2049, NFSv4.1 over tcp, set up by $T/mnt/a (10.99.0.1:/a), which has no TLS; lacking: encryption and integrity protection"
	out_has "unmount the mounts of that client first, or mount with vers=3 or through another server address"
	grep -q " $DIR " "$T/mountinfo" && fail "mounted: $(cat "$T/mountinfo")"
	# mtls beside a tls client: the certificate is what it lacks
	no_clients
	plain_first 4.2,xprtsec=tls
	run 10.99.0.1:/b "$DIR" -o vers=4.2,xprtsec=mtls
	status_is 32; mount_nfs_not_run
	out_has "which has xprtsec=tls; lacking: the client certificate it asked to present"
}
tc_tls_beside_plain_warn() {
	conf "tls_policy = warn"
	plain_first 4.0
	run 10.99.0.1:/b "$DIR" -o vers=4.0,xprtsec=tls
	status_is 0; mount_nfs_ran
	out_has "mount.nfs-tuned: warning: xprtsec=tls would land on the NFS client for 10.99.0.1 port 2049, NFSv4.0 over tcp"
	out_has "tls_policy = refuse prevents it"
	# the kernel did fold it: the verification says so, and the mount stays
	out_has "warning: $DIR asked for xprtsec=tls but its mountinfo shows no xprtsec=: the kernel folded it into the existing NFS client of 10.99.0.1 (NFSv4.0), $T/mnt/a (10.99.0.1:/a)"
	out_has "the mount stays (tls_policy = warn)"
	grep -q " $DIR " "$T/mountinfo" || fail "not mounted: $(cat "$T/mountinfo")"
	argv_all | grep -q umount && fail "unmounted: $(argv_all)"
	return 0
}
tc_tls_folded_unexpectedly_unmounted() {
	# a client the plan could not see (made between the survey and the mount): the kernel folds
	# the TLS mount into it; under refuse the helper unmounts it and fails
	export STUB_KERNEL=$T/clients
	echo "10.99.0.1 4.1 1 none" > "$T/clients"
	run 10.99.0.1:/b "$DIR" -o vers=4.1,xprtsec=tls
	status_is 32; mount_nfs_ran
	out_has "mount.nfs-tuned: $DIR asked for xprtsec=tls but its mountinfo shows no xprtsec=: it landed on an NFS client of 10.99.0.1 (NFSv4.1), which a mount made meanwhile (a race)"
	out_has "its first requests already went that way; unmounting it (tls_policy = refuse)"
	out_has "unmounted $DIR: it did not get the TLS it asked for"
	value_is "second run" "$(sed -n '/^--$/,$p' "$T/stub/argv" | tr '\n' ' ')" "-- umount.nfs4 $DIR -- "
	grep -q " $DIR " "$T/mountinfo" && fail "still mounted: $(cat "$T/mountinfo")"
	ls "$T/run/mounts/" 2>/dev/null | grep -q . && fail "a record is left: $(ls "$T/run/mounts/")"
	# umount.nfs fails: said, still exit 32
	: > "$T/mountinfo"
	STUB_UMOUNT_EXIT=16 run 10.99.0.1:/b "$DIR" -o vers=4.1,xprtsec=tls
	status_is 32; out_has "cannot unmount $DIR ($STUB umount.nfs4 exited 16): it stays mounted without the TLS it asked for; unmount it: umount $DIR"
	# under warn: kept
	: > "$T/mountinfo"; conf "tls_policy = warn"
	run 10.99.0.1:/b "$DIR" -o vers=4.1,xprtsec=tls
	status_is 0; out_has "the mount stays (tls_policy = warn)"
	grep -q " $DIR " "$T/mountinfo" || fail "not mounted"
	return 0
}
tc_tls_plan() {
	plain_first 4.1
	run 10.99.0.1:/b "$DIR" -f -v -o vers=4.1,xprtsec=tls
	status_is 32; mount_nfs_not_run
	out_has "endpoint: 10.99.0.1:/b -> 10.99.0.1 (mount.nfs uses 10.99.0.1), port 2049, NFSv4.1 over tcp, xprtsec"
	out_has "client: 10.99.0.1 port 2049, NFSv4.1 over tcp: nconnect=1, $T/mnt/a (10.99.0.1:/a) <- another TLS policy, but NFSv4 trunking folds this mount into it"
	out_has "verdict: shares a client; nconnect: none; krb5: none; connections: 1; tls: refuse (asks tls, gets none)"
	# a plain mount beside a TLS client lands on it: said as sharing, nothing refused
	no_clients
	plain_first 4.1,xprtsec=tls
	run 10.99.0.1:/b "$DIR" -f -v -o vers=4.1,nconnect=4
	status_is 0
	out_has "client: 10.99.0.1 port 2049, NFSv4.1 over tcp with xprtsec=tls: nconnect=1, $T/mnt/a (10.99.0.1:/a) <- another TLS policy, but NFSv4 trunking folds this mount into it"
	out_has "warning: nconnect=4 cannot take effect: this mount shares the NFS client for 10.99.0.1 port 2049, NFSv4.1 over tcp with xprtsec=tls"
	out_has "tls: none (asks none, gets tls)"
}
tc_tls_nfsv3_separate() {
	plain_first 3
	run 10.99.0.1:/b "$DIR" -v -o vers=3,xprtsec=tls
	status_is 0; mount_nfs_ran; out_lacks "warning"; out_lacks "error"
	out_has "(other port, protocol or TLS policy: separate)"
	out_has "claim: net"; out_has "-10.99.0.1-2049-tcp-v3-tls: this mount creates the client"
	grep " $DIR " "$T/mountinfo" | grep -q "xprtsec=tls" || fail "no xprtsec=tls: $(cat "$T/mountinfo")"
}
tc_tls_claim_one_key() {
	# NFSv4 folds TLS policies: a plain mount's live claim is the TLS mount's key too
	export STUB_KERNEL=$T/clients
	mkdir -p "$T/run/clients"
	key=$(printf 'net%s-10.99.0.1-2049-tcp-v4.1' "$(stat -L -c %i /proc/self/ns/net)")
	printf '# nfs-tuned client claim 1\npid=1\nnconnect=1\nxprtsec=none\ntarget=/mnt/live\nspec=10.99.0.1:/live\n' > "$T/run/clients/$key.claim"
	flock "$T/run/clients/$key.claim" sleep 3 &
	local holder=$!
	sleep 0.3
	run 10.99.0.1:/b "$DIR" -o vers=4.1,xprtsec=tls
	kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null
	status_is 32; mount_nfs_not_run
	out_has "refusing to mount: xprtsec=tls would land on the NFS client for 10.99.0.1 port 2049, NFSv4.1 over tcp, set up by /mnt/live (10.99.0.1:/live), which has no TLS"
}
tc_udev_bdi_tls() {
	# a bg TLS mount that lands later on a plain client: the udev mode says so (its record)
	run 10.99.0.1:/e "$DIR" -o vers=4.1,xprtsec=tls,bg
	status_is 0
	grep -q "^xprtsec=tls$" "$T/run/mounts/"* || fail "record: $(cat "$T/run/mounts/"*)"
	echo "60 21 0:60 / $DIR rw,relatime - nfs4 10.99.0.1:/e rw,vers=4.1,rsize=1048576,hard,proto=tcp,sec=sys,addr=10.99.0.1" > "$T/mountinfo"
	run --udev-bdi 0:60
	out_has "bg mount $DIR (10.99.0.1:/e) asked for xprtsec=tls but landed on an NFS client of server 10.99.0.1 with no TLS"
	out_has "lacking: encryption and integrity protection"
}

# ---- hardening: what mounted before keeps mounting; no input hangs, leaks or widens a rule ----
tc_kernel_number_forms() {
	# the kernel reads u32 options with base 0 (0x hex, 0 octal, a leading +): the helper too
	for v in 0x4 +4 0X4 04; do
		: > "$T/mountinfo"
		newmount 0:60 "${V3NEW/hard,/hard,nconnect=4,}"
		run 10.99.0.1:/e "$DIR" -o "vers=3,nconnect=$v"
		status_is 0 "nconnect=$v"; mount_nfs_ran; out_quiet
		value_is "options passed" "$(argv 5)" "vers=3,nconnect=$v"
	done
	# 010 is 8 to the kernel: the kernel's 8 is what was planned, no "raced" warning
	: > "$T/mountinfo"
	newmount 0:60 "${V3NEW/hard,/hard,nconnect=8,}"
	run 10.99.0.1:/e "$DIR" -o vers=3,nconnect=010
	status_is 0; out_quiet
	: > "$T/mountinfo"
	newmount 0:60 "$V3NEW"
	run 10.99.0.1:/e "$DIR" -o vers=3,port=0x801
	status_is 0; mount_nfs_ran
	# 08 is no octal number: the kernel refuses it, so does the helper, saying what it must be
	run 10.99.0.1:/e "$DIR" -o vers=3,nconnect=08
	status_is 32; mount_nfs_not_run; out_has "nconnect=08 (from the command line) is not valid: it must be a number from 1 to 16"
}
tc_bad_values_named() {
	run 10.99.0.1:/e "$DIR" -o v4.99
	status_is 32; out_has "refusing to mount: v4.99 (from the command line) is not valid: it must be v3, v4, v4.0, v4.1 or v4.2"
	out_lacks "must be see"; out_lacks "v4.99="
	conf '[global]' 'v4.99' '[server "10.0.0.0/33"]'
	run --check-config
	status_is 1; out_has "$T/conf:2: v4.99: v4.99 must be v3, v4, v4.0, v4.1 or v4.2, skipped"
	out_has "not a valid CIDR: the prefix length of an IPv4 network is 0 to 32"
}
tc_config_not_regular() {
	# a FIFO would block an open() without O_NONBLOCK: every mount would hang
	rm -f "$T/conf"; mkfifo "$T/conf"
	mkdir "$T/conf.d"; mkfifo "$T/conf.d/a.conf"; ln -s /dev/zero "$T/conf.d/b.conf"; mkdir "$T/conf.d/c.conf"
	newmount 0:60 "$V3NEW"
	rm -f "$T/stub/argv"
	timeout 20 "$HELPER" 10.99.0.1:/e "$DIR" -o vers=3 > "$T/out" 2> "$T/err"; took $?
	status_is 0; mount_nfs_ran
	for f in conf conf.d/a.conf conf.d/b.conf conf.d/c.conf; do out_has "$T/$f: not used: not a regular file"; done
	out_lacks "Invalid argument"
}
tc_empty_dropin_dir() {
	# no drop-in at all: nothing to sort (qsort of no array is undefined behaviour)
	mkdir "$T/conf.d"
	conf '[global]' 'hard'
	run --check-config
	status_is 0; out_lacks "runtime error"
}
tc_config_stray_header() {
	# a byte-order mark before the first header is not part of it
	printf '\357\273\277[server "10.99.0.9"]\nnconnect = 8\n' > "$T/conf"
	run 10.99.0.1:/e "$DIR" -f -v -o vers=3
	status_is 0; out_lacks "nconnect=8"; out_lacks "warning"
	# a header behind other bytes: its options apply to nothing, least of all every mount
	printf '\342\200\213[server "10.99.0.9"]\nnconnect_policy = refuse\nnconnect = 8\n[global]\nhard\n' > "$T/conf"
	run 10.99.0.1:/e "$DIR" -f -v -o vers=3
	status_is 0; out_lacks "nconnect=8"; out_lacks "nconnect_policy"; out_has "hard from $T/conf:5"
	out_has "is neither an option nor a section header"
}
tc_divert_loop_copy() {
	# the real mount.nfs is a copy of the helper (not the same file): it refuses at once,
	# instead of waiting on the lock the helper that ran it holds
	cp "$HELPER" "$T/bin/mount.nfs.distrib"
	export NFS_TUNED_MOUNT_NFS=$T/bin/mount.nfs.distrib
	timeout 20 "$HELPER" 10.99.0.1:/e "$DIR" -o vers=3 > "$T/out" 2> "$T/err"; took $?
	status_is 2; out_has "a divert loop (is the real mount.nfs a copy of this helper?)"
	out_lacks "held"
}
tc_mount_nfs_list_passes_over_helper() {
	# the RPM's list while nfs-tuned-front has put the helper in place of mount.nfs: that name
	# is passed over for the binary kept aside; after an nfs-utils update whose trigger failed
	# mount.nfs is the new real binary again, and it is the one run, not the one aside
	ln -s "$HELPER" "$T/bin/mount.nfs"; cp "$STUB" "$T/bin/mount.nfs.nfs-utils"
	export NFS_TUNED_MOUNT_NFS=$T/bin/mount.nfs:$T/bin/mount.nfs.nfs-utils
	run 10.99.0.1:/e "$DIR" -f -v -o vers=3
	status_is 0; out_has "exec: $T/bin/mount.nfs.nfs-utils 10.99.0.1:/e"
	rm "$T/bin/mount.nfs"; cp "$STUB" "$T/bin/mount.nfs"
	run 10.99.0.1:/e "$DIR" -f -v -o vers=3
	status_is 0; out_has "exec: $T/bin/mount.nfs 10.99.0.1:/e"
	# the helper alone in the list: still a divert loop
	rm "$T/bin/mount.nfs.nfs-utils" "$T/bin/mount.nfs"; ln -s "$HELPER" "$T/bin/mount.nfs"
	run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 2; out_has "refusing to run $T/bin/mount.nfs: it is this helper itself"
}
# as_nobody_setuid ARGS...: the helper installed setuid root (on a tmpfs: /tmp may be nosuid)
# and run as user nobody, in a private mount namespace whose /etc and /usr/lib/nfs-tuned.conf.d
# are $T/etc and $T/vendor (a setuid run takes no path from the environment); --root: run by
# root, the same way; sets RC, OUT
as_nobody_setuid() {
	local u=""
	[ "${1:-}" = --root ] && { u=root; shift; }
	unshare --mount --propagation private sh -c '
		T=$1 H=$2 U=$3; shift 3
		mount -t tmpfs -o mode=755 tmpfs "$T/suid" && install -m 4755 "$H" "$T/suid/h" &&
		mount --bind "$T/etc" /etc && mkdir -p /usr/lib/nfs-tuned.conf.d &&
		mount --bind "$T/vendor" /usr/lib/nfs-tuned.conf.d || exit 99
		unset $(env | sed -n "s/^\(NFS_TUNED_[A-Z_]*\)=.*/\1/p")
		if [ -n "$U" ]; then exec "$T/suid/h" "$@"; fi
		exec setpriv --reuid=65534 --regid=65534 --clear-groups "$T/suid/h" "$@"' \
		sh "$T" "$HELPER" "$u" "$@" > "$T/out" 2> "$T/err"
	took $?
	OUT="$(cat "$T/out")$OUT"
}
tc_setuid_user_sees_no_root_only_config() {
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
	unshare --mount true 2>/dev/null || { echo "SKIP: cannot create a mount namespace here"; exit 77; }
	mkdir -p "$T/suid" "$T/etc/nfs-tuned.conf.d" "$T/vendor"
	printf '[global]\nmount_nfs = /opt/hidden/mount.nfs\nread_ahead_kb = 4321\n[server "10.99.0.1"]\nsec = krb5p\nclientaddr = 10.77.7.7\nnconnect = 7\nSECRETWORD here\n' > "$T/etc/nfs-tuned.conf"
	printf '[mountpoint "/srv/*"]\nnocto\n' > "$T/etc/nfs-tuned.conf.d/open.conf"
	chmod 600 "$T/etc/nfs-tuned.conf"; chmod 755 "$T/etc" "$T/etc/nfs-tuned.conf.d" "$T" "$T/vendor"
	chmod 644 "$T/etc/nfs-tuned.conf.d/open.conf"
	# never the lines, other sections, the exec line's options, the program or the read-ahead
	hidden() { for w in clientaddr 10.77.7.7 SECRETWORD 4321 /opt/hidden 'vers=3,'; do out_lacks "$w"; done; }
	# root sees it all: the words the checks below look for are there to find
	as_nobody_setuid --root --check-config -v
	status_is 1; out_has "sec = krb5p"; out_has SECRETWORD; out_has "nocto"
	as_nobody_setuid --check-config -v
	status_is 1; hidden; out_lacks krb5p; out_has "1 problem in a file you cannot read; not shown"
	out_has "2 sections of files you cannot read; not shown"; out_has "nocto  (/etc/nfs-tuned.conf.d/open.conf:2)"
	as_nobody_setuid --root 10.99.0.1:/e /mnt -f -v -o vers=3
	out_has "exec: /opt/hidden/mount.nfs"; out_has "read-ahead: 4321 KiB"; out_has SECRETWORD
	as_nobody_setuid 10.99.0.1:/e /mnt -f -v -o vers=3
	status_is 0; hidden; out_has "exec: mount.nfs with settings of files you cannot read; not shown"
	out_has "1 problem in a file you cannot read"; out_has "config: 2 sections of files you cannot read apply"
	# what the mount itself will be told stays said: the kernel shows sec= and nconnect= of
	# every mount to every user once it is made (mount.nfs-tuned(8), SECURITY)
	out_has "sec=krb5p on an NFS client with 7 connections"
	as_nobody_setuid 10.99.0.2:/e /mnt -f -v -o vers=3
	out_has "config: 1 section of files you cannot read applies; not shown"
	printf '[server "10.99.0.1"]\nvers = 9SECRET\n' >> "$T/etc/nfs-tuned.conf"
	as_nobody_setuid 10.99.0.1:/e /mnt -f -v
	status_is 0; hidden; out_lacks 9SECRET; out_has "2 problems in a file you cannot read"
}
tc_config_dropin_link_through_users_dir() {
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
	# a drop-in linked into a directory a user owns: that user can point it at any file of
	# root's (here a shadow-format one) and the parse problems would quote its lines
	printf 'root:$6$HASHSECRET:19000:0:99999:7:::\n' > "$T/shadow"; chmod 600 "$T/shadow"
	mkdir -p "$T/conf.d" "$T/user"; chown 65534:65534 "$T/user"
	ln -s "$T/shadow" "$T/user/x.conf"; chown -h 65534:65534 "$T/user/x.conf"
	ln -s "$T/user/x.conf" "$T/conf.d/x.conf"
	run 10.99.0.1:/e "$DIR" -f -o vers=3
	status_is 0; out_lacks HASHSECRET
	out_has "$T/conf.d/x.conf: not used: $T/user is owned by uid 65534, not root: every directory and link on the way must be root's"
	run --check-config
	status_is 1; out_lacks HASHSECRET; out_has "$T/conf.d/x.conf: not used: $T/user is owned by uid 65534"
}
tc_mount_nfs_through_users_dir() {
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
	# root runs the program mount_nfs names: not from a directory another user could fill
	mkdir "$T/u"; cp "$STUB" "$T/u/mount.nfs"; chown 65534:65534 "$T/u"
	export NFS_TUNED_MOUNT_NFS=$T/u/mount.nfs
	run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 2; mount_nfs_not_run
	out_has "refusing to run $T/u/mount.nfs: a directory or link on its path is not root's"
}
tc_config_problems_capped() {
	# a file of bad lines: the first 50 said, the rest counted, on every mount and in
	# --check-config (a 1 MiB one gave 524,031 warnings, 1.3 s and 64 MB a mount)
	for i in $(seq 1 400); do echo "bad line $i"; done > "$T/conf"
	run 10.99.0.1:/e "$DIR" -f -o vers=3
	status_is 0; value_is "warnings" "$(grep -c 'warning:' "$T/err")" 51
	out_has "$T/conf:50: 'bad line 50'"; out_lacks "$T/conf:51:"
	out_has "warning: 350 more configuration problems not shown; fix them: mount.nfs-tuned --check-config"
	run --check-config
	status_is 1; value_is "lines" "$(wc -l < "$T/err")" 51; out_has "350 more problems not shown (the first 50 are)"
}
tc_setuid_fstab_through_users_dir() {
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
	unshare --mount true 2>/dev/null || { echo "SKIP: cannot create a mount namespace here"; exit 77; }
	# a user's run takes helper keys from its fstab entry: an fstab reached through a directory
	# that user owns is theirs to write, so it gives none
	mkdir -p "$T/suid" "$T/etc" "$T/vendor" "$T/u"; chmod 755 "$T" "$T/etc" "$T/vendor"
	echo "10.99.0.1:/e /mnt nfs user,noauto,read_ahead_kb=4321 0 0" > "$T/etc/fstab"
	as_nobody_setuid 10.99.0.1:/e /mnt -f -v -o vers=3,read_ahead_kb=4321
	status_is 0; out_lacks "not used"
	mv "$T/etc/fstab" "$T/u/fstab"; chown -R 65534:65534 "$T/u"; ln -s "$T/u/fstab" "$T/etc/fstab"
	as_nobody_setuid 10.99.0.1:/e /mnt -f -v -o vers=3,read_ahead_kb=4321
	status_is 0; out_has "read_ahead_kb=4321 on the command line not used"
}
tc_udev_bdi_root_only() {
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
	unshare --mount true 2>/dev/null || { echo "SKIP: cannot create a mount namespace here"; exit 77; }
	# through the setuid binary any user could put lines in syslog as root's
	mkdir -p "$T/suid" "$T/etc" "$T/vendor"; chmod 755 "$T" "$T/etc" "$T/vendor"
	as_nobody_setuid --udev-bdi 0:60 -v
	status_is 1; out_has "--udev-bdi is for udev (run as root), not uid 65534"
	as_nobody_setuid --root --udev-bdi 0:9999 -v
	status_is 1; out_lacks "is for udev"
}
tc_no_fd_leak() {
	# mount.nfs inherits what the caller gave, nothing of the helper's own
	STUB_DIR=$T/stub "$STUB" x y; mv "$T/stub/fds" "$T/fds.plain"; rm -f "$T/stub/argv"
	newmount 0:60 "$V3NEW"
	run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 0; value_is "descriptors mount.nfs inherited" "$(cat "$T/stub/fds")" "$(cat "$T/fds.plain")"
	# with stdin, stdout and stderr closed, nothing of the helper lands on them
	rm -f "$T/stub/argv"
	"$HELPER" 10.99.0.1:/e "$DIR" -o vers=3 <&- >&- 2>&-; took $?
	status_is 0; value_is "descriptors with stdio closed" "$(cat "$T/stub/fds")" "$(cat "$T/fds.plain")"
}
tc_run_dir_untrusted() {
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
	newmount 0:60 "$V3NEW"
	key=$(printf 'net%s-10.99.0.1-2049-tcp-v3' "$(stat -L -c %i /proc/self/ns/net)")
	# a run directory others may write: no lock taken in it, the mount goes on
	chmod 777 "$T/run"
	: > "$T/mountinfo"; run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 0; mount_nfs_ran; out_has "not locking $T/run/clients/$key.lock"
	[ -e "$T/run/clients" ] && fail "a lock file was made in a directory others may write"
	[ -e "$T/run/mounts" ] && fail "a mount record was left in a directory others may write"
	# a link in its place is not followed
	chmod 755 "$T/run"; mkdir "$T/elsewhere"; rm -rf "$T/run"; ln -s "$T/elsewhere" "$T/run"
	: > "$T/mountinfo"; run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 0; mount_nfs_ran; out_has "warning: cannot lock"
	[ -e "$T/elsewhere/clients" ] && fail "the lock was made through a link"
	[ -e "$T/elsewhere/mounts" ] && fail "the mount record was left through a link"
	# one in a directory another user owns, who could swap it for anything: not used
	mkdir -p "$T/u/run"; chown 65534:65534 "$T/u"
	: > "$T/mountinfo"; NFS_TUNED_RUNDIR=$T/u/run run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 0; mount_nfs_ran; out_has "warning: not locking $T/u/run/clients/$key.lock"
	[ -e "$T/u/run/clients" ] && fail "the lock was made under another user's directory"
	[ -e "$T/u/run/mounts" ] && fail "the mount record was left under another user's directory"
	# a FIFO in place of the lock file: refused at once, never waited on
	rm "$T/run"; mkdir -p "$T/run/clients"; mkfifo "$T/run/clients/$key.lock"
	: > "$T/mountinfo"; timeout 20 "$HELPER" 10.99.0.1:/e "$DIR" -o vers=3 > "$T/out" 2> "$T/err"; took $?
	status_is 0; out_has "not locking $T/run/clients/$key.lock"
	# another user's lock file is not ours either
	rm "$T/run/clients/$key.lock"; touch "$T/run/clients/$key.lock"; chown 1:1 "$T/run/clients/$key.lock"
	: > "$T/mountinfo"; run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 0; out_has "not locking"
}
tc_messages_escaped() {
	# a newline in the input cannot forge a second message line
	run "$(printf 'bad\nmount.nfs-tuned forged')" "$DIR"
	status_is 1; out_has "'bad\x0amount.nfs-tuned forged' is not a remote file system"
	value_is "lines printed" "$(printf '%s' "$OUT" | wc -l)" 1
}

# switch DIR ADDR PORT NXPRTS: one RPC transport switch under the fixture sysfs
switch() {
	local d=$T/sys/kernel/sunrpc/xprt-switches/$1
	mkdir -p "$d/xprt-1-tcp" "$d/xprt-2-tcp"
	printf 'num_xprts=%s\nnum_active=%s\nnum_unique_destaddr=1\nqueue_len=0\n' "$4" "$4" > "$d/xprt_switch_info"
	printf '%s\n' "$2" > "$d/xprt-1-tcp/dstaddr"; printf '%s\n' "$2" > "$d/xprt-2-tcp/dstaddr"
	# an extra transport connects lazily: until then it shows no port
	printf '<closed>\n' > "$d/xprt-1-tcp/xprt_info"
	printf 'last_used=0\ncur_cong=0\ncong_win=256\nmax_num_slots=65536\nmin_num_slots=2\nnum_reqs=2\nbinding_q_len=0\nsending_q_len=0\npending_q_len=0\nbacklog_q_len=0\nmain_xprt=1\nsrc_port=778\ndst_port=%s\n' "$3" > "$d/xprt-2-tcp/xprt_info"
}
tc_hidden_client_sunrpc() {
	# the hidden client of 10.99.0.2 has 4 transports; the visible one of 10.99.0.1 has its own
	# switch, and the lab's other RPC clients (rpcbind, another port) are not NFS's
	fixture mountinfo-v3-nconnect4 nfsfs-servers-hidden nfsfs-volumes-hidden
	switch switch-1 10.99.0.1 2049 4; switch switch-2 10.99.0.2 2049 4; switch switch-3 10.99.0.2 111 1
	run 10.99.0.2:/export/c "$DIR" -f -v -o vers=3,nconnect=4
	status_is 0; out_lacks "cannot take effect"; out_has "4 connections (sunrpc)"
	out_has "verdict: shares a client of another mount namespace; nconnect: none; krb5: none; connections: 4"
	run 10.99.0.2:/export/c "$DIR" -f -o vers=3,nconnect=8
	status_is 0; out_has "it has 4 connections (its transports in /sys/kernel/sunrpc)"
	# krb5 on it: its 4 connections are known, so the admin's refuse applies
	conf 'krb5_policy = refuse'
	run 10.99.0.2:/export/c "$DIR" -f -o vers=3,sec=krb5
	status_is 32; out_has "refusing to mount: sec=krb5 on an NFS client with 4 connections"
	# two switches that disagree for one hidden client: which is its own cannot be told
	conf ''
	switch switch-4 10.99.0.2 2049 2
	run 10.99.0.2:/export/c "$DIR" -f -o vers=3,nconnect=4
	status_is 0; out_has "cannot be read"
}

# ---- layered configuration and vendor profiles ----
vendor() { mkdir -p "$T/vendor"; printf '%s\n' "${@:2}" > "$T/vendor/$1"; }
tc_layered_config() {
	vendor 10-image.conf '[global]' 'nconnect = 4' 'hard' 'timeo = 300'
	vendor 20-site.conf '[global]' 'actimeo = 30' 'retrans = 5'
	# a broken vendor file: its bad line is reported with file:line, the rest applies
	vendor 30-broken.conf '[global]' 'nconnect_policy = sometimes' 'rsize = 65536'
	conf '[global]' 'nconnect = 8'
	run 10.99.0.1:/e "$DIR" -f -v -o vers=3
	status_is 0
	# per key: /etc's nconnect wins, the vendor's other keys stay
	out_has "exec: $STUB 10.99.0.1:/e $DIR -v -o hard,timeo=300,actimeo=30,retrans=5,rsize=65536,nconnect=8,vers=3"
	out_has "config: nconnect=8 from $T/conf:2"; out_has "config: hard from $T/vendor/10-image.conf:3"
	out_has "$T/vendor/30-broken.conf:2: nconnect_policy=sometimes"
	# a file of the same name in /etc masks the vendor's (an empty one, or a link to /dev/null)
	mkdir "$T/conf.d"; : > "$T/conf.d/20-site.conf"; ln -s /dev/null "$T/conf.d/30-broken.conf"
	run 10.99.0.1:/e "$DIR" -f -v -o vers=3
	status_is 0; opts_lacks actimeo=30; opts_lacks rsize=65536; out_lacks "30-broken.conf:2"
	run --check-config -v
	status_is 0
	grep -qF "file: $T/vendor/20-site.conf: masked by $T/conf.d/20-site.conf" "$T/out" || fail "no masking shown: $(cat "$T/out")"
	grep -qF "    timeo = 300  ($T/vendor/10-image.conf:4)" "$T/out" || fail "no origin shown: $(cat "$T/out")"
	# /etc's drop-ins come after /etc/nfs-tuned.conf, the vendor's before it
	printf '[global]\nnconnect = 2\n' > "$T/conf.d/90-last.conf"
	run 10.99.0.1:/e "$DIR" -f -v -o vers=3
	out_has "config: nconnect=2 from $T/conf.d/90-last.conf:2"
}
tc_profiles_shipped() {
	# every shipped profile file parses without a problem
	mkdir -p "$T/vendor"; cp "$FIXTURES"/../../profiles/*.conf "$T/vendor/"
	run --check-config
	status_is 0
	# a service name gets its profile with nothing in /etc
	run acct1.file.core.windows.net:/acct1/share "$DIR" -f -v -o sec=sys
	status_is 0
	out_has "-o vers=4.1,nconnect=4,sec=sys"; out_has "read-ahead: 15360 KiB"
	out_has "config: profile=azure-files from $T/vendor/60-services.conf:5"
	out_has "[profile \"azure-files\"] applies"
	run fs-12345678.efs.eu-west-1.amazonaws.com:/ "$DIR" -f -v
	status_is 0
	out_has "-o vers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,noresvport"
	out_has "read-ahead: 15 x the effective rsize"
	# an admin's key overrides the profile's and keeps the rest; a server names another profile
	conf '[server "*.file.core.windows.net"]' 'nconnect = 2' '[server "10.99.0.1"]' 'profile = azure-netapp-files'
	run acct1.file.core.windows.net:/acct1/share "$DIR" -f -v
	out_has "-o vers=4.1,nconnect=2"; out_has "read-ahead: 15360 KiB"
	run 10.99.0.1:/vol1 "$DIR" -f -v -o vers=3
	out_has "-v -o nconnect=8,rsize=262144,wsize=262144,hard,vers=3"
	# the profile's krb5 rule: refuse
	run 10.99.0.1:/vol1 "$DIR" -f -o vers=3,sec=krb5p
	status_is 32; out_has "refusing to mount: sec=krb5p"
	# a profile nobody defined is a configuration error, with its line
	conf '[server "10.99.0.1"]' 'profile = azure-netap-files'
	run --check-config
	status_is 1; out_has "$T/conf:2: profile azure-netap-files is not defined"
}
tc_shared_client_names() {
	# another storage account behind the same address shares the client: said by name
	cat > "$T/mountinfo" <<EOF2
41 21 0:60 / /mnt/acct1 rw,relatime - nfs4 acct1.file.core.windows.net:/acct1/a rw,vers=4.1,nconnect=4,addr=10.99.0.1
EOF2
	printf 'NV SERVER   PORT USE HOSTNAME\nv4 0a630001  801   1 10.99.0.1\n' > "$T/nfsfs/servers"
	conf '[server "10.99.0.1"]' 'profile = azure-files'
	mkdir -p "$T/vendor"; cp "$FIXTURES"/../../profiles/50-azure-files.conf "$T/vendor/"
	run 10.99.0.1:/acct2/b "$DIR" -f
	status_is 0
	out_has "warning: 10.99.0.1 shares the NFS client for 10.99.0.1 port 2049, NFSv4.1 over tcp with /mnt/acct1 (acct1.file.core.windows.net:/acct1/a), mounted under another server name"
	# without the profile's key: nothing said
	conf '[server "10.99.0.1"]' 'vers = 4.1' 'nconnect = 4'
	run 10.99.0.1:/acct2/b "$DIR" -f
	status_is 0; out_quiet
}

tc_record_after_mount() {
	# what was asked and where it came from; once mounted, the superblock (nfs-tuned status)
	conf '[server "10.99.0.1"]' 'nconnect = 4'
	newmount 0:60 "${V3NEW/hard,/hard,nconnect=4,}"
	run 10.99.0.1:/export/b "$DIR" -o vers=3
	status_is 0; out_quiet
	OUT=$(cat "$T/run/mounts/"*)
	out_has "nconnect_requested=4"; out_has "nconnect_from=config"; out_has "read_ahead_from=none"
	out_has "dev=0:60"
}

if [ "${1:-}" = --list ]; then
	declare -F | sed -n 's/^declare -f tc_//p' | tr _ -
	exit 0
fi
[ $# = 4 ] || { echo "usage: cases.sh --list | cases.sh HELPER STUB FIXTURES CASE" >&2; exit 2; }
HELPER=$1 STUB=$2 FIXTURES=$3 CASE=$4
case $CASE in
*_*) fn= ;;
*) fn=tc_${CASE//-/_} ;;
esac
[ -n "$fn" ] && declare -F "$fn" > /dev/null || { echo "unknown case $CASE (cases.sh --list)"; exit 2; }

T=$(mktemp -d "${TMPDIR:-/tmp}/nfs-tuned-it.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/nfsfs" "$T/sys/class/bdi" "$T/run" "$T/stub" "$T/mnt/b" "$T/bin" "$T/proc"
: > "$T/mountinfo"
: > "$T/conf"
chmod 644 "$T/conf"
export NFS_TUNED_CONFIG=$T/conf NFS_TUNED_VENDOR_CONFIG=$T/vendor NFS_TUNED_MOUNTINFO=$T/mountinfo NFS_TUNED_NFSFS=$T/nfsfs \
	   NFS_TUNED_SYSFS=$T/sys NFS_TUNED_RUNDIR=$T/run NFS_TUNED_UDEV_CONTROL=$T/no-udev \
	   NFS_TUNED_MOUNT_NFS=$STUB STUB_DIR=$T/stub NFS_TUNED_PROC=$T/proc
unset STUB_EXIT STUB_MOUNTINFO_LINE STUB_BDI STUB_SLEEP_MS STUB_KERNEL STUB_KERNEL_DELAY_MS NFS_TUNED_UDEV_RULES NFS_TUNED_UDEV_NS
DIR=$T/mnt/b
STDOUT=

"$fn"

[ "$FAILURES" = 0 ] && { echo "ok $CASE"; exit 0; }
exit 1
