# Scenario (lab/run --platform trixie|forky --upgrade only): the real upgrade to that release,
# Debian 12 -> 13 or 13 -> 14. The image is a system of the older release that had its
# nfs-common and the nfs-tuned package of this tree installed, an /etc/nfs-tuned.conf
# written, then `apt-get full-upgrade` against the newer one (lab/upgrade --to, at build
# time), booted on the newer release's kernel. After it: everything is the newer release's,
# the package and its two diversions are still there, the new mount.nfs sits aside in
# /usr/sbin and works, every mount -t nfs goes through the helper with the admin's config,
# and a purge puts the new mount.nfs back byte for byte, setuid, with no diversion left. The
# checks run in order.

. /lab/guest/params
[ "$LAB_MODE" = upgrade ] || {
	t upgraded skip "the upgraded image only: lab/run --platform trixie|forky --upgrade"
	return 0
}
# each upgrade, one row: Debian's version before and now (debian_version patterns; testing
# says "forky/sid"), nfs-common's before and now (dpkg version prefixes), what mount.nfs -V
# says now
case $LAB_PLATFORM in
trixie) U_WAS='12.*' U_NOW='13.*' U_NC_WAS='1:2.6.' U_NC_NOW='1:2.8.' U_V='nfs-utils 2\.8' ;;
forky) U_WAS='13.*' U_NOW='14.*|forky/sid' U_NC_WAS='1:2.8.' U_NC_NOW='1:3.' U_V='nfs-utils 3\.' ;;
*) t upgraded fail "no upgrade to $LAB_PLATFORM in this scenario's table"; return 0 ;;
esac
# shellcheck disable=SC2254
debian_is() { eval "case \$1 in $2) return 0 ;; esac"; return 1; }
. /lab/guest/pkg.sh
NC=$(ls $DEBS/nfs-common_*.deb 2>/dev/null | head -n1)
SHAT=$([ -n "$NC" ] && deb_sha "$NC" usr/sbin/mount.nfs)
BEFORE=/etc/lab-upgrade/before
CONF_KEPT=1
# the admin's config as the boot found it (each check's cleanup removes $CONF; the checks
# that need it put this copy back)
BOOTCONF=/tmp/lab/upgrade-nfs-tuned.conf
cp -p $CONF $BOOTCONF 2>/dev/null || rm -f $BOOTCONF
have() { [ -n "$TUNED" ] && [ -n "$NC" ] && [ -f $BEFORE ] ||
	fail "not the upgraded image: no /lab/debs packages or $BEFORE (lab/upgrade)"; }
was() { sed -n "s/^$1 //p" $BEFORE; }
version_of() { dpkg-query -W -f '${db:Status-Abbrev}${Version}' "$1" 2>/dev/null; }

# the older release before, the newer one now, on its kernel; the package still installed, in
# its version
u_upgraded() {
	have || return
	log "  before: $(tr '\n' ';' <$BEFORE)"
	log "  after: $(tr '\n' ';' </etc/lab-upgrade/after)"
	debian_is "$(was debian_version)" "$U_WAS" ||
		fail "before: Debian $(was debian_version), not $U_WAS" || return
	debian_is "$(cat /etc/debian_version)" "$U_NOW" ||
		fail "now Debian $(cat /etc/debian_version), not $U_NOW" || return
	case $(was 'version nfs-common') in "$U_NC_WAS"*) ;; *) fail "before: nfs-common $(was 'version nfs-common'), not $U_NC_WAS*" || return ;; esac
	case $(version_of nfs-common) in "ii $U_NC_NOW"*) ;; *) fail "nfs-common is '$(version_of nfs-common)', not $U_NC_NOW*" || return ;; esac
	[ "$(version_of nfs-common)" = "ii $(dpkg-deb -f "$NC" Version)" ] ||
		fail "nfs-common $(version_of nfs-common) is not the upgrade's $(dpkg-deb -f "$NC" Version)" || return
	[ "$(version_of nfs-tuned)" = "ii $(was 'version nfs-tuned')" ] ||
		fail "nfs-tuned is '$(version_of nfs-tuned)', was $(was 'version nfs-tuned')" || return
	[ "$(uname -r)" = "$(cat /etc/lab-kernel)" ] ||
		fail "kernel $(uname -r), not the $LAB_PLATFORM lab's $(cat /etc/lab-kernel)" || return
}

# nothing lost: the config byte for byte, the package's same two diversions, the package's files intact,
# the helper in front and the new mount.nfs aside (not setuid: the helper is the one setuid
# binary), no /sbin one (gone with nfs-common 2.6)
u_kept() {
	have || return
	[ "$(sha $BOOTCONF)" = "$(was conf_sha256)" ] || fail "$CONF changed or lost in the upgrade" || return
	cp -p $BOOTCONF $CONF
	# (the upgrade adds diversions of other packages: Debian 13's moves to /usr, DEP 17)
	local now
	now=$(dpkg-divert --list | grep ' by nfs-tuned$' | sort)
	[ -n "$now" ] && [ "$now" = "$(was divert | grep ' by nfs-tuned$')" ] ||
		fail "nfs-tuned's diversions now: $(echo "$now" | tr '\n' ';'), before: $(was divert | tr '\n' ';')" || return
	xrun dpkg --verify nfs-tuned
	status_is 0 "dpkg --verify nfs-tuned" || return
	out_quiet "dpkg --verify: the package's files as it shipped them" || return
	in_front || return
	real_at $D13 "$SHAT" || return
	[ ! -e $D12 ] || fail "$D12 (nfs-common 2.6's) is still there" || return
}

# mount -t nfs and nfs4 go through the helper, which runs the new mount.nfs and applies the
# admin's config (read_ahead_kb = 4096, written before the upgrade)
u_mounts() {
	local a b
	have || return
	a=$(mp a) b=$(mp b)
	cp -p $BOOTCONF $CONF || fail "no $CONF from before the upgrade" || return
	via_helper $D13 nfs $SRV:/export/a "$a" vers=3 || return
	[ "$(ra_of "$a")" = 4096 ] || fail "read_ahead_kb $(ra_of "$a"), not the config's 4096" || return
	xrun mount -v -t nfs4 $SRV:/export/b "$b"
	status_is 0 "mount -t nfs4" || return
	out_matches "mount\.nfs-tuned: exec: $D13 .*\(as mount\.nfs4\)" || return
	xrun umount "$b"
	status_is 0 "umount" || return
	not_mounted "$b" || return
}

# the new mount.nfs, run by its diverted name, mounts on its own
u_real_works() {
	local c
	have || return
	c=$(mp c)
	xrun $D13 -V
	out_matches "$U_V" "$D13 is $U_V" || return
	xrun $D13 $SRV:/export/c "$c" -v -o vers=4.2
	status_is 0 "$D13 directly" || return
	out_no_match 'mount\.nfs-tuned' || return
	mounted "$c" || return
}

# purge: the new mount.nfs back at /usr/sbin/mount.nfs, byte for byte and setuid, no
# diversion, no file of the package; mounts work without the helper
u_purge() {
	have || return
	pkg apt purge -y nfs-tuned || return
	not_installed || return
	gone /usr/sbin/mount.nfs "$SHAT" || return
	without_helper "$(mp a)" || return
}

t upgraded u_upgraded
t config-and-diversions-kept u_kept
t mounts-through-helper u_mounts
t real-mount-nfs-aside-works u_real_works
t purge-restores-new-mount-nfs u_purge
