#!/bin/bash
# Integration cases, read-ahead: the KiB planned and written to the new superblock's bdi,
# or left to nfs-tuned's udev rule when it has the last word.
# How a file of cases runs: mount-lib.sh.
. "$(dirname "${BASH_SOURCE[0]}")/mount-lib.sh"

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
# mountstats for the mount on DIR: its device line, then per-op lines (ops, rtt ms) as
# "NAME OPS RTT" words
stats_of() { # stats_of DIR [NAME OPS RTT]...
	local d=$1; shift
	{
		echo "device proc mounted on /proc with fstype proc"
		echo "device filer:/export/b mounted on ${d// /\\040} with fstype nfs statvers=1.1"
		echo "	opts:	rw,vers=3"
		echo "	xprt:	tcp 0 0 1 0 0 10 10 0 10 0 2 0 0"
		echo "	per-op statistics"
		while [ $# -ge 3 ]; do
			printf '%12s: %s %s 0 100 100 0 %s %s 0\n' "$1" "$2" "$2" "$3" "$3"
			shift 3
		done
	} >"$T/mountstats"
	export NFS_TUNED_MOUNTSTATS=$T/mountstats
}
tc_read_ahead_auto() {
	# 7 RPCs, 34 ms in all over 3 operations (+1.5 ms for the truncation): 5.071 ms;
	# 100 MiB/s x 5.071 ms + rsize 1 MiB = 1544 KiB: 2048 KiB, the next power of two
	conf 'read_ahead_kb = auto' 'read_ahead_bandwidth = 100'
	stats_of "$DIR" NULL 1 5 GETATTR 4 20 FSINFO 2 9 LOOKUP 0 0
	newmount 0:60 "$V3NEW"; export STUB_BDI=0:60
	run 10.99.0.1:/e "$DIR" -v -o vers=3
	status_is 0; opts_lacks read_ahead_kb=auto; opts_lacks read_ahead_bandwidth=100
	value_is "read_ahead_kb of bdi 0:60" "$(cat "$T/sys/class/bdi/0:60/read_ahead_kb")" 2048
	out_has "read-ahead: auto: round trip 5.071 ms (7 RPCs, 34 ms in all), bandwidth 100 MiB/s (read_ahead_bandwidth)"
	out_has "read-ahead: auto: 2048 KiB (bandwidth x round trip + nconnect 1 x rsize, to a power of two, between 128 and 15360 KiB)"
	# nconnect 2, as mountinfo shows it: a read in flight on each connection, 520 + 2 x 1024
	# KiB = 2568 KiB: 4096
	newmount 0:64 "${V3NEW/,hard,/,hard,nconnect=2,}"; export STUB_BDI=0:64
	run 10.99.0.1:/e "$DIR" -v -o vers=3,nconnect=2
	status_is 0; value_is "read_ahead_kb of bdi 0:64" "$(cat "$T/sys/class/bdi/0:64/read_ahead_kb")" 4096
	out_has "read-ahead: auto: 4096 KiB (bandwidth x round trip + nconnect 2 x rsize"
	# the default bandwidth (1024 MiB/s): 5318 + 1024 KiB, 8192; auto:MAX caps lower
	conf 'read_ahead_kb = auto'
	newmount 0:61 "$V3NEW"; export STUB_BDI=0:61
	run 10.99.0.1:/e "$DIR" -v -o vers=3
	status_is 0; value_is "read_ahead_kb of bdi 0:61" "$(cat "$T/sys/class/bdi/0:61/read_ahead_kb")" 8192
	out_has "bandwidth 1024 MiB/s (the default; read_ahead_bandwidth sets it)"
	conf 'read_ahead_kb = auto:4096'
	newmount 0:62 "$V3NEW"; export STUB_BDI=0:62
	run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 0; out_quiet
	value_is "read_ahead_kb of bdi 0:62" "$(cat "$T/sys/class/bdi/0:62/read_ahead_kb")" 4096
	# a near path, small reads: 0.25 ms x 100 MiB/s + 32 KiB: the kernel's 128 KiB is
	# enough, and written as such
	conf 'read_ahead_kb = auto' 'read_ahead_bandwidth = 100'
	stats_of "$DIR" GETATTR 10 2
	newmount 0:63 "${V3NEW//size=1048576/size=32768}"; export STUB_BDI=0:63
	run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 0; value_is "read_ahead_kb of bdi 0:63" "$(cat "$T/sys/class/bdi/0:63/read_ahead_kb")" 128
}
tc_read_ahead_auto_no_round_trip() {
	# no RPC shown for the mount (or no mountstats at all): auto's largest window, said why
	conf 'read_ahead_kb = auto:8192' 'read_ahead_bandwidth = 100'
	stats_of /elsewhere GETATTR 4 20
	newmount 0:60 "$V3NEW"; export STUB_BDI=0:60
	run 10.99.0.1:/e "$DIR" -v -o vers=3
	status_is 0; value_is "read_ahead_kb of bdi 0:60" "$(cat "$T/sys/class/bdi/0:60/read_ahead_kb")" 8192
	out_has "shows no RPC of $DIR yet: no round trip known"
	out_has "read-ahead: auto: 8192 KiB, its largest window (auto:MAX), as no round trip is known"
	stats_of "$DIR" GETATTR 0 0
	newmount 0:61 "$V3NEW"; export STUB_BDI=0:61
	run 10.99.0.1:/e "$DIR" -v -o vers=3
	status_is 0; value_is "read_ahead_kb of bdi 0:61" "$(cat "$T/sys/class/bdi/0:61/read_ahead_kb")" 8192
	export NFS_TUNED_MOUNTSTATS=$T/none
	newmount 0:62 "$V3NEW"; export STUB_BDI=0:62
	run 10.99.0.1:/e "$DIR" -v -o vers=3
	status_is 0; value_is "read_ahead_kb of bdi 0:62" "$(cat "$T/sys/class/bdi/0:62/read_ahead_kb")" 8192
	out_has "cannot read $T/none"
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
tc_read_ahead_only_on_what_mount_made() {
	# the mount point was resolved before mount.nfs ran; a link swapped meanwhile sends
	# mount.nfs elsewhere, and a new superblock on that path that is not on the directory's
	# mount (here: another parent) is not the one mount.nfs made: root leaves it alone
	conf 'read_ahead_kb = 15360'
	newmount 0:60 "$V3NEW" 99999; export STUB_BDI=0:60
	run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 0; out_has "warning: mounted, but no NFS mount on $DIR shows"
	value_is "read_ahead_kb of bdi 0:60" "$(cat "$T/sys/class/bdi/0:60/read_ahead_kb")" 128 "left alone"
	# on the directory's own mount: the one made
	newmount 0:60 "$V3NEW"
	: > "$T/mountinfo"; run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 0; value_is "read_ahead_kb of bdi 0:60" "$(cat "$T/sys/class/bdi/0:60/read_ahead_kb")" 15360
}
tc_remount_verified() {
	# a remount changes the mount on the directory in place: no new line; the line of the
	# directory's own mount is the one verified (its superblock is not new: its read-ahead
	# is left as it is, as for any mount that shares one)
	conf 'read_ahead_kb = 15360'
	echo "$PARENT 1 0:61 / $DIR rw,relatime shared:61 - nfs filer:/export/b rw,$V3NEW" > "$T/mountinfo"
	mkdir -p "$T/sys/class/bdi/0:61"; echo 128 > "$T/sys/class/bdi/0:61/read_ahead_kb"
	run 10.99.0.1:/e "$DIR" -v -o remount,vers=3
	status_is 0; out_lacks "warning"; out_has "read-ahead: "
	value_is "read_ahead_kb of bdi 0:61" "$(cat "$T/sys/class/bdi/0:61/read_ahead_kb")" 128
}
tc_read_ahead_failure() {
	conf 'read_ahead_kb = 15360'
	newmount 0:62 "$V3NEW"
	mkdir -p "$T/sys/class/bdi/0:62/read_ahead_kb"   # a directory: the write fails
	run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 0; out_has "warning: mounted, but cannot set read_ahead_kb of bdi 0:62 to 15360"
	out_has "the mount keeps the kernel's value"
}
tc_read_ahead_udev_library_missing() {
	# udev runs and nothing has the last word, so the mount would wait for the bdi's event;
	# libudev.so.1 (loaded only for that wait) cannot be loaded: a broken install, said as
	# such, and read_ahead_kb written at once. The library is hidden in a private mount
	# namespace (/dev/null over it), the helper run for real against the stub.
	local lib
	lib=$(ldconfig -p | awk '$1 == "libudev.so.1" && /x86-64|64bit/ { print $NF; exit }')
	[ -n "$lib" ] || lib=$(ldconfig -p | awk '$1 == "libudev.so.1" { print $NF; exit }')
	needs_root "libudev.so.1 hidden under a bind mount, in a mount namespace of its own"
	[ -n "$lib" ] && unshare --mount true 2>/dev/null ||
		{ echo "SKIP: needs a mount namespace and libudev.so.1"; exit 77; }
	mkdir -p "$T/rules"; : > "$T/udev-control"
	export NFS_TUNED_UDEV_CONTROL=$T/udev-control NFS_TUNED_UDEV_RULES=$T/rules NFS_TUNED_UDEV_NS=/proc/self/ns
	conf 'read_ahead_kb = 2048'
	newmount 0:60 "$V3NEW"; export STUB_BDI=0:60
	# a new mount namespace numbers its mounts anew: the parent the new line names is read there
	# (findmnt links libudev too: asked first)
	unshare --mount --propagation private sh -c 'p=$(findmnt -no ID -T "$4") &&
		mount --bind /dev/null "$1" && shift &&
		STUB_MOUNTINFO_LINE=$(echo "$STUB_MOUNTINFO_LINE" | sed "s/^\([0-9]*\) [0-9]* /\1 $p /") &&
		exec "$@"' \
		sh "$lib" "$HELPER" 10.99.0.1:/e "$DIR" -v -o vers=3 > "$T/out" 2> "$T/err"
	took $?
	status_is 0
	out_has "warning: cannot wait for udev's bdi event: libudev.so.1 cannot be loaded (install libudev1 or systemd-libs)"
	out_lacks "udev finished"
	out_has "read-ahead: bdi 0:60 read_ahead_kb 128 -> 2048"
	value_is "read_ahead_kb of bdi 0:60" "$(cat "$T/sys/class/bdi/0:60/read_ahead_kb")" 2048
}
# udev runs, nfs-utils' rule and nfs-tuned's after it (as the package installs them)
udev_rule_last() {
	mkdir -p "$T/etc-rules" "$T/rules"
	echo 'SUBSYSTEM=="bdi", ACTION=="add", KERNEL=="0:*", PROGRAM="/sbin/mount.nfs-tuned --udev-bdi %k", ATTR{read_ahead_kb}="%c"' > "$T/rules/99-zz-nfs-tuned.rules"
	echo 'SUBSYSTEM=="bdi", ACTION=="add", PROGRAM="/usr/libexec/nfsrahead %k", ATTR{read_ahead_kb}="%c"' > "$T/rules/99-nfs.rules"
	: > "$T/udev-control"
	export NFS_TUNED_UDEV_CONTROL=$T/udev-control NFS_TUNED_UDEV_RULES=$T/etc-rules:$T/rules NFS_TUNED_UDEV_NS=/proc/self/ns
}
# fifo_attr BDI STEP...: the bdi's read_ahead_kb a FIFO that takes the helper's opens in turn,
# so a writer between two of them is played at a fixed point: a number is what the next read
# gets, `w` takes the next write (appended to $T/ra-writes). One process, gone within 20 s
# even when the helper opens it fewer times; FIFO_PID.
fifo_attr() {
	local f=$T/sys/class/bdi/$1/read_ahead_kb
	shift
	mkdir -p "${f%/*}"; mkfifo "$f"; : > "$T/ra-writes"
	timeout 20 bash -c 'f=$1 log=$2; shift 2
		for s; do if [ "$s" = w ]; then IFS= read -r l < "$f"; echo "$l" >> "$log"; else echo "$s" > "$f"; fi; done' \
		fifo "$f" "$T/ra-writes" "$@" &
	FIFO_PID=$!
}
tc_read_ahead_udev_wrote_between() {
	# udev's event for the new bdi: nfsrahead writes 128, then nfs-tuned's rule its value. The
	# helper, not waiting (its rule has the last word), reads back between the two: it writes
	# once more, and says nothing above -v (what the lab's boot of fifty met)
	udev_rule_last; conf 'read_ahead_kb = 2048'
	newmount 0:60 "$V3NEW"
	fifo_attr 0:60 128 w 128 w 2048
	run 10.99.0.1:/e "$DIR" -v -o vers=3
	wait "$FIFO_PID"
	status_is 0; out_lacks warning
	out_has "read-ahead: bdi 0:60 read_ahead_kb reads 128 right after writing 2048 (a udev rule wrote it meanwhile); writing it again"
	out_has "read-ahead: bdi 0:60 read_ahead_kb 128 -> 2048"
	value_is "the helper's writes" "$(tr '\n' ' ' < "$T/ra-writes")" "2048 2048 "
	# something that keeps writing its own value: said, once written twice
	: > "$T/mountinfo"; newmount 0:61 "$V3NEW"
	fifo_attr 0:61 128 w 128 w 4096
	run 10.99.0.1:/e "$DIR" -o vers=3
	wait "$FIFO_PID"
	status_is 0
	out_has "warning: read_ahead_kb of bdi 0:61 reads 4096 after writing 2048 twice: something else writes it (a udev rule, a tuning tool); \`nfs-tuned status\` shows the value that stays"
	value_is "the helper's writes" "$(tr '\n' ' ' < "$T/ra-writes")" "2048 2048 "
}
tc_read_ahead_udev_rule_last() {
	# nfs-tuned's udev rule is udev's last word on read_ahead_kb: the helper writes at once and
	# leaves it to the rule, which writes the same value after nfsrahead; otherwise it waits
	# for udev's bdi event (DESIGN.md "After mount.nfs succeeds")
	local rule=99-zz-nfs-tuned.rules
	udev_rule_last
	mkdir -p "$T/otherns"; : > "$T/otherns/net"; : > "$T/otherns/mnt"
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
	# auto: the rule cannot know the round trip the helper measures once mounted
	conf '[global]' 'read_ahead_kb = auto'
	waits "read_ahead_kb = auto is sized from the round trip measured once mounted"
	conf '[global]' 'read_ahead_kb = 2048'
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

run_cases "$@"
