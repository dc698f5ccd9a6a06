#!/bin/bash
# Integration cases, exec and verify: mount.nfs's argv, exit status and descriptors; the new
# mount checked against the plan; the mount record; umount passed through.
# How a file of cases runs: mount-lib.sh.
. "$(dirname "${BASH_SOURCE[0]}")/mount-lib.sh"

tc_good_mount_silent() {
	newmount 0:60 "$V3NEW"
	run 10.99.0.1:/export/b "$DIR" -o vers=3
	status_is 0; mount_nfs_ran; out_quiet
	argv_is 1 mount.nfs; argv_is 2 10.99.0.1:/export/b; argv_is 3 "$DIR"; argv_is 4 -o; argv_is 5 vers=3
}
tc_exit_status_passthrough() {
	for s in 32 1 2 16 64; do
		export STUB_EXIT=$s
		run 10.99.0.1:/e "$DIR" -o vers=3
		status_is "$s"; mount_nfs_ran
	done
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
	export STUB_MOUNTINFO_LINE="61 $PARENT 0:54 / $DIR rw,relatime shared:61 - nfs4 127.0.0.2:/ rw,vers=4.1,rsize=524288,wsize=524288,namlen=255,hard,proto=tcp,timeo=600,retrans=2,sec=sys,clientaddr=127.0.0.1,local_lock=none,addr=127.0.0.1"
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
tc_record_after_mount() {
	# what was asked and where it came from, the boot it was made in; once mounted, the
	# superblock (nfs-tuned status)
	needs_root_records
	conf '[server "10.99.0.1"]' 'nconnect = 4'
	newmount 0:60 "${V3NEW/hard,/hard,nconnect=4,}"
	mkdir -p "$T/proc/sys/kernel/random"
	echo 0b7d8a1e-0000-4000-8000-000000000001 > "$T/proc/sys/kernel/random/boot_id"
	run 10.99.0.1:/export/b "$DIR" -o vers=3
	status_is 0; out_quiet
	OUT=$(cat "$T/run/mounts/"*)
	out_has "nconnect_requested=4"; out_has "nconnect_from=config"; out_has "read_ahead_from=none"
	out_has "boot_id=0b7d8a1e-0000-4000-8000-000000000001"
	out_has "dev=0:60"
}

tc_record_unwritable_removes_earlier() {
	# the run directory full: the helper cannot leave its record, and removes the one an
	# earlier mount on the mount point left (seen mounted with the device number the kernel
	# may give this mount again), which would otherwise stand for this mount. A file size
	# limit of 0 (SIGXFSZ ignored: EFBIG) makes its writes fail as ENOSPC does; unlink works
	needs_root_records
	newmount 0:60 "$V3NEW"
	run 10.99.0.1:/export/b "$DIR" -o vers=3
	local name; name=$(ls "$T/run/mounts")
	grep -q '^verified_ms=' "$T/run/mounts/$name" || fail "no earlier record: $name"
	# the soft limit only: the stub mount.nfs lifts it for its own files; stderr through a
	# pipe, which the limit does not touch
	( trap '' XFSZ; ulimit -S -f 0; exec "$HELPER" 10.99.0.1:/export/b "$DIR" -v -o vers=3 2>&1 ) |
		cat > "$T/err"
	took "${PIPESTATUS[0]}"
	status_is 0
	out_has "cannot leave the plan in $T/run/mounts: File too large"
	[ ! -e "$T/run/mounts/$name" ] || fail "the earlier record is left: $(cat "$T/run/mounts/$name")"
}
tc_record_once_dev_added() {
	# one record, there while mount.nfs runs (udev's rule reads it in the new bdi's event);
	# once verified, its superblock line is added to that file: nothing else of it rewritten
	needs_root_records
	newmount 0:60 "$V3NEW"
	local rec pid before ino theirs t0 t1 seen
	# record_appears: waits (at most 3 s) for the helper's record (not the atomic writer's temporary file)
	record_appears() {
		for _ in $(seq 1 60); do
			rec=$(ls "$T/run/mounts" 2>/dev/null | grep -v "\.tmp\." | head -n1)
			[ -n "$rec" ] && rec=$T/run/mounts/$rec && [ -s "$rec" ] && return 0
			sleep 0.05
		done
		fail "no record while mount.nfs runs"
	}
	t0=$(monotonic_ms)
	STUB_SLEEP_MS=700 "$HELPER" 10.99.0.1:/export/b "$DIR" -o vers=3 2> "$T/err" &
	pid=$!
	record_appears
	before=$(cat "$rec") ino=$(stat -c %i "$rec")
	case $before in *dev=*) fail "a superblock in the record before the mount: $before" ;; esac
	wait "$pid"; took $?
	t1=$(monotonic_ms)
	status_is 0; out_quiet
	# with the time it was seen mounted (CLOCK_MONOTONIC, ms): while the helper ran
	seen=$(sed -n 's/^verified_ms=//p' "$rec")
	[ -n "$seen" ] && [ "$seen" -ge "$t0" ] && [ "$seen" -le "$t1" ] ||
		fail "verified_ms '$seen' not between $t0 and $t1, when the helper ran"
	value_is "the record after the mount" "$(cat "$rec")" "$before"$'\n'"dev=0:60"$'\n'"verified_ms=$seen"
	value_is "the record's inode" "$(stat -c %i "$rec")" "$ino" "(rewritten, not added to)"
	# another mount's record put on the mount point meanwhile is theirs: left as it is
	rm -f "$T/run/mounts/"*
	STUB_SLEEP_MS=700 "$HELPER" 10.99.0.1:/export/b "$DIR" -o vers=3 2> "$T/err" &
	pid=$!
	record_appears
	theirs=$(sed 's/^nconnect_requested=.*/nconnect_requested=9/' "$rec")
	printf '%s\n' "$theirs" > "$T/run/mounts/.theirs" && mv "$T/run/mounts/.theirs" "$rec"
	wait "$pid"; took $?
	status_is 0
	value_is "a record that replaced the helper's meanwhile" "$(cat "$rec")" "$theirs"
}
tc_verify_escaped_mount_point() {
	# the verification reads only the lines of its mount point, which the kernel escapes
	# (space as \040): found, and not the mount of a path that is a prefix of it
	DIR="$T/mnt/my data"; mkdir -p "$DIR"
	local esc=${DIR// /\\040}
	printf '50 21 0:50 / %s rw - nfs filer:/other rw,vers=3,addr=10.99.0.7\n' "$T/mnt/my" > "$T/mountinfo"
	export STUB_MOUNTINFO_LINE="60 $PARENT 0:60 / $esc rw,relatime shared:60 - nfs filer:/export/b rw,${V3NEW/hard,/hard,nconnect=2,}"
	run 10.99.0.1:/export/b "$DIR" -v -o vers=3,nconnect=2
	status_is 0; out_lacks warning
	out_has "verified: $DIR is NFSv3, server address 10.99.0.1, nconnect=2, rsize=1048576, bdi 0:60"
}

run_cases "$@"
