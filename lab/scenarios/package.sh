# Scenario: the Debian package, as an admin uses it (lab/debs builds the packages from the
# tree and the guest's own nfs-common). With nothing configured, mount -t nfs, -t nfs4,
# mount -a, umount and a setuid user mount go through the helper; nfs-common can be
# reinstalled and upgraded to Debian 13's /usr/sbin layout under it; purge puts the real
# mount.nfs back byte for byte; upgrades of the package keep it working; a LOCAL diversion
# stops the install; with mount.nfs made non-setuid before the install no user mounts through
# the helper, and purge puts the statoverrides and mode back. The checks run in order: each
# leaves the packages as the next expects.
# At the end nfs-common is the guest's own again, for the scenarios after this one.
# On Debian 13 (the platform trixie) the guest's own nfs-common has mount.nfs in /usr/sbin:
# the same checks run against it; the stand-in upgrade is Debian 12's only (the real upgrade:
# upgrade.sh, lab/run --platform trixie --upgrade).

. /lab/guest/pkg.sh
PREV=$(ls $DEBS/nfs-tuned_*~prev_*.deb 2>/dev/null | head -n1)
# the guest's own nfs-common; on Debian 12 also its /usr/sbin stand-in (lab/debs)
NCOWN=$(ls $DEBS/nfs-common_*.deb 2>/dev/null | grep -v '+usrsbin' | head -n1)
NC13=$(ls $DEBS/nfs-common_*+usrsbin_*.deb 2>/dev/null | head -n1)
# OWN: where the guest's nfs-common ships mount.nfs; DOWN: where the package diverts it to
if [ -n "$NCOWN" ] && dpkg-deb -c "$NCOWN" | grep -q ' \./usr/sbin/mount\.nfs$'; then
	OWN=/usr/sbin/mount.nfs DOWN=$D13 DOTHER=$D12 L=usr-sbin NC13=$NCOWN
else
	OWN=/sbin/mount.nfs DOWN=$D12 DOTHER=$D13 L=sbin
fi
SHAOWN=$([ -n "$NCOWN" ] && deb_sha "$NCOWN" "${OWN#/}")
SHA13=$([ -n "$NC13" ] && deb_sha "$NC13" usr/sbin/mount.nfs)
have_debs() { [ -n "$TUNED" ] && [ -n "$PREV" ] && [ -n "$NCOWN" ] && [ -n "$NC13" ] ||
	skip "no packages in $DEBS (lab/debs: dpkg-buildpackage, debhelper)"; }

p_install() {
	have_debs || return
	real_at $OWN "$SHAOWN" "before" || return
	xrun apt install -y "$TUNED"
	if [ "$RC" != 0 ]; then
		# apt needs its lists for some dependency checks; dpkg is what it runs in the end
		log "  apt could not install offline; dpkg -i"
		pkg dpkg -i "$TUNED" || return
	fi
	dpkg_status_is "ii $V" || return
	in_front || return
	real_at $DOWN "$SHAOWN" || return
	[ ! -e $DOTHER ] || fail "$DOTHER exists (nothing should be renamed there)" || return
}

p_mount_nfs() {
	local a b
	have_debs || return
	a=$(mp a) b=$(mp b)
	via_helper $DOWN nfs $SRV:/export/a "$a" vers=3,nconnect=4 || return
	nconn_is "$a" 4 || return
	# the default policy, with no configuration: a warning from the helper itself
	xrun mount -t nfs $SRV:/export/b "$b" -o vers=3,nconnect=8
	status_is 0 || return
	out_matches '^mount\.nfs-tuned: warning: nconnect=8 cannot take effect' || return
	nconn_is "$b" 4 "shares a's client" || return
	# the package's nfs-tuned, not setuid, reads the records its helper left
	[ "$(stat -c '%a %U' /usr/bin/nfs-tuned)" = "755 root" ] ||
		fail "/usr/bin/nfs-tuned is $(stat -c '%a %U' /usr/bin/nfs-tuned 2>&1)" || return
	xrun setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/nfs-tuned status -r -n \
		-o target,req,nconnect,findings
	status_is 1 "a finding" || return
	out_has "$b 8 4 nconnect-inherited" || return
}

p_mount_nfs4() {
	local a
	have_debs || return
	a=$(mp a)
	xrun mount -v -t nfs4 $SRV:/export/a "$a"
	status_is 0 "mount -t nfs4" || return
	out_matches "mount\.nfs-tuned: exec: $DOWN .*\(as mount\.nfs4\)" || return
	case $(mi_opt "$a" vers) in 4*) ;; *) fail "vers=$(mi_opt "$a" vers), expected 4.x" || return ;; esac
}

p_fstab() {
	local c d e
	have_debs || return
	c=$(mp c) d=$(mp d) e=$(mp e)
	cat >/etc/fstab <<-EOF
	$SRV:/export/c $c nfs vers=4.1,nconnect=4 0 0
	$SRV:/export/d $d nfs vers=4.1,nconnect=2,_netdev 0 0
	$SRV:/export/e $e nfs4 noauto 0 0
	EOF
	log "  fstab: $(tr '\n' ';' </etc/fstab)"
	xrun mount -a -v -t nfs,nfs4
	status_is 0 "mount -a" || return
	out_matches "mount\.nfs-tuned: endpoint: $SRV:/export/c " "the helper mounted c" || return
	out_matches "mount\.nfs-tuned: endpoint: $SRV:/export/d " "the helper mounted d" || return
	out_matches 'mount\.nfs-tuned: warning: nconnect=2 cannot take effect' "d shares c's client" || return
	mounted "$c" && mounted "$d" && not_mounted "$e" noauto || return
	nconn_is "$d" 4 || return
	xrun mount -v "$e"
	status_is 0 "mount DIR from fstab" || return
	out_matches "mount\.nfs-tuned: exec: $DOWN .*\(as mount\.nfs4\)" || return
	xrun umount -a -t nfs,nfs4
	status_is 0 "umount -a" || return
	[ -z "$(nfs_mountpoints)" ] || fail "still mounted after umount -a: $(nfs_mountpoints)" || return
}

# umount(8) runs umount.nfs/umount.nfs4, nfs-common's links to mount.nfs: the helper hands
# over to the real one. Shown by the helper's own refusal when told the real one is absent
p_umount() {
	local a b
	have_debs || return
	a=$(mp a) b=$(mp b)
	xrun mount -t nfs $SRV:/export/a "$a" -o vers=3
	status_is 0 || return
	xrun mount -t nfs4 $SRV:/export/b "$b"
	status_is 0 || return
	for d in "$a" "$b"; do
		xrun env NFS_TUNED_MOUNT_NFS=/nonexistent/mount.nfs umount "$d"
		[ "$RC" != 0 ] || fail "umount $d succeeded without a real mount.nfs: not through the helper" || return
		out_matches '^mount\.nfs-tuned: cannot run the real mount\.nfs /nonexistent/mount\.nfs' || return
		mounted "$d" || return
		xrun umount "$d"
		status_is 0 "umount $d" || return
		not_mounted "$d" || return
	done
}

# an fstab "user" mount by an ordinary user: mount(8) drops to the user's uid and runs the
# helper, which is setuid root as the mount.nfs it replaces was. The read-ahead (a root-only
# sysfs write, the one setting here) shows it ran as root (a helper without the bit refuses:
# p_user_mounts_off)
p_user() {
	local f
	have_debs || return
	f=$(mp f)
	echo "$SRV:/export/f $f nfs vers=3,user,noauto 0 0" >/etc/fstab
	conf "[global]" "read_ahead_kb = 4096"
	xrun setpriv --reuid=65534 --regid=65534 --clear-groups mount -v "$f"
	status_is 0 "user mount as nobody" || return
	out_matches "mount\.nfs-tuned: exec: $DOWN " "the helper ran for the user" || return
	mounted "$f" || return
	[ "$(ra_of "$f")" = 4096 ] || fail "read_ahead_kb $(ra_of "$f"), not 4096: the helper did not run as root" || return
	[ "$(stat -c '%a %U' /usr/sbin/mount.nfs-tuned)" = "4755 root" ] ||
		fail "the helper is $(stat -c '%a %U' /usr/sbin/mount.nfs-tuned), not setuid root" || return
	xrun setpriv --reuid=65534 --regid=65534 --clear-groups umount "$f"
	status_is 0 "user umount" || return
	not_mounted "$f" || return
}

# dpkg -i DEB; then the helper is in front, nfs-common's binary at REAL (SHA), and mounts
install_and_mount() { # DEB REAL SHA
	pkg dpkg -i "$1" || return
	in_front || return
	real_at "$2" "$3" || return
	via_helper "$2" nfs $SRV:/export/a "$(mp a)" vers=3 || return
}

p_reinstall_nfs_common() {
	have_debs || return
	install_and_mount "$NCOWN" $DOWN "$SHAOWN" || return
}

p_reinstall_self() {
	have_debs || return
	install_and_mount "$TUNED" $DOWN "$SHAOWN" || return
	dpkg_status_is "ii $V" || return
}

# mount_nfs naming the helper's own name: it refuses to run itself (exit 2)
p_loop() {
	local a
	have_debs || return
	a=$(mp a)
	conf "[global]" "mount_nfs = /usr/sbin/mount.nfs"
	xrun mount -t nfs $SRV:/export/a "$a" -o vers=3
	status_is 2 "divert loop through mount(8)" || return
	out_matches 'divert loop' || return
	not_mounted "$a" || return
}

p_purge() { # COMMAND NAME SHA: purge with COMMAND; then the real mount.nfs is at NAME with SHA
	have_debs || return
	pkg $1 nfs-tuned || return
	shift
	not_installed || return
	gone "$1" "$2" || return
	[ ! -e /run/nfs-tuned ] || fail "/run/nfs-tuned left after purge" || return
	without_helper "$(mp a)" || return
}

p_upgrade_from_previous() {
	have_debs || return
	pkg dpkg -i "$PREV" || return
	in_front || return
	xrun apt install -y "$TUNED"
	[ "$RC" = 0 ] || { log "  apt failed offline; dpkg -i"; pkg dpkg -i "$TUNED"; } || return
	dpkg_status_is "ii $V" || return
	in_front || return
	real_at $DOWN "$SHAOWN" || return
	via_helper $DOWN nfs $SRV:/export/a "$(mp a)" vers=3 || return
}

# nfs-common moves mount.nfs to /usr/sbin (Debian 13) while the helper is installed
p_upgrade_nfs_common() {
	local b
	have_debs || return
	pkg dpkg -i "$NC13" || return
	in_front || return
	real_at $D13 "$SHA13" || return
	[ ! -e $D12 ] || fail "$D12 is still there after the upgrade" || return
	[ "$(readlink /usr/sbin/mount.nfs4)" = mount.nfs ] || fail "/usr/sbin/mount.nfs4 lost" || return
	via_helper $D13 nfs $SRV:/export/a "$(mp a)" vers=3 || return
	b=$(mp b)
	xrun mount -v -t nfs4 $SRV:/export/b "$b"
	status_is 0 || return
	out_matches "mount\.nfs-tuned: exec: $D13 .*\(as mount\.nfs4\)" || return
	xrun umount "$b"
	status_is 0 || return
	not_mounted "$b" || return
}

# installed on the Debian 13 layout from scratch, then removed (not purged)
p_install_remove_13() {
	have_debs || return
	install_and_mount "$TUNED" $D13 "$SHA13" || return
	xrun umount "$MNT/a"
	pkg dpkg -r nfs-tuned || return
	gone /usr/sbin/mount.nfs "$SHA13" || return
	without_helper "$(mp a)" || return
}

# a diversion the admin made by hand (an earlier contrib/divert-mount.nfs) is left alone:
# the install stops before changing anything
p_local_diversion() {
	local before after
	have_debs || return
	xrun dpkg-divert --local --rename --divert /sbin/mount.nfs.local --add /sbin/mount.nfs
	status_is 0 || return
	printf '#!/bin/sh\nexit 32\n' >/sbin/mount.nfs && chmod 755 /sbin/mount.nfs
	before=$(dpkg-divert --list | sort; sha /sbin/mount.nfs; sha /sbin/mount.nfs.local)
	xrun dpkg -i "$TUNED"
	after=$(dpkg-divert --list | sort; sha /sbin/mount.nfs; sha /sbin/mount.nfs.local)
	local out=$OUT rc=$RC
	rm -f /sbin/mount.nfs
	dpkg-divert --rename --remove /sbin/mount.nfs >>"$LAB_DETAILS" 2>&1
	OUT=$out RC=$rc
	[ "$RC" != 0 ] || fail "the install went on over a LOCAL diversion" || return
	out_matches 'nfs-tuned: /sbin/mount.nfs is already diverted by LOCAL' || return
	out_matches 'Nothing was changed' || return
	[ "$before" = "$after" ] || fail "the failed install changed diversions or files: $after" || return
	not_installed || return
	gone /usr/sbin/mount.nfs "$SHA13" || return
}

# nfs-common's mount.nfs made non-setuid before the install (HOW: chmod u-s, or a
# dpkg-statoverride): a user cannot mount a "user" fstab entry through the helper (setpriv,
# su), the package installs no setuid binary at all, and after purge the statoverrides and
# the mode are as they were. Then mount.nfs is setuid again, for the checks after this one
p_user_mounts_off() { # HOW
	local f o m
	have_debs || return
	f=$(mp f)
	case $1 in
	chmod) chmod u-s $OWN ;;
	statoverride) pkg dpkg-statoverride --update --add root root 0755 $OWN || return ;;
	esac
	o=$(dpkg-statoverride --list | sort) m=$(stat -c '%a %U %G' $OWN)
	log "  before: $OWN $m; statoverrides: $(echo "$o" | tr '\n' ';')"
	pkg dpkg -i "$TUNED" || return
	[ "$(stat -c '%a %U' /usr/sbin/mount.nfs-tuned)" = "755 root" ] ||
		fail "the helper is $(stat -c '%a %U' /usr/sbin/mount.nfs-tuned), mount.nfs was $m" || return
	[ "$(stat -c %a $DOWN)" = 755 ] || fail "$DOWN is $(stat -c %a $DOWN), not 755" || return
	echo "$SRV:/export/f $f nfs vers=3,user,noauto 0 0" >/etc/fstab
	xrun setpriv --reuid=65534 --regid=65534 --clear-groups mount -v "$f"
	[ "$RC" != 0 ] || fail "nobody mounted $f through the helper (setpriv)" || return
	out_matches 'mount\.nfs-tuned: not installed setuid: "user" NFS mounts are off' || return
	not_mounted "$f" || return
	xrun su -s /bin/sh -c "mount -v $f" nobody
	[ "$RC" != 0 ] || fail "nobody mounted $f through the helper (su)" || return
	out_matches 'mount\.nfs-tuned: not installed setuid' || return
	not_mounted "$f" || return
	: >/etc/fstab
	pkg dpkg -P nfs-tuned || return
	not_installed || return
	[ "$(dpkg-statoverride --list | sort)" = "$o" ] ||
		fail "statoverrides after purge: $(dpkg-statoverride --list | tr '\n' ';')" || return
	[ "$(stat -c '%a %U %G' $OWN)" = "$m" ] ||
		fail "$OWN after purge: $(stat -c '%a %U %G' $OWN), was $m" || return
	case $1 in
	chmod) chmod u+s $OWN ;;
	statoverride) pkg dpkg-statoverride --remove $OWN && chmod 4755 $OWN || return ;;
	esac
	real_at $OWN "$SHAOWN" || return
}

# back to the guest's own nfs-common (on Debian 12 a downgrade from the stand-in to the /sbin
# layout; on 13 and later the guest's own was never replaced, and the checks run on it as it
# is: a reinstall over itself is reinstall-nfs-common's, about 40 s of the emulator's dpkg)
p_restore() {
	have_debs || return
	[ $L = usr-sbin ] || pkg dpkg -i "$NCOWN" || return
	real_at $OWN "$SHAOWN" || return
	[ "$(readlink /sbin/umount.nfs4)" = mount.nfs ] || fail "/sbin/umount.nfs4 lost" || return
	without_helper "$(mp a)" || return
}

t install p_install
t mount-t-nfs p_mount_nfs
t mount-t-nfs4 p_mount_nfs4
t mount-a-fstab p_fstab
t umount-through-helper p_umount
t user-mount-setuid p_user
t reinstall-nfs-common p_reinstall_nfs_common
t reinstall-self p_reinstall_self
t divert-loop p_loop
t purge-restores-$L p_purge "apt purge -y" $OWN "$SHAOWN"
t upgrade-from-previous p_upgrade_from_previous
if [ $L = sbin ]; then
	t nfs-common-to-usr-sbin p_upgrade_nfs_common
	# dpkg: apt refuses to act while the stand-in nfs-common breaks nfs-kernel-server's
	# dependency on nfs-common of its own version (the lab's server; Debian 13 has both)
	t purge-restores-usr-sbin p_purge "dpkg -P" /usr/sbin/mount.nfs "$SHA13"
else
	t nfs-common-to-usr-sbin skip "Debian $(cut -d. -f1 /etc/debian_version)'s nfs-common" \
		"has mount.nfs in /usr/sbin already; the real upgrade: lab/run --platform trixie --upgrade"
	t purge-dpkg-restores-usr-sbin p_purge "dpkg -P" /usr/sbin/mount.nfs "$SHA13"
fi
t install-remove-usr-sbin p_install_remove_13
t local-diversion-left-alone p_local_diversion
t restore-nfs-common p_restore
t user-mounts-off-chmod p_user_mounts_off chmod
t user-mounts-off-statoverride p_user_mounts_off statoverride
