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
	# what was asked and where it came from; once mounted, the superblock (nfs-tuned status)
	conf '[server "10.99.0.1"]' 'nconnect = 4'
	newmount 0:60 "${V3NEW/hard,/hard,nconnect=4,}"
	run 10.99.0.1:/export/b "$DIR" -o vers=3
	status_is 0; out_quiet
	OUT=$(cat "$T/run/mounts/"*)
	out_has "nconnect_requested=4"; out_has "nconnect_from=config"; out_has "read_ahead_from=none"
	out_has "dev=0:60"
}

run_cases "$@"
