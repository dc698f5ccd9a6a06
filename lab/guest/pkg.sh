# Shared by the package scenarios (lab/scenarios/package.sh, upgrade.sh; sourced): the packages
# in /lab/debs (lab/debs, lab/upgrade) and the checks of what dpkg left on the system.

DEBS=/lab/debs
TUNED=$(ls $DEBS/nfs-tuned_*.deb 2>/dev/null | grep -v '~prev' | head -n1)
D12=/sbin/mount.nfs.distrib
D13=/usr/sbin/mount.nfs.usr-is-merged
export DEBIAN_FRONTEND=noninteractive

sha() { sha256sum "$1" 2>/dev/null | cut -d' ' -f1; }
# the real binary as nfs-common ships it, read from its own package
deb_sha() { dpkg-deb --fsys-tarfile "$1" | tar -xO "./$2" | sha256sum | cut -d' ' -f1; }

# real_at PATH SHA: nfs-common's binary, unchanged, is at PATH: setuid root at its own name,
# not setuid at a diverted one (the helper is the only setuid-root binary)
real_at() {
	local want="4755 root"
	case $1 in "$D12"|"$D13") want="755 root" ;; esac
	[ -f "$1" ] && [ ! -L "$1" ] || fail "$1 is not a file" || return
	[ "$(sha "$1")" = "$2" ] || fail "$1: sha256 $(sha "$1"), not nfs-common's $2" || return
	[ "$(stat -c '%a %U' "$1")" = "$want" ] ||
		fail "$1: mode $(stat -c '%a %U' "$1"), expected $want" || return
}
# the package is installed and in front: two diversions, the helper at both names
in_front() {
	local d
	d=$(dpkg-divert --list | grep -c 'by nfs-tuned$')
	[ "$d" = 2 ] || fail "$d diversions by nfs-tuned: $(dpkg-divert --list | tr '\n' ';')" || return
	dpkg-divert --list | grep -q "^diversion of /sbin/mount.nfs to $D12 by nfs-tuned" ||
		fail "no diversion of /sbin/mount.nfs to $D12" || return
	dpkg-divert --list | grep -q "^diversion of /usr/sbin/mount.nfs to $D13 by nfs-tuned" ||
		fail "no diversion of /usr/sbin/mount.nfs to $D13" || return
	[ "$(readlink -f /sbin/mount.nfs)" = /usr/sbin/mount.nfs-tuned ] ||
		fail "/sbin/mount.nfs resolves to $(readlink -f /sbin/mount.nfs), not the helper" || return
	[ "$(stat -c '%a %U' /usr/sbin/mount.nfs-tuned)" = "4755 root" ] ||
		fail "/usr/sbin/mount.nfs-tuned mode $(stat -c '%a %U' /usr/sbin/mount.nfs-tuned)" || return
	[ "$(readlink -f /usr/sbin/umount.nfs4)" = /usr/sbin/mount.nfs-tuned ] ||
		fail "umount.nfs4 resolves to $(readlink -f /usr/sbin/umount.nfs4)" || return
	# (CONF_KEPT: the admin's config is there, on purpose)
	[ -n "${CONF_KEPT:-}" ] || [ ! -e "$CONF" ] || fail "$CONF exists: the package must work without it" || return
}
# the package is gone: no diversion, no file of it, nfs-common's binary at NAME
gone() { # NAME SHA
	[ -z "$(dpkg-divert --list | grep 'mount\.nfs')" ] ||
		fail "diversions left: $(dpkg-divert --list | grep 'mount\.nfs' | tr '\n' ';')" || return
	real_at "$1" "$2" || return
	[ "$(readlink -f /sbin/mount.nfs)" = "$(readlink -f "$1")" ] || fail "/sbin/mount.nfs is not $1" || return
	local f left=
	# /usr/sbin/mount.nfs is nfs-common's again (real_at above)
	for f in $(dpkg-deb -c "$TUNED" | awk '$1 !~ /^d/ { print substr($6, 2) }'); do
		[ "$f" != /usr/sbin/mount.nfs ] || continue
		[ -e "$f" ] || [ -L "$f" ] && left="$left $f"
	done
	[ -z "$left" ] || fail "files of the package left:$left" || return
	[ ! -e /usr/share/doc/nfs-tuned ] || fail "/usr/share/doc/nfs-tuned left" || return
	[ ! -e "$D12" ] && [ ! -e "$D13" ] || fail "a diverted copy is left: $(ls $D12 $D13 2>/dev/null)" || return
}
dpkg_status_is() { # WANT
	local s
	s=$(dpkg-query -W -f '${db:Status-Abbrev}${Version}' nfs-tuned 2>/dev/null)
	[ "$s" = "$1" ] || fail "dpkg says nfs-tuned is '$s', expected '$1'" || return
}
# purged or never installed (a failed first install leaves nothing either)
not_installed() {
	local s
	s=$(dpkg-query -W -f '${db:Status-Abbrev}' nfs-tuned 2>/dev/null)
	# the second letter: n(ot-installed) or c(onfig-files; the postrm alone is left)
	case $s in ''|?n*|?c*) ;; *) fail "dpkg says nfs-tuned is '$s', expected not installed" ;; esac
}
pkg() { # dpkg/apt COMMAND...: run it, rc 0
	xrun "$@"
	status_is 0 "$*" || return
}
# a mount through mount(8) that the helper's own -v output shows, running REAL
via_helper() { # REAL TYPE SPEC DIR OPTS
	xrun mount -v -t "$2" "$3" "$4" ${5:+-o "$5"}
	status_is 0 "mount -v -t $2 $3" || return
	out_matches "mount\.nfs-tuned: exec: $1 " "the helper ran $1" || return
	mounted "$4" || return
}
# mount without the helper: nothing of it in mount's -v output
without_helper() { # DIR
	xrun mount -v -t nfs $SRV:/export/a "$1" -o vers=3
	status_is 0 "mount -t nfs after removal" || return
	out_no_match 'mount\.nfs-tuned' || return
	mounted "$1" || return
	xrun umount "$1"
	status_is 0 || return
}
V=$([ -n "$TUNED" ] && dpkg-deb -f "$TUNED" Version)
