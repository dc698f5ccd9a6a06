# Scenario: the project's udev rule (udev/99-zz-nfs-tuned.rules.in) with udevd and nfs-utils'
# own nfsrahead rule live: every new NFS superblock gets the configured read-ahead, whoever
# mounted it (the helper, the real mount.nfs, an NFSv4 submount, a bg mount landing later);
# a shared superblock keeps its value, a non-NFS bdi is untouched, and the value stays ours
# over repeated mounts.  The udev mode logs through syslog (busybox syslogd here).

OURS=/usr/lib/udev/rules.d/99-zz-nfs-tuned.rules
NFSRULE=/usr/lib/udev/rules.d/99-nfs.rules
SYSLOG=/tmp/lab/syslog
RAHEAD=640   # nfsrahead's value for every NFS mount (/etc/nfs.conf.d)
SYSLOGD_PID=

udev_setup() {
	[ -x "$H" ] || return 1
	mkdir -p /etc/nfs.conf.d /usr/lib/udev/rules.d
	printf '[nfsrahead]\nnfs=%s\nnfs4=%s\ndefault=%s\n' $RAHEAD $RAHEAD $RAHEAD >/etc/nfs.conf.d/lab-rahead.conf
	sed "s|@HELPER@|$H|" /lab/99-zz-nfs-tuned.rules.in >$OURS
	: >$SYSLOG
	busybox syslogd -n -O $SYSLOG &
	SYSLOGD_PID=$!
	for i in $(seq 1 50); do [ -S /dev/log ] && break; sleep 0.1; done
	udev_start
}
udev_teardown() {
	udev_stop
	[ -n "$SYSLOGD_PID" ] && kill "$SYSLOGD_PID" 2>/dev/null
	rm -f $OURS /etc/nfs.conf.d/lab-rahead.conf /dev/log
}

# the syslog lines of the udev mode about bdi DEV since the check began (devices are reused)
MARK=0
mark() { MARK=$(wc -l <$SYSLOG); }
since_mark() { tail -n +$((MARK + 1)) $SYSLOG | grep -F "nfs-tuned["; }
slog() { since_mark | grep -F "bdi $1 " ; }
settle() { udevadm settle -t "$SETTLE"; }
ra_is() { # DIR KB WHY
	local v
	v=$(ra_of "$1")
	[ "$v" = "$2" ] || fail "$1 (bdi $(mi_dev "$1")): read_ahead_kb $v, expected $2 ($3)"
}
# the bdi's change lines all say TEXT: one per change.  Usually one; NFSv4's short-lived
# superblock of the server's root frees its device number, and a later superblock (a
# submount) may get it while udev still has the old event queued: that event then finds the
# new mount and its change is logged too (the next event's, after nfsrahead's rule has set
# its value again, is another).
# syslogd writes what the udev mode sent after the mode has exited and udev settled: the
# line is waited for (2 s at most), not taken as missing at the first look.
one_line() { # DEV TEXT
	local n all i
	for i in $(seq 20); do
		n=$(slog "$1" | grep -cF -- "$2")
		[ "$n" -ge 1 ] && break
		sleep 0.1
	done
	all=$(slog "$1" | grep -c 'read_ahead_kb')
	[ "$n" -ge 1 ] && [ "$n" = "$all" ] ||
		fail "syslog has $n of $all change lines for bdi $1 with '$2': $(since_mark | tail -n 3)"
}
need_rules() {
	need_helper || return
	mark
	[ -n "$SYSLOGD_PID" ] && [ -e /run/udev/control ] || skip "udevd or syslogd did not start" || return
	[ -f $NFSRULE ] && grep -q nfsrahead $NFSRULE || skip "nfs-utils' $NFSRULE with nfsrahead is not installed" || return
}

# nfsrahead's rule runs first, ours last: udevadm test shows the order of the writes (and,
# with systemd 252, their values)
udev_order() {
	local a dev
	need_rules || return
	a=$(mp a)
	conf "[global]" "read_ahead_kb = 2048"
	xrun mount.nfs $SRV:/export/a "$a" -o vers=3
	status_is 0 || return
	settle
	dev=$(mi_dev "$a")
	xrun udevadm test --action=add "/sys/class/bdi/$dev"
	local files writes
	files=$(echo "$OUT" | sed -n 's/^Reading rules file: //p' | grep -nE '99-(nfs|zz-nfs-tuned)\.rules' | tr '\n' ' ')
	log "  rule files: $files"
	echo "$files" | grep -qE '[0-9]+:/usr/lib/udev/rules.d/99-nfs.rules [0-9]+:/usr/lib/udev/rules.d/99-zz-nfs-tuned.rules' ||
		fail "udev does not read 99-nfs.rules before 99-zz-nfs-tuned.rules: $files" || return
	# systemd 252 (Debian 12) runs the PROGRAMs and shows "ATTR '.../read_ahead_kb' writing
	# 'N'"; 257 (Debian 13) runs none in test mode: "skipping writing
	# ATTR{.../read_ahead_kb}=""", the order without the values (which the checks after this
	# one read from sysfs, on real events)
	local w='ATTR .*read_ahead_kb.* writing|skipping writing ATTR\{[^}]*read_ahead_kb\}'
	writes=$(echo "$OUT" | grep -E "$w")
	log "  writes (systemd $(udevadm --version)): $(echo "$writes" | tr '\n' ';')"
	# systemd 262 (Debian 14) shows neither: only the attributes written, each once, under
	# "Written sysfs attributes:"; the writes follow the rule files, whose order is checked
	# above, and the value that stays on real events is the checks' after this one
	if [ -z "$writes" ] && echo "$OUT" | sed -n '/^Written sysfs attributes:/,/^[^ ]/p' |
		grep -qE '^ +read_ahead_kb :'; then
		NOTE="systemd $(udevadm --version): read_ahead_kb written, the rule files in order"
		return 0
	fi
	[ -n "$writes" ] || fail "udevadm test shows no read_ahead_kb write" || return
	echo "$writes" | tail -n1 | grep -qF "$OURS:" ||
		fail "the last read_ahead_kb write udev plans is not our rule's: $(echo "$writes" | tr '\n' ';')" || return
	echo "$writes" | head -n1 | grep -qF "$NFSRULE:" ||
		fail "nfsrahead's write does not come first: $(echo "$writes" | tr '\n' ';')" || return
	echo "$writes" | grep -q "writing '" || return 0
	echo "$writes" | tail -n1 | grep -q "'2048'" ||
		fail "the last read_ahead_kb write udev plans is not ours (2048): $(echo "$writes" | tr '\n' ';')" || return
	echo "$writes" | head -n1 | grep -q "'$RAHEAD'" ||
		fail "nfsrahead's write ($RAHEAD) does not come first: $(echo "$writes" | tr '\n' ';')" || return
}

# mounts the helper never saw: a [server] section, a [mountpoint] section beating it
udev_direct() {
	local a b
	need_rules || return
	a=$(mp a) b=$(mp b)
	conf "[global]" "read_ahead_kb = 1024" "[server \"$SRV\"]" "read_ahead_kb = 2048" \
		"[mountpoint \"$b\"]" "read_ahead_kb = 4096"
	xrun mount.nfs $SRV:/export/a "$a" -o vers=3
	status_is 0 || return
	xrun mount.nfs $SRV:/export/b "$b" -o vers=4.1
	status_is 0 || return
	settle
	ra_is "$a" 2048 "[server \"$SRV\"], mount.nfs directly" || return
	ra_is "$b" 4096 "[mountpoint \"$b\"], mount.nfs directly" || return
	one_line "$(mi_dev "$a")" "$a ($SRV:/export/a): read_ahead_kb $RAHEAD -> 2048 ([server \"$SRV\"] $CONF:4)" || return
	one_line "$(mi_dev "$b")" "$b ($SRV:/export/b): read_ahead_kb $RAHEAD -> 4096 ([mountpoint \"$b\"] $CONF:6)" || return
}

# the helper and the rule agree: the rule reads the helper's plan (its -o counts); with the
# rule installed the helper writes at once and leaves the last word to it (no wait for udev)
udev_helper_agrees() {
	local a dev
	need_rules || return
	a=$(mp a)
	conf "[global]" "read_ahead_kb = 1024"
	hrun $SRV:/export/a "$a" -v -o vers=4.1,read_ahead_kb=3072
	status_is 0 || return
	out_no_match 'warning:' || return
	out_has "read-ahead: udev's rule $OURS writes the same value last in the bdi's event (after nfs-utils' nfsrahead): written at once, no wait for udev" || return
	out_matches "read_ahead_kb [0-9]+ -> 3072" || return
	out_lacks "udev finished" "the helper waited for udev" || return
	settle
	dev=$(mi_dev "$a")
	ra_is "$a" 3072 "the command line's read_ahead_kb" || return
	one_line "$dev" "read_ahead_kb $RAHEAD -> 3072 (the helper's plan for this mount)" || return
}

# udev slow to run the bdi's event (a rule before nfsrahead's takes 2 s): the helper, not
# waiting, writes first; nfsrahead's value lands after it and the rule's after that, so the
# value that stays is the configured one
udev_last_word_slow_udev() {
	local a dev slow=/etc/udev/rules.d/98-lab-slow-bdi.rules
	need_rules || return
	a=$(mp a)
	conf "[global]" "read_ahead_kb = 2048"
	mkdir -p /etc/udev/rules.d
	echo 'SUBSYSTEM=="bdi", ACTION=="add", PROGRAM="/bin/sleep 2"' >$slow
	udevadm control --reload
	hrun $SRV:/export/a "$a" -v -o vers=3
	rm -f $slow
	udevadm control --reload
	status_is 0 || return
	out_has "no wait for udev" || return
	out_lacks "udev finished" "the helper waited for udev" || return
	settle
	dev=$(mi_dev "$a")
	ra_is "$a" 2048 "the rule's write after nfsrahead's $RAHEAD" || return
	one_line "$dev" "read_ahead_kb $RAHEAD -> 2048 (the helper's plan for this mount)" || return
}

# an NFSv4 submount: a server-side mount point under a crossmnt export
udev_submount() {
	local h dev
	need_rules || return
	h=$(mp h)
	srv mkdir -p /export/h/sub
	srv mount -t tmpfs -o size=8m tmpfs /export/h/sub || fail "cannot mount the server's submount" || return
	srv sh -c 'echo sub >/export/h/sub/README'
	srv exportfs -o rw,no_root_squash,insecure,no_subtree_check,crossmnt,fsid=8 '*:/export/h'
	srv exportfs -o rw,no_root_squash,insecure,no_subtree_check,fsid=20 '*:/export/h/sub'
	conf "[server \"$SRV\"]" "read_ahead_kb = 5120"
	xrun mount.nfs $SRV:/export/h "$h" -o vers=4.1
	status_is 0 || { udev_submount_undo; return 1; }
	cat "$h/sub/README" >/dev/null
	settle
	dev=$(mi_dev "$h/sub")
	log "  submount: $(mi "$h/sub")"
	[ -n "$dev" ] && [ "$dev" != "$(mi_dev "$h")" ] || { udev_submount_undo; fail "no submount with its own superblock under $h"; return 1; }
	ra_is "$h/sub" 5120 "an NFSv4 submount" || { udev_submount_undo; return 1; }
	# the old value is nfsrahead's, or the kernel's 128 for an event queued under the number
	# before (see one_line)
	one_line "$dev" "$h/sub ($SRV:/export/h/sub): read_ahead_kb " || { udev_submount_undo; return 1; }
	one_line "$dev" " -> 5120 ([server \"$SRV\"] $CONF:2)" || { udev_submount_undo; return 1; }
	udev_submount_undo
}
udev_submount_undo() {
	umount -R "$MNT/h" 2>/dev/null
	srv exportfs -u '*:/export/h/sub'
	srv exportfs -o rw,no_root_squash,insecure,no_subtree_check,fsid=8 '*:/export/h'
	srv umount /export/h/sub
}

nfsd_stop() { srv rpc.nfsd 0; }
nfsd_start() {
	srv rpc.nfsd -V 4.0 --lease-time 10 --grace-time 10 8
	srv sh -c 'echo "tcp 2050" >/proc/fs/nfsd/portlist; echo Y >/proc/fs/nfsd/v4_end_grace' 2>/dev/null
	return 0
}
# a bg mount whose server comes later; meanwhile another mount makes the client with another
# nconnect: the rule sets the helper's read-ahead and logs the nconnect it did not get
# (mount.nfs's background child tries again after 1, 3, 7 s... It is stopped until the other
# mount has made the client, so that it lands later however slow the machine: run X, with
# four guests on two cores, took longer to start nfsd and the other mount than the child's
# next try after a fixed 3.5 s, and the child made the client with its own 4 connections)
udev_bg() {
	local g f i dev child
	need_rules || return
	g=$(mp g) f=$(mp f)
	conf "[server \"$SRV\"]" "read_ahead_kb = 1024"
	nfsd_stop
	hrun $SRV:/export/g "$g" -o vers=4.1,nconnect=4,bg,read_ahead_kb=6144
	status_is 0 "bg: mount.nfs goes on in the background" || { nfsd_start; return 1; }
	not_mounted "$g" "the server is down" || { nfsd_start; return 1; }
	child=$(pgrep -f "mount\.nfs $SRV:/export/g ")
	[ -n "$child" ] || { nfsd_start; fail "no mount.nfs left in the background for $g"; return 1; }
	# stopped between two tries, not inside one (no NFS client then)
	for i in $(seq 1 25); do
		kill -STOP $child
		[ "$(nfs_servers)" = 0 ] && break
		kill -CONT $child
		sleep 0.2
	done
	log "  mount.nfs in the background: $child, stopped ($i tries)"
	nfsd_start
	xrun mount.nfs $SRV:/export/f "$f" -o vers=4.1,nconnect=2
	kill -CONT $child
	status_is 0 || return
	for i in $(seq 1 100); do is_mounted "$g" && break; sleep 0.2; done
	mounted "$g" "the bg mount landed" || return
	settle
	dev=$(mi_dev "$g")
	nconn_is "$g" 2 "it joined the client of $f" || return
	ra_is "$g" 6144 "the bg mount's -o read_ahead_kb, from the helper's record" || return
	one_line "$dev" "$g ($SRV:/export/g): read_ahead_kb $RAHEAD -> 6144 (the helper's plan for this mount)" || return
	since_mark | grep -qF "warning: bg mount $g ($SRV:/export/g) landed with nconnect=2, not the 4 the helper planned" ||
		fail "no syslog line about the bg mount's nconnect: $(since_mark | tail -n 3)" || return
}

# a mount sharing a superblock shares its bdi: no event, the value it has stays
udev_shared() {
	local a a2 dev
	need_rules || return
	a=$(mp a) a2=$(mp a2)
	conf "[global]" "read_ahead_kb = 2048"
	xrun mount.nfs $SRV:/export/a "$a" -o vers=3
	settle
	dev=$(mi_dev "$a")
	echo 768 >"/sys/class/bdi/$dev/read_ahead_kb"
	xrun mount.nfs $SRV:/export/a "$a2" -o vers=3
	status_is 0 || return
	settle
	[ "$(mi_dev "$a2")" = "$dev" ] || skip "the kernel gave the second mount its own superblock" || return
	ra_is "$a2" 768 "a shared superblock keeps its value" || return
}

# a FUSE superblock (bdi "0:N" like NFS), mounted without a daemon: our mode leaves it alone
udev_not_nfs() {
	local f dev before after
	need_rules || return
	modprobe fuse || skip "no fuse module" || return
	f=$(mp fuse)
	conf "[global]" "read_ahead_kb = 4444"
	exec 3<>/dev/fuse
	xrun mount -i -t fuse -o fd=3,rootmode=40000,user_id=0,group_id=0 labfuse "$f"
	status_is 0 || { exec 3>&-; return 1; }
	settle
	dev=$(awk -v d="$f" '$5 == d { print $3 }' /proc/self/mountinfo)
	after=$(cat "/sys/class/bdi/$dev/read_ahead_kb")
	xrun "$H" --udev-bdi "$dev"
	exec 3>&-
	umount -l "$f"
	case $dev in 0:*) ;; *) fail "the FUSE bdi is '$dev', not an anonymous 0:N" || return ;; esac
	[ "$after" != 4444 ] || fail "the FUSE bdi $dev got our 4444" || return
	status_is 1 "not NFS" || return
	[ -z "$OUT" ] || fail "the udev mode said something for $dev: $OUT" || return
	[ -z "$(slog "$dev")" ] || fail "syslog has a line for the FUSE bdi $dev: $(slog "$dev")" || return
	log "  FUSE bdi $dev read_ahead_kb $after"
}

# 20 mounts in a row, each a new superblock: the final value is ours every time
udev_repeat() {
	local a i v bad=
	need_rules || return
	a=$(mp a)
	conf "[global]" "read_ahead_kb = 2048"
	for i in $(seq 1 20); do
		mount.nfs $SRV:/export/a "$a" -o vers=3 || { fail "mount $i failed"; return 1; }
		settle
		v=$(ra_of "$a")
		[ "$v" = 2048 ] || bad="$bad $i:$v"
		umount "$a"
	done
	[ -z "$bad" ] || fail "read_ahead_kb not ours after mounts (n:value):$bad" || return
}

if udev_setup >>"$LAB_DETAILS" 2>&1; then :; else echo "  udev: setup failed" >>"$LAB_DETAILS"; fi
t rule-order udev_order
t direct-mount-server-and-mountpoint-sections udev_direct
t helper-and-rule-agree udev_helper_agrees
t rule-has-the-last-word-udev-slow udev_last_word_slow_udev
t nfsv4-submount-crossmnt udev_submount
t bg-mount-lands-later udev_bg
t shared-superblock-keeps-value udev_shared
t fuse-bdi-untouched udev_not_nfs
t twenty-mounts-value-is-ours udev_repeat
udev_teardown >>"$LAB_DETAILS" 2>&1
