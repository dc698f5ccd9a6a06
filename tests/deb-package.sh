#!/bin/bash
# The Debian package's maintainer scripts, with the real dpkg against a stand-in nfs-common in
# scratch roots (dpkg --root: the scripts run chrooted there), for the rule of
# mount.nfs-tuned(8), USER MOUNTS: user mounts through the helper exist exactly when
# nfs-common's mount.nfs allowed them, there is one setuid-root binary, and purge leaves the
# statoverrides and the real binary's mode as they were. Each case starts from a new root:
#  - default: the helper setuid, the diverted copy not, also after nfs-common is reinstalled
#    and moves to /usr/sbin (the statoverride of the name nfs-common ships);
#  - chmod u-s, and separately a statoverride (0755; root nogroup 4750), on mount.nfs before
#    the install: carried over to the helper, kept by an upgrade, a user's run refused;
#  - while installed: a statoverride of mount.nfs refused, a chmod through the link kept by an
#    upgrade; dpkg -r puts mount.nfs back with its mode, a later nfs-common reinstall too;
#  - an upgrade from a package before this rule (nothing recorded, the diverted copy setuid).
# The package is built as a buildd builds it: dpkg-buildpackage -us -uc -b as an ordinary user
# (tests/lib/builder.sh: nobody when root runs the suite), its own tests included (no nocheck),
# so a test that fails as a user fails this one.
#   tests/deb-package.sh SOURCE-DIR [DEB]   (DEB: test that package instead of building one)
# Exit 77 (skip) without dpkg-buildpackage, debhelper or git; not as root, after the build: the
# scratch roots need root.
set -u
src=$(cd "$1" && pwd)
deb=${2:-}
. "$(dirname "${BASH_SOURCE[0]}")/lib/builder.sh"
for t in dpkg-buildpackage dpkg-deb dh git; do
	command -v "$t" >/dev/null || { echo "skip: no $t (apt-get install dpkg-dev debhelper)"; exit 77; }
done
as_root=$([ "$(id -u)" = 0 ] && echo yes)
[ -n "$as_root" ] || [ -z "$deb" ] ||
	{ echo "skip: dpkg --root runs the maintainer scripts chrooted: root only"; exit 77; }

# the builder's directory beside the test's own, which stays root's alone (the scratch roots
# hold a setuid helper)
d=$(mktemp -d "${TMPDIR:-/tmp}/nfs-tuned-deb.XXXXXX")
b=$(mktemp -d "${TMPDIR:-/tmp}/nfs-tuned-deb-build.XXXXXX")
trap 'rm -rf "$d" "$b"' EXIT
fails=0
fail() { echo "FAIL: $CASE: $*"; fails=$((fails + 1)); }
step() { echo "== $*"; }

if [ -z "$deb" ]; then
	builder_init "$b" || { echo "FAIL: the builder cannot write in $b"; exit 1; }
	step "dpkg-buildpackage of the tree, its tests included, as $BUILDER"
	mkdir -p "$b/build/src"
	(cd "$src" && git ls-files -co --exclude-standard -z |
		while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
		tar -c --null -T -) | tar -x -C "$b/build/src" || exit 1
	[ -z "$as_root" ] || chown -R "$BUILDER_UID:$BUILDER_GID" "$b/build" || exit 1
	# whatever the caller's options: the tests run
	opts=$(printf ' %s ' "${DEB_BUILD_OPTIONS:-}" | sed 's/ nocheck / /g; s/^ *//; s/ *$//')
	(cd "$b/build/src" && DEB_BUILD_OPTIONS=$opts as_builder dpkg-buildpackage -us -uc -b) \
		>"$d/build.log" 2>&1 ||
		{ tail -30 "$d/build.log"; echo "FAIL: dpkg-buildpackage as $BUILDER"; exit 1; }
	tests_ran "$d/build.log" || { echo "FAIL: the package's tests did not run, or did not pass"; exit 1; }
	deb=$(ls "$b"/build/nfs-tuned_*.deb | head -n1)
fi
echo "package: $deb"
[ -n "$as_root" ] ||
	{ echo "skip: built as $BUILDER; dpkg --root runs the maintainer scripts chrooted: root only"; exit 77; }

# a stand-in nfs-common: VERSION DIR (sbin, usr/sbin); its mount.nfs says who ran it
nfs_common() {
	local x=$d/nc/$1
	mkdir -p "$x/DEBIAN" "$x/$2" && chmod 755 "$x"
	printf 'Package: nfs-common\nVersion: %s\nArchitecture: all\nMaintainer: t <t@example.org>\nDescription: stand-in\n' \
		"$1" >"$x/DEBIAN/control"
	printf '#!/bin/sh\necho "nfs-common %s euid=$(id -u)"\n' "$1" >"$x/$2/mount.nfs"
	chmod 4755 "$x/$2/mount.nfs"
	for l in mount.nfs4 umount.nfs umount.nfs4; do ln -s mount.nfs "$x/$2/$l"; done
	dpkg-deb --root-owner-group -b "$x" "$d/nc-$1.deb" >/dev/null && echo "$d/nc-$1.deb"
}
# the directories of a merged /usr, also another package's (as in Debian): dpkg removes none
# of its links when nfs-common stops shipping /sbin; it provides the libraries the package
# depends on (they are copied into the root), so that dpkg runs its triggers
mkdir -p "$d/base/DEBIAN" "$d/base/bin" "$d/base/sbin" "$d/base/lib" &&
	printf '%s\n' 'Package: base-dirs' 'Version: 1' 'Architecture: all' 'Maintainer: t <t@example.org>' \
		'Provides: libc6 (= 9), libudev1 (= 9), libmount1 (= 9), libsmartcols1 (= 9)' \
		'Description: stand-in' >"$d/base/DEBIAN/control" &&
	dpkg-deb --root-owner-group -b "$d/base" "$d/base.deb" >/dev/null || { echo "FAIL: stand-in base"; exit 1; }
NC1=$(nfs_common 1:2.6.2-4 sbin) NC2=$(nfs_common 1:2.6.2-5 sbin) NC13=$(nfs_common 1:2.8.3-1 usr/sbin) ||
	{ echo "FAIL: stand-in nfs-common"; exit 1; }

# a merged-/usr root with what the maintainer scripts and the helper use
copy_with_libs() {
	local f
	for f in "$1" $(ldd "$1" 2>/dev/null | grep -oE '/[^ ]+'); do
		mkdir -p "$R$(dirname "$f")"
		[ -e "$R$f" ] || cp -L "$f" "$R$f"
	done
}
dpkg-deb -x "$deb" "$d/payload"
# every file at its /usr path (Debian 13's lintian: aliased-location for /lib, /bin, /sbin)
CASE=payload
[ -f "$d/payload/usr/lib/udev/rules.d/99-zz-nfs-tuned.rules" ] || fail "the udev rule is not in /usr/lib/udev/rules.d"
aliased=$(dpkg-deb -c "$deb" | awk '{ print $6 }' | grep -E '^\./(bin|sbin|lib[^/]*)/')
# the timer of the textfile and its service, the timer enabled and started by the postinst
# (dh_installsystemd's snippet; Debian 12's debhelper needs debian/rules' help to find them)
for u in nfs-tuned-prometheus.timer nfs-tuned-prometheus.service; do
	[ -f "$d/payload/usr/lib/systemd/system/$u" ] || fail "$u is not in /usr/lib/systemd/system"
done
dpkg-deb -e "$deb" "$d/control"
grep -q "deb-systemd-helper enable 'nfs-tuned-prometheus.timer'" "$d/control/postinst" ||
	fail "the postinst does not enable nfs-tuned-prometheus.timer"
[ -z "$aliased" ] || fail "files under an aliased directory: $aliased"
new_root() {
	R=$d/root-$CASE
	mkdir -p "$R"/usr/{bin,sbin,lib,lib64} "$R"/etc "$R"/tmp "$R"/var/lib/dpkg/{info,updates} "$R"/dev "$R"/mnt/x
	for l in bin sbin lib lib64; do ln -s usr/$l "$R/$l"; done
	: >"$R/var/lib/dpkg/status"
	cp -a /dev/null "$R/dev/null"
	printf 'root:x:0:0::/root:/bin/sh\nnobody:x:65534:65534::/nonexistent:/bin/sh\n' >"$R/etc/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' >"$R/etc/group"
	local t
	for t in sh awk dpkg-divert dpkg-query dpkg-statoverride dpkg-trigger stat chmod chown rm cat sed \
		mkdir id; do
		copy_with_libs "$(command -v "$t")"
	done
	copy_with_libs "$d/payload/usr/sbin/mount.nfs-tuned"
	rm -f "$R/usr/sbin/mount.nfs-tuned"
	dp -i "$d/base.deb" && dp -i "$NC1"
}
dp() { dpkg --root="$R" "$@" >"$d/dpkg.out" 2>&1 || { cat "$d/dpkg.out"; return 1; }; }
in_root() { chroot "$R" "$@"; }
mode() { stat -c '%U %G %a' "$R$1" 2>/dev/null; }
overrides() { in_root dpkg-statoverride --list | sort | tr '\n' ';'; }
setuid_files() { (cd "$R" && find . -xdev -type f -perm /6000 | sed 's/^\.//' | sort | tr '\n' ' '); }
is() { [ "$2" = "$3" ] || fail "$1: '$2', expected '$3'"; }
# installed: the helper's owner, group and mode are MODE, the setuid files FILES
installed_is() {
	is "the helper${3:+ $3}" "$(mode /usr/sbin/mount.nfs-tuned)" "$1"
	is "setuid files${3:+ $3}" "$(setuid_files)" "$2"
}
# dpkg -P; then the statoverrides are $before again, NAME's owner, group and mode MODE
purged() { # NAME MODE
	dp -P nfs-tuned || fail "dpkg -P"
	is "statoverrides after purge" "$(overrides)" "$before"
	is "$1 after purge" "$(mode "$1")" "$2"
	[ ! -e "$R/var/lib/nfs-tuned" ] || fail "/var/lib/nfs-tuned left after purge"
}
# a user's mount through mount.nfs: NEEDLE is in what it says
user_mount_says() {
	OUT=$(chroot --userspec=65534:65534 "$R" /sbin/mount.nfs 10.0.0.1:/e /mnt/x -o vers=3 2>&1)
	RC=$?
	[[ $OUT == *"$1"* ]] || fail "a user's mount through the helper (exit $RC) said: $OUT"
}

CASE=default
step "$CASE: nfs-common's mount.nfs setuid, nothing overridden"
new_root
before=$(overrides)
dp -i "$deb" || fail "dpkg -i"
installed_is "root root 4755" "/usr/sbin/mount.nfs-tuned "
dp -i "$NC2" || fail "nfs-common reinstalled"
is "the diverted copy after an nfs-common upgrade" "$(mode /sbin/mount.nfs.distrib)" "root root 755"
dp -i "$NC13" || fail "nfs-common to /usr/sbin"
installed_is "root root 4755" "/usr/sbin/mount.nfs-tuned " "after nfs-common moved to /usr/sbin"
dp -i "$deb" || fail "nfs-tuned upgraded"
installed_is "root root 4755" "/usr/sbin/mount.nfs-tuned " "after an upgrade"
purged /usr/sbin/mount.nfs "root root 4755"

CASE=chmod
step "$CASE: chmod u-s /sbin/mount.nfs before the install"
new_root
chmod u-s "$R/sbin/mount.nfs"
before=$(overrides)
dp -i "$deb" || fail "dpkg -i"
installed_is "root root 755" ""
user_mount_says "not installed setuid"
[[ $OUT != *nfs-common* ]] || fail "the real mount.nfs ran for the user"
dp -i "$deb" || fail "nfs-tuned upgraded"
dp -i "$NC2" || fail "nfs-common reinstalled"
installed_is "root root 755" "" "after upgrades of both"
purged /sbin/mount.nfs "root root 755"

for how in "root root 0755" "root nogroup 4750"; do
	CASE="statoverride-${how// /-}"
	step "$CASE: dpkg-statoverride --update --add $how /sbin/mount.nfs before the install"
	new_root
	set -- $how
	in_root dpkg-statoverride --update --add "$@" /sbin/mount.nfs || fail "dpkg-statoverride"
	was=$(mode /sbin/mount.nfs)
	before=$(overrides)
	want="$1 $2 $(printf %o $((0$3)))" files=$([ "$3" = 4750 ] && echo '/usr/sbin/mount.nfs-tuned ')
	dp -i "$deb" || fail "dpkg -i"
	installed_is "$want" "$files"
	[ "$3" = 4750 ] || user_mount_says "not installed setuid"
	dp -i "$deb" || fail "nfs-tuned upgraded"
	dp -i "$NC2" || fail "nfs-common reinstalled"
	installed_is "$want" "$files" "after upgrades of both"
	purged /sbin/mount.nfs "$was"
done

CASE=while-installed
step "$CASE: the admin acts while the package is installed; dpkg -r"
new_root
before=$(overrides)
dp -i "$deb" || fail "dpkg -i"
in_root dpkg-statoverride --update --add root root 0755 /sbin/mount.nfs >/dev/null 2>&1 &&
	fail "dpkg-statoverride --update of /sbin/mount.nfs went through (it chmods the helper)"
chmod u-s "$R/sbin/mount.nfs"
is "the helper after chmod u-s /sbin/mount.nfs" "$(mode /usr/sbin/mount.nfs-tuned)" "root root 755"
dp -i "$deb" || fail "nfs-tuned upgraded"
installed_is "root root 755" "" "after an upgrade"
# the package's statoverride of /sbin/mount.nfs removed: its file trigger strips the bit
in_root dpkg-statoverride --remove /sbin/mount.nfs || fail "dpkg-statoverride --remove"
dp -i "$NC2" || fail "nfs-common reinstalled"
is "setuid files after nfs-common reinstalled without the statoverride" "$(setuid_files)" ""
dp -r nfs-tuned || fail "dpkg -r"
is "statoverrides after dpkg -r" "$(overrides)" "$before"
is "mount.nfs after dpkg -r" "$(mode /sbin/mount.nfs)" "root root 4755"
dp -i "$NC2" || fail "nfs-common reinstalled after dpkg -r"
is "mount.nfs reinstalled after dpkg -r" "$(mode /sbin/mount.nfs)" "root root 4755"

CASE=from-before
step "$CASE: an upgrade from a package before the rule, whose helper was chmod u-s through the link"
new_root
dp -i "$deb" || fail "dpkg -i"
# what such a package left: no record, no statoverride, the diverted copy setuid
for n in /sbin/mount.nfs /usr/sbin/mount.nfs; do in_root dpkg-statoverride --remove $n; done
rm -r "$R/var/lib/nfs-tuned"
chmod 4755 "$R/sbin/mount.nfs.distrib"
chmod u-s "$R/sbin/mount.nfs"
dp -i "$deb" || fail "nfs-tuned upgraded"
installed_is "root root 755" "" "after the upgrade"
before=
purged /sbin/mount.nfs "root root 4755"

[ "$fails" = 0 ] && echo "all passed"
[ "$fails" = 0 ]
