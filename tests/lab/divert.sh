# Scenario: the helper installed in place of /sbin/mount.nfs as a package would (dpkg-divert),
# the real one at /sbin/mount.nfs.distrib (mount_nfs = in the config); plain mount -t nfs,
# mount -t nfs4, mount -a from fstab and umount go through it. A config default (timeo=123,
# read_ahead_kb = 2048) visible in mountinfo/sysfs proves the helper was used.

REAL=/sbin/mount.nfs.distrib
divert_on() {
	dpkg-divert --rename --divert $REAL --add /sbin/mount.nfs >>"$LAB_DETAILS" 2>&1 || return 1
	[ -x $REAL ] || return 1
	install -m 0755 "$H" /sbin/mount.nfs || return 1
}
divert_off() {
	# only when the divert is in place: never remove the real mount.nfs
	dpkg-divert --list /sbin/mount.nfs | grep -q "$REAL" || return 0
	rm -f /sbin/mount.nfs
	dpkg-divert --rename --remove /sbin/mount.nfs >>"$LAB_DETAILS" 2>&1
	[ -x /sbin/mount.nfs ] && ! cmp -s /sbin/mount.nfs "$H"
}
dconf() {
	conf "[global]" "mount_nfs = $REAL" "timeo = 123" "read_ahead_kb = 2048" "nconnect_policy = refuse" "$@"
}
via_helper() { # DIR: the config defaults are in effect
	[ "$(mi_opt "$1" timeo)" = 123 ] || fail "$1: timeo=$(mi_opt "$1" timeo), not the config's 123: not through the helper" || return
	[ "$(ra_of "$1")" = 2048 ] || fail "$1: read_ahead_kb $(ra_of "$1"), not the config's 2048" || return
}

d_mount() {
	local a b
	need_helper || return
	a=$(mp a) b=$(mp b)
	divert_on || fail "dpkg-divert failed" || return
	dconf
	xrun mount -t nfs $SRV:/export/a "$a" -o vers=3,nconnect=4
	status_is 0 "mount -t nfs" || return
	via_helper "$a" || return
	nconn_is "$a" 4 || return
	# -v reaches the helper: its plan is printed
	xrun mount -v -t nfs $SRV:/export/b "$b" -o vers=3
	status_is 0 "mount -v -t nfs" || return
	out_matches 'mount.nfs-tuned: ' "the helper's verbose output" || return
	via_helper "$b" || return
	# a refusal through mount(8)
	xrun mount -t nfs $SRV:/export/c "$(mp c)" -o vers=3,nconnect=8
	status_is 32 "mount -t nfs with a conflicting nconnect under refuse" || return
	out_has 'refusing' || return
	not_mounted $MNT/c || return
	# umount: /sbin/umount.nfs resolves to the helper, which hands over to the real one
	[ "$(readlink -f /sbin/umount.nfs)" = "$(readlink -f /sbin/mount.nfs)" ] ||
		fail "/sbin/umount.nfs does not reach the helper: $(readlink -f /sbin/umount.nfs)" || return
	cmp -s "$(readlink -f /sbin/umount.nfs)" "$H" || fail "umount.nfs is not the helper" || return
	xrun umount "$a"
	status_is 0 "umount" || return
	not_mounted "$a" || return
	xrun umount -v "$b"
	status_is 0 "umount -v" || return
	not_mounted "$b" || return
}

d_nfs4() {
	local a
	need_helper || return
	a=$(mp a)
	divert_on || fail "dpkg-divert failed" || return
	dconf
	[ "$(readlink -f /sbin/mount.nfs4)" = "$(readlink -f /sbin/mount.nfs)" ] ||
		fail "/sbin/mount.nfs4 does not reach the helper" || return
	xrun mount -t nfs4 $SRV:/export/a "$a"
	status_is 0 "mount -t nfs4" || return
	case $(mi_opt "$a" vers) in 4*) ;; *) fail "vers=$(mi_opt "$a" vers), expected 4.x" || return ;; esac
	via_helper "$a" || return
	xrun umount "$a"
	status_is 0 || return
	not_mounted "$a" || return
}

d_fstab() {
	local c d e
	need_helper || return
	c=$(mp c) d=$(mp d) e=$(mp e)
	divert_on || fail "dpkg-divert failed" || return
	dconf
	cat >/etc/fstab <<-EOF
	$SRV:/export/c $c nfs vers=4.1,nconnect=4 0 0
	$SRV:/export/d $d nfs vers=4.1,_netdev 0 0
	$SRV:/export/e $e nfs4 noauto 0 0
	EOF
	log "  fstab: $(tr '\n' ';' </etc/fstab)"
	xrun mount -a -t nfs,nfs4
	status_is 0 "mount -a" || return
	mounted "$c" || return
	mounted "$d" || return
	not_mounted "$e" "noauto" || return
	via_helper "$c" || return
	via_helper "$d" || return
	nconn_is "$d" 4 "shares c's client" || return
	xrun mount "$e"
	status_is 0 "mount DIR from fstab" || return
	via_helper "$e" || return
	xrun umount -a -t nfs,nfs4
	status_is 0 "umount -a" || return
	[ -z "$(nfs_mountpoints)" ] || fail "still mounted after umount -a: $(nfs_mountpoints)" || return
}

# with the divert in place and no mount_nfs in the config, the default /sbin/mount.nfs is
# the helper itself: divert loop, exit 2
d_loop() {
	local a
	need_helper || return
	a=$(mp a)
	divert_on || fail "dpkg-divert failed" || return
	conf "[global]" "timeo = 123"
	xrun mount -t nfs $SRV:/export/a "$a" -o vers=3
	status_is 2 "divert loop through mount(8)" || return
	out_has 'divert loop' || return
	not_mounted "$a" || return
}

d_t() { # NAME FUNC
	t "$1" "$2"
	divert_off || report "FAIL divert/$1: could not undo the divert"
}
d_t mount-t-nfs-and-umount d_mount
d_t mount-t-nfs4 d_nfs4
d_t mount-a-fstab d_fstab
d_t divert-loop d_loop
