#!/bin/bash
# Integration cases, udev mode (--udev-bdi MAJ:MIN): the owner of a bdi, the wait for its
# mountinfo line, what is printed for udev, root only.
# How a file of cases runs: mount-lib.sh.
. "$(dirname "${BASH_SOURCE[0]}")/mount-lib.sh"

tc_udev_bdi_line_present() {
	# udev's bdi add event for an NFS superblock whose mountinfo line is there
	needs_root_udev
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
	needs_root_udev
	printf 'NV SERVER   PORT DEV          FSID                              FSC\nv3 0a630001  801 0:60         1:0                               no\n' > "$T/nfsfs/volumes"
	conf '[server "10.99.0.1"]' 'read_ahead_kb = 2048'
	# 0.5 s after the helper was started: not there at its first look, in time before its
	# 1000 ms bound. What it says is checked, not how long it took: under a full run's load a
	# helper's start took 80 ms of a 300 ms delay, and it waited 221 ms
	( sleep 0.5; echo "60 21 0:60 / /mnt/late rw,relatime - nfs 10.99.0.1:/e rw,$V3NEW" >> "$T/mountinfo" ) &
	run --udev-bdi 0:60 -v
	wait
	status_is 0; [ "$STDOUT" = 2048 ] || fail "printed '$STDOUT', expected 2048"
	out_has "bdi 0:60 /mnt/late (10.99.0.1:/e): read_ahead_kb 0 -> 2048"
	ms=$(sed -n 's/.*mountinfo line found after waiting \([0-9]*\) ms (\([0-9]*\) looks.*/\1 \2/p' "$T/err")
	read -r ms looks <<<"$ms"
	[ -n "$ms" ] && [ "$ms" -lt 1000 ] && [ "${looks:-0}" -ge 2 ] ||
		fail "found a line 0.5 s late after '$ms' ms and '$looks' looks at the mount table"
}
tc_udev_bdi_line_absent() {
	# another mount namespace made it: only nfsfs volumes lists it; the wait is bounded
	needs_root_udev
	printf 'NV SERVER   PORT DEV          FSID                              FSC\nv4 0a630001  801 0:60         1:0                               no\n' > "$T/nfsfs/volumes"
	mkdir -p "$T/sys/class/bdi/0:60"; echo 128 > "$T/sys/class/bdi/0:60/read_ahead_kb"
	conf '[global]' 'read_ahead_kb = 1024' '[server "10.99.0.0/24"]' 'read_ahead_kb = 15360'
	start=$(date +%s%N)
	run --udev-bdi 0:60 -v
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	status_is 0; [ "$STDOUT" = 15360 ] || fail "printed '$STDOUT', expected 15360 ([server] by the volume's address)"
	out_has "no mountinfo line, only nfsfs volumes lists it after waiting 10"
	out_has "bdi 0:60 server 10.99.0.1, mounted in another mount namespace: read_ahead_kb 128 -> 15360"
	# (its start and end under a full run's load, the ASan build's among them, around it)
	[ "$ms" -ge 1000 ] && [ "$ms" -lt 5000 ] || fail "took $ms ms, expected the 1000 ms bound"
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
	# less than the 1000 ms a full wait takes (its own start and end counted, under load)
	[ "$ms" -lt 1000 ] || fail "took $ms ms for a volume gone after 200 ms"
	# a line that is there: no wait
	printf 'NV SERVER   PORT DEV          FSID                              FSC\nv4 0a630001  801 0:60         1:0                               no\n' > "$T/nfsfs/volumes"
	echo "60 21 0:60 / /mnt/late rw,relatime - nfs 10.99.0.1:/e rw,$V3NEW" > "$T/mountinfo"
	run --udev-bdi 0:60 -v
	out_has "mountinfo line there at once"
}
tc_udev_bdi_wait_costs_nothing() {
	# the real /proc/self/mountinfo wakes a poller only when a mount is made or gone in this
	# namespace: the 1 s wait for a line that never comes reads the table once, not every 20 ms
	needs_root_udev
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
	needs_root_udev
	printf 'NV SERVER   PORT DEV          FSID                              FSC\nv3 0a630001  801 0:60         1:0                               no\n' > "$T/nfsfs/volumes"
	rm "$T/mountinfo"; mkfifo "$T/mountinfo"
	conf '[global]' 'read_ahead_kb = 15360'
	timeout 10 "$HELPER" --udev-bdi 0:70 > "$T/out" 2> "$T/err"; took $?
	status_is 1; out_quiet
}
# a container's NFSv4 volume 0:60: nfsfs lists it, process 4243's mount table shows it (its ns/
# entries are the case's to make), read_ahead_kb 128, a section for its server
container_volume() {
	printf 'NV SERVER   PORT DEV          FSID                              FSC\nv4 0a630001  801 0:60         1:0                               no\n' > "$T/nfsfs/volumes"
	mkdir -p "$T/proc/self/ns" "$T/proc/4243/ns" "$T/sys/class/bdi/0:60"
	echo self > "$T/proc/self/ns/mnt"; echo third > "$T/proc/4243/ns/mnt"
	echo "60 21 0:60 / /srv/c rw,relatime - nfs4 10.99.0.1:/e rw,vers=4.1,rsize=1048576,wsize=1048576,proto=tcp,addr=10.99.0.1" > "$T/proc/4243/mountinfo"
	echo 128 > "$T/sys/class/bdi/0:60/read_ahead_kb"
	conf '[server "10.99.0.0/24"]' 'read_ahead_kb = 15360'
}
# the udev mode finds it in the container's table at once: no wait for a line that cannot come
found_elsewhere_at_once() { # found_elsewhere_at_once WHY-IF-SLOW
	local start ms
	start=$(date +%s%N)
	run --udev-bdi 0:60 -v
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	status_is 0; [ "$STDOUT" = 15360 ] || fail "printed '$STDOUT', expected 15360"
	out_has "bdi 0:60: mounted in another mount namespace ("; out_has "mount tables read): no wait"
	# less than the 1000 ms a wait would take (its own start counted, under load)
	[ "$ms" -lt 1000 ] || fail "took $ms ms: $1"
}
tc_udev_bdi_other_namespace_no_wait() {
	# the kernel already shows the superblock in another mount namespace's table (a
	# container's): its line will never come here, so no wait; the volume's address decides
	needs_root_udev
	container_volume
	mkdir -p "$T/proc/4242/ns"; echo other > "$T/proc/4242/ns/mnt"; : > "$T/proc/4242/mountinfo"
	found_elsewhere_at_once "waited for a line that cannot come"
}
tc_udev_bdi_user_namespaces_not_counted() {
	# any user can make mount namespaces by the thousand (in user namespaces of their own);
	# they cannot hold an NFS superblock and must not push a container's out of the 64 looked
	# at, or every bdi event waits for a line that cannot come
	needs_root_udev
	container_volume
	mkdir -p "$T/proc/1/ns"; echo init > "$T/proc/1/ns/user"
	local i
	(cd "$T/proc" && seq -f '%.0f/ns' 20000 21999 | xargs mkdir -p)
	for i in $(seq 20000 21999); do
		echo "u$i" > "$T/proc/$i/ns/user"; echo "m$i" > "$T/proc/$i/ns/mnt"; : > "$T/proc/$i/mountinfo"
	done
	# the container: a mount namespace of the initial user namespace (the same file: one inode)
	ln "$T/proc/1/ns/user" "$T/proc/4243/ns/user"
	found_elsewhere_at_once "2000 users' namespaces hid the container's"
}
tc_udev_bdi_not_nfs() {
	needs_root_udev
	echo "70 21 0:70 / /mnt/fuse rw,relatime - fuse.sshfs u@h:/ rw,user_id=0,group_id=0" > "$T/mountinfo"
	echo "71 21 0:71 / /mnt/lu rw,relatime - lustre 10.99.0.1@tcp:/fs rw,addr=10.99.0.1" >> "$T/mountinfo"
	conf '[global]' 'read_ahead_kb = 15360'
	for d in 0:70 0:71 0:72 9p-1 8:0 254:16 0:x '' ; do
		start=$(date +%s%N)
		run --udev-bdi "$d" -v
		ms=$(( ($(date +%s%N) - start) / 1000000 ))
		status_is 1; [ -z "$STDOUT" ] || fail "$d: printed '$STDOUT'"; out_quiet
		# no wait (a wait is 1000 ms): the device is not an NFS volume of this network namespace
		[ "$ms" -lt 1000 ] || fail "$d: took $ms ms"
	done
	run --udev-bdi
	status_is 1; out_has "option '--udev-bdi' needs an argument"
	run --udev-bdi 0:70 extra
	status_is 1; out_has "--udev-bdi takes no other argument"
}
tc_udev_bdi_record() {
	# the mount path leaves its plan; the command line's read_ahead_kb reaches the udev mode
	needs_root_udev
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
	# a record of another boot (a run directory kept on disk across a reboot) is no mount's
	# now: the config's value
	mkdir -p "$T/proc/sys/kernel/random"
	echo 0b7d8a1e-0000-4000-8000-000000000001 > "$T/proc/sys/kernel/random/boot_id"
	echo boot_id=0b7d8a1e-0000-4000-8000-000000000002 >> "$T/run/mounts/$rec"
	run --udev-bdi 0:60
	status_is 0; [ "$STDOUT" = 1024 ] || fail "printed '$STDOUT', expected the config's 1024: the record is another boot's"
	sed -i 's/-000000000002$/-000000000001/' "$T/run/mounts/$rec"
	run --udev-bdi 0:60
	[ "$STDOUT" = 15360 ] || fail "printed '$STDOUT', expected 15360 from the record of this boot"
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
tc_udev_bdi_auto() {
	# read_ahead_kb = auto in the udev mode: the round trip mountstats shows for the mount,
	# or the mount path's from its record
	needs_root_udev
	echo "60 21 0:60 / /data rw,relatime - nfs filer:/export/b rw,$V3NEW" > "$T/mountinfo"
	mkdir -p "$T/sys/class/bdi/0:60"; echo 128 > "$T/sys/class/bdi/0:60/read_ahead_kb"
	printf '%s\n' "device filer:/export/b mounted on /data with fstype nfs statvers=1.1" \
		"	per-op statistics" "        GETATTR: 10 10 0 1200 1200 0 196 200 0" \
		"     READ: 0 0 0 0 0 0 0 0 0" >"$T/mountstats"
	export NFS_TUNED_MOUNTSTATS=$T/mountstats
	conf '[global]' 'read_ahead_kb = auto' 'read_ahead_bandwidth = 50'
	# (196 + 0.5) ms / 10 = 19.65 ms; 50 MiB/s x 19.65 ms + rsize 1 MiB = 2031 KiB: 2048
	run --udev-bdi 0:60
	status_is 0; [ "$STDOUT" = 2048 ] || fail "printed '$STDOUT', expected 2048"
	out_has "read_ahead_kb 128 -> 2048 ([global] $T/conf:2: auto, round trip 19.650 ms, bandwidth 50 MiB/s)"
	# none shown: auto's largest window
	: >"$T/mountstats"
	run --udev-bdi 0:60
	status_is 0; [ "$STDOUT" = 15360 ] || fail "printed '$STDOUT', expected 15360"
	out_has "auto, no round trip known: its largest window"
}
tc_udev_bdi_refused_to_users() {
	# the helper not setuid, run by a user other than root (root's run: as nobody): no udev
	# mode, nothing read, nothing printed for udev
	local runas=() uid
	uid=$(id -u)
	if [ "$uid" = 0 ]; then
		chmod -R a+rX "$T"
		runas=(setpriv --reuid=65534 --regid=65534 --clear-groups --) uid=65534
	fi
	echo "60 21 0:60 / /data rw,relatime - nfs filer:/export/b rw,$V3NEW" > "$T/mountinfo"
	conf '[global]' 'read_ahead_kb = 1024'
	"${runas[@]}" "$HELPER" --udev-bdi 0:60 -v > "$T/out" 2> "$T/err"; took $?
	status_is 1; out_has "--udev-bdi is for udev (run as root), not uid $uid"
	value_is "printed for udev" "$(cat "$T/out")" ""
}
tc_udev_bdi_root_only() {
	# through the setuid binary any user could put lines in syslog as root's
	setuid_tree
	as_nobody_setuid --udev-bdi 0:60 -v
	status_is 1; out_has "--udev-bdi is for udev (run as root), not uid 65534"
	as_nobody_setuid --root --udev-bdi 0:9999 -v
	status_is 1; out_lacks "is for udev"
}

run_cases "$@"
