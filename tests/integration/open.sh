#!/bin/bash
# Integration cases, open: the command line and the names the helper is called by, the real
# mount.nfs found and opened (never this helper itself), -N into another namespace.
# How a file of cases runs: mount-lib.sh.
. "$(dirname "${BASH_SOURCE[0]}")/mount-lib.sh"

tc_self_exec_refused() {
	export NFS_TUNED_MOUNT_NFS=$HELPER
	run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 2; out_has "refusing to run $HELPER: it is this helper itself"
	helper_link mount.nfs
	export NFS_TUNED_MOUNT_NFS=$T/bin/mount.nfs
	run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 2; out_has "refusing to run $T/bin/mount.nfs: it is this helper itself"
	out_has "mount_nfs in [global]"
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
# a user runs the helper and it is not setuid root (the package made it so: nfs-common's
# mount.nfs was not either): refused before anything is read or run, as mount.nfs says
tc_user_without_setuid_refused() {
	local runas=()
	chmod -R a+rX "$T"
	[ "$(id -u)" != 0 ] || runas=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
	unset NFS_TUNED_MOUNT_NFS
	conf "mount_nfs = $STUB"
	"${runas[@]}" "$HELPER" 10.99.0.1:/e "$DIR" -o vers=3 >"$T/out" 2>"$T/err"
	took $?
	status_is 32; out_has 'not installed setuid: "user" NFS mounts are off'
	out_has "setuid root (see USER MOUNTS in mount.nfs-tuned(8))"
	mount_nfs_not_run
	# a dry run says what it would do
	"${runas[@]}" "$HELPER" 10.99.0.1:/e "$DIR" -f -o vers=3 >"$T/out" 2>"$T/err"
	took $?
	status_is 0; out_quiet
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
tc_invocation_names() {
	ln -s "$HELPER" "$T/bin/mount.nfs4"; ln -s "$HELPER" "$T/bin/mount.nfs"
	HELPER=$T/bin/mount.nfs4 run 10.99.0.1:/e "$DIR" -o rsize=65536
	status_is 0; argv_is 1 mount.nfs4
	HELPER=$T/bin/mount.nfs run 10.99.0.1:/e "$DIR" -t nfs4 -s -n -r -o rsize=65536
	status_is 0; argv_is 1 mount.nfs4
	argv_all | grep -qE -- ' -t |nfs4 (.* )?nfs4' && fail "-t forwarded: $(argv_all)"
	argv_is 4 -s; argv_is 5 -n; argv_is 6 -r
	HELPER=$T/bin/mount.nfs run 10.99.0.1:/e "$DIR" -o rsize=65536
	argv_is 1 mount.nfs
}
tc_namespace_option_not_forwarded() {
	needs_root "-N enters a mount namespace: setns(2) needs CAP_SYS_ADMIN"
	ln -s "$HELPER" "$T/bin/mount.nfs"
	HELPER=$T/bin/mount.nfs run 10.99.0.1:/e "$DIR" -t nfs4 -N "$$" -s -n -r -o rsize=65536
	status_is 0; argv_is 1 mount.nfs4
	argv_all | grep -qE -- ' -t | -N |nfs4 (.* )?nfs4' && fail "-t or -N forwarded: $(argv_all)"
	argv_is 4 -s; argv_is 5 -n; argv_is 6 -r
}
tc_namespace_with_own_proc() {
	# -N into a mount namespace whose /proc belongs to another PID namespace (a container):
	# /proc/self does not resolve there, so every read goes through the caller's root
	needs_root "-N enters a mount namespace: setns(2) needs CAP_SYS_ADMIN"
	unshare -m -p -f --mount-proc --kill-child sleep 30 >/dev/null 2>&1 & ns=$!
	sleep 0.5
	kill -0 "$ns" 2>/dev/null && [ "$(readlink /proc/$ns/ns/mnt)" != "$(readlink /proc/self/ns/mnt)" ] ||
		{ echo "SKIP: cannot create mount and PID namespaces here"; exit 77; }
	fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
	# the new mount's parent is the directory's mount there, in the target's own numbering
	# (statx, no /proc needed): a line with another parent is not what mount.nfs made
	local parent; parent=$(nsenter -t "$(pgrep -P "$ns" | head -n1)" -m -p findmnt -no ID -T "$T/mnt")
	newmount 0:53 "${V3NEW/hard,/hard,nconnect=4,}" 99999
	# under ASan: LeakSanitizer reads /proc/self/task at exit, which the target's /proc lacks
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		run 10.99.0.1:/export/b "$DIR" -N "$ns" -o vers=3,nconnect=8
	status_is 0; out_has "warning: mounted, but no NFS mount on $DIR shows"
	fixture mountinfo-v3-nconnect4
	newmount 0:53 "${V3NEW/hard,/hard,nconnect=4,}" "$parent"
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
	out_has "read_ahead_kb=lots on the command line is not valid: it must be a size in KiB (15360), a multiple of rsize (15x), auto, auto:MAX (KiB) or keep"
	run 10.99.0.1:/e "$DIR" -N /nonexistent/ns; status_is 2; out_has "cannot enter the mount namespace /nonexistent/ns"
	mount_nfs_not_run
	run -h; status_is 0; grep -q "Usage: mount.nfs-tuned" "$T/out" || fail "-h prints no usage"
	run -V; status_is 0; grep -q "^mount.nfs-tuned [0-9]" "$T/out" || fail "-V prints no version"
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
	helper_link mount.nfs; cp "$STUB" "$T/bin/mount.nfs.nfs-utils"
	export NFS_TUNED_MOUNT_NFS=$T/bin/mount.nfs:$T/bin/mount.nfs.nfs-utils
	run 10.99.0.1:/e "$DIR" -f -v -o vers=3
	status_is 0; out_has "exec: $T/bin/mount.nfs.nfs-utils 10.99.0.1:/e"
	rm "$T/bin/mount.nfs"; cp "$STUB" "$T/bin/mount.nfs"
	run 10.99.0.1:/e "$DIR" -f -v -o vers=3
	status_is 0; out_has "exec: $T/bin/mount.nfs 10.99.0.1:/e"
	# the helper alone in the list: still a divert loop
	rm "$T/bin/mount.nfs.nfs-utils" "$T/bin/mount.nfs"; helper_link mount.nfs
	run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 2; out_has "refusing to run $T/bin/mount.nfs: it is this helper itself"
}
# the program root runs (a user's run runs the user's own, as that user)
MOUNT_NFS_ROOTS="root runs only a mount.nfs of root's, along root's directories (chown)"
tc_mount_nfs_not_roots() {
	needs_root "$MOUNT_NFS_ROOTS"
	# root runs the program mount_nfs names: one another user owns, or any user may write, is
	# theirs to replace with anything, in a directory of root's or not
	cp "$STUB" "$T/bin/mount.nfs"; export NFS_TUNED_MOUNT_NFS=$T/bin/mount.nfs
	chown 65534:65534 "$T/bin/mount.nfs"
	run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 2; mount_nfs_not_run; out_has "refusing to run $T/bin/mount.nfs: it, or a directory"
	chown 0:0 "$T/bin/mount.nfs"; chmod 777 "$T/bin/mount.nfs"
	run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 2; mount_nfs_not_run; out_has "refusing to run $T/bin/mount.nfs"
	chmod 775 "$T/bin/mount.nfs"
	run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 2; mount_nfs_not_run
	chmod 755 "$T/bin/mount.nfs"
	run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 0; mount_nfs_ran
}
tc_mount_nfs_through_users_dir() {
	needs_root "$MOUNT_NFS_ROOTS"
	# root runs the program mount_nfs names: not from a directory another user could fill
	mkdir "$T/u"; cp "$STUB" "$T/u/mount.nfs"; chown 65534:65534 "$T/u"
	export NFS_TUNED_MOUNT_NFS=$T/u/mount.nfs
	run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 2; mount_nfs_not_run
	out_has "refusing to run $T/u/mount.nfs: it, or a directory or link on its path, is not root's"
}

run_cases "$@"
