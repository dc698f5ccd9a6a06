# Scenario: read-ahead of a new NFS superblock's bdi (DESIGN.md "After mount.nfs succeeds"):
# absolute and rsize-relative values, sections, `keep`, a shared superblock left alone,
# and the final value with nfs-utils' nfsrahead udev rule racing the helper.

ra_abs() { # VERS
	local a
	need_helper || return
	a=$(mp a)
	conf "[global]" "read_ahead_kb = 15360"
	hrun $SRV:/export/a "$a" -o "vers=$1"
	status_is 0 || return
	out_quiet || return
	[ "$(ra_of "$a")" = 15360 ] || fail "read_ahead_kb of $(mi_dev "$a") is $(ra_of "$a"), expected 15360" || return
}
t absolute-15360-v3 ra_abs 3
t absolute-15360-v4.1 ra_abs 4.1

ra_rel() { # VERS RSIZE-option
	local a rsize want
	need_helper || return
	a=$(mp a)
	conf "[global]" "read_ahead_kb = 15x"
	hrun $SRV:/export/a "$a" -o "vers=$1${2:+,$2}"
	status_is 0 || return
	rsize=$(mi_opt "$a" rsize)
	[ -n "$rsize" ] || fail "no rsize in mountinfo" || return
	want=$((15 * rsize / 1024))
	[ "$(ra_of "$a")" = "$want" ] || fail "read_ahead_kb is $(ra_of "$a"), expected 15 x rsize ($rsize) = $want" || return
}
t relative-15x-v4.1 ra_rel 4.1 ""
t relative-15x-rsize65536-v3 ra_rel 3 rsize=65536

# [mountpoint] beats [server] beats [global]; `keep` leaves the kernel's 128
ra_sections() {
	local a b c
	need_helper || return
	a=$(mp a) b=$(mp b) c=$(mp c)
	conf "[global]" "read_ahead_kb = 1024" \
		"[server \"$SRV\"]" "read_ahead_kb = 2048" \
		"[mountpoint \"$b\"]" "read_ahead_kb = 4096" \
		"[mountpoint \"$MNT/c*\"]" "read_ahead_kb = keep"
	hrun $SRV:/export/a "$a" -o vers=3
	status_is 0 || return
	hrun $SRV:/export/b "$b" -o vers=3
	status_is 0 || return
	hrun $SRV:/export/c "$c" -o vers=3
	status_is 0 || return
	[ "$(ra_of "$a")" = 2048 ] || fail "$a: read_ahead_kb $(ra_of "$a"), expected 2048 ([server])" || return
	[ "$(ra_of "$b")" = 4096 ] || fail "$b: read_ahead_kb $(ra_of "$b"), expected 4096 ([mountpoint])" || return
	[ "$(ra_of "$c")" = 128 ] || fail "$c: read_ahead_kb $(ra_of "$c"), expected 128 (keep)" || return
}
t sections-and-keep ra_sections

# a mount that shares an existing superblock shares its bdi: the helper leaves it alone
ra_shared() { # VERS
	local a a2 dev
	need_helper || return
	a=$(mp a) a2=$(mp a2)
	conf "[global]" "read_ahead_kb = 15360"
	hrun $SRV:/export/a "$a" -o "vers=$1"
	status_is 0 || return
	dev=$(mi_dev "$a")
	echo 768 >"/sys/class/bdi/$dev/read_ahead_kb" || fail "cannot write the bdi" || return
	hrun $SRV:/export/a "$a2" -o "vers=$1"
	status_is 0 || return
	[ "$(mi_dev "$a2")" = "$dev" ] || skip "the kernel gave the second mount its own superblock" || return
	[ "$(ra_of "$a2")" = 768 ] || fail "shared superblock $dev: read_ahead_kb $(ra_of "$a2"), expected 768 (left alone)" || return
}
t shared-superblock-left-alone-v3 ra_shared 3
t shared-superblock-left-alone-v4.1 ra_shared 4.1

# a bad read_ahead_kb value in the config: the line is reported and skipped, the mount
# goes ahead with the kernel's value
ra_invalid() {
	local a
	need_helper || return
	a=$(mp a)
	conf "[global]" "read_ahead_kb = banana"
	hrun $SRV:/export/a "$a" -o vers=3
	status_is 0 "a bad config line is skipped" || return
	out_has 'warning:' "the bad line is reported" || return
	mounted "$a" || return
	[ "$(ra_of "$a")" = 128 ] || fail "read_ahead_kb $(ra_of "$a"), expected the kernel's 128" || return
}
t bad-value-warned ra_invalid

# --- udev: nfs-utils' nfsrahead rule writes its own value when the bdi appears ---------
RULE=/usr/lib/udev/rules.d/99-nfs.rules
RULE_NOTE="Debian's nfs-common rule $RULE with /usr/libexec/nfsrahead"
if [ ! -f $RULE ] || ! grep -q nfsrahead $RULE || [ ! -x /usr/libexec/nfsrahead ]; then
	# not shipped: an equivalent rule that writes 128 when a bdi appears
	RULE=/etc/udev/rules.d/99-nfs-lab.rules
	mkdir -p /etc/udev/rules.d
	echo 'SUBSYSTEM=="bdi", ACTION=="add", ATTR{read_ahead_kb}="128"' >$RULE
	RULE_NOTE="an equivalent rule $RULE (nfsrahead not shipped)"
fi
# make the race certain: udev handles a bdi's add event a second late (a rule before the
# nfsrahead one), so a plain write right after mount.nfs is always overwritten
mkdir -p /etc/udev/rules.d
echo 'SUBSYSTEM=="bdi", ACTION=="add", PROGRAM="/bin/sleep 1"' >/etc/udev/rules.d/98-lab-slow-bdi.rules
echo "  readahead: udev race uses $RULE_NOTE, delayed 1 s"

# without the helper: the rule is live (nfsrahead's value for NFS is set in nfs.conf)
udev_rule_live() {
	local a dev i
	a=$(mp a)
	printf '[nfsrahead]\nnfs=640\nnfs4=640\ndefault=640\n' >/etc/nfs.conf.d/lab-rahead.conf 2>/dev/null ||
		{ mkdir -p /etc/nfs.conf.d && printf '[nfsrahead]\nnfs=640\nnfs4=640\ndefault=640\n' >/etc/nfs.conf.d/lab-rahead.conf; }
	udev_start || skip "systemd-udevd cannot run here" || return
	xrun mount.nfs $SRV:/export/a "$a" -o vers=3
	status_is 0 || return
	udevadm settle -t "$SETTLE"
	dev=$(mi_dev "$a")
	case $RULE in
	*99-nfs-lab.rules) want=128 ;;
	*) want=640 ;;
	esac
	[ "$(ra_of "$a")" = "$want" ] || fail "with udev and plain mount.nfs, read_ahead_kb of $dev is $(ra_of "$a"), expected the rule's $want" || return
	# a plain write right after mount.nfs returns loses the race against the rule
	umount "$a"
	xrun mount.nfs $SRV:/export/a "$a" -o vers=3
	status_is 0 || return
	echo 15360 >"/sys/class/bdi/$(mi_dev "$a")/read_ahead_kb"
	udevadm settle -t "$SETTLE"
	[ "$(ra_of "$a")" = "$want" ] || fail "a plain write of 15360 right after mount.nfs survived ($(ra_of "$a")): the lab's race is not set up" || return
}

udev_helper() { # VERS
	local a dev
	need_helper || return
	a=$(mp a)
	mkdir -p /etc/nfs.conf.d
	printf '[nfsrahead]\nnfs=640\nnfs4=640\ndefault=640\n' >/etc/nfs.conf.d/lab-rahead.conf
	udev_start || skip "systemd-udevd cannot run here" || return
	conf "[global]" "read_ahead_kb = 15360"
	hrun $SRV:/export/a "$a" -v -o "vers=$1"
	status_is 0 || return
	out_lacks 'warning:' || return
	# the wait itself (libudev is loaded for it alone, sys/bdi.c)
	out_has "read-ahead: udev finished bdi" || return
	udevadm settle -t "$SETTLE"
	sleep 1
	dev=$(mi_dev "$a")
	[ "$(ra_of "$a")" = 15360 ] || fail "with the udev rule active the final read_ahead_kb of $dev is $(ra_of "$a"), expected 15360" || return
}
t udev-rule-live udev_rule_live
t udev-race-v3 udev_helper 3
t udev-race-v4.1 udev_helper 4.1
t udev-race-v3-again udev_helper 3
udev_stop
rm -f /etc/nfs.conf.d/lab-rahead.conf /etc/udev/rules.d/99-nfs-lab.rules /etc/udev/rules.d/98-lab-slow-bdi.rules
