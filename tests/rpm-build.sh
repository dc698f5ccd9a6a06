#!/bin/bash
# The RPM package, built and used as the README says, on Debian:
#  - the README's commands, word for word, in a fresh clone of the checkout (git archive of
#    HEAD), as an ordinary user, as Fedora's builders build (tests/lib/builder.sh: nobody when
#    root runs the suite), in a scratch HOME, so ~/rpmbuild is the test's; the spec's %check
#    runs the package's tests, so a test that fails as a user fails this one;
#  - rpmlint clean, but for the overrides rpm/nfs-tuned.rpmlintrc explains;
#  - the payload against what `meson install --destdir` installs with the spec's own
#    options, so a file meson installs can never be missing from %files again;
#  - installed with a stand-in nfs-utils into a scratch root (rpm -i --root, the scriptlets
#    and triggers run chrooted there): nfs-tuned-front enable, an nfs-utils update and its
#    trigger, a trigger that fails, disable, the package's removal; the helper in that root
#    picks the real mount.nfs from its built-in list; the helper setuid exactly when
#    nfs-utils' mount.nfs is (also with it made non-setuid before the install);
#  - then with rpm's dependency checks, a stand-in nfs-utils-coreos (tests/fixtures/rpm) as
#    the provider of mount.nfs: Requires: mount.nfs, the trigger on its update, nfs-utils
#    beside it and erased, the last provider erased, the spec's check of the real binary.
#   tests/rpm-build.sh SOURCE-DIR
# Exit 77 (skip) without rpmbuild, rpmlint or git, or outside a git checkout; not as root, after
# the build, the lint and the payload: the scratch root needs root.
set -u
src=$(cd "$1" && pwd)
. "$(dirname "${BASH_SOURCE[0]}")/lib/builder.sh"
for t in rpmbuild rpmlint rpmspec git; do
	command -v "$t" >/dev/null || { echo "skip: no $t (apt-get install rpm rpmlint)"; exit 77; }
done
git -C "$src" rev-parse --verify -q HEAD >/dev/null || { echo "skip: $src is not a git checkout"; exit 77; }

# the builder's directory beside the test's own, which stays root's alone (the scratch root
# holds a setuid helper)
d=$(mktemp -d "${TMPDIR:-/tmp}/nfs-tuned-rpm.XXXXXX")
b=$(mktemp -d "${TMPDIR:-/tmp}/nfs-tuned-rpm-build.XXXXXX")
trap 'rm -rf "$d" "$b"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
step() { echo "== $*"; }

# --- the README's commands, checked to be there word for word, then run ---------------------
readme_cmds=(
	'mkdir -p ~/rpmbuild/SOURCES'
	'git archive --prefix=nfs-tuned-0.1.0/ -o ~/rpmbuild/SOURCES/nfs-tuned-0.1.0.tar.gz HEAD'
	'rpmbuild --nodeps -bb rpm/nfs-tuned.spec'
)
for c in "${readme_cmds[@]}"; do
	grep -qF "    $c" "$src/README.md" || fail "README.md no longer says: $c"
done
# root's own commands (the stand-in nfs-utils, rpmlint) keep to the test's directory too
export HOME=$d/home
mkdir -p "$HOME"
builder_init "$b" || { fail "the builder cannot write in $b"; exit 1; }
# rpmbuild's scripts in the builder's TMPDIR, not /var/tmp, where a failed %check leaves its own
printf '%%_tmppath %s\n' "$b/tmp" >"$b/.rpmmacros"
[ "$(id -u)" != 0 ] || chown "$BUILDER_UID:$BUILDER_GID" "$b/.rpmmacros"
step "rpmbuild (the README's commands in a fresh clone, as $BUILDER, HOME=$b)"
git clone -q "$src" "$b/nfs-tuned" >"$d/build.log" 2>&1 &&
	{ [ "$(id -u)" != 0 ] || chown -R "$BUILDER_UID:$BUILDER_GID" "$b/nfs-tuned"; } &&
	(cd "$b/nfs-tuned" && as_builder bash -c 'for c; do eval "$c" || exit 1; done' - "${readme_cmds[@]}") \
		>>"$d/build.log" 2>&1 ||
	{ tail -40 "$d/build.log"; fail "the README's rpmbuild failed as $BUILDER"; exit 1; }
tests_ran "$d/build.log" || { fail "the package's tests (%check) did not run, or did not pass"; exit 1; }
rpm_file=$(ls "$b"/rpmbuild/RPMS/*/nfs-tuned-0.1.0-*.rpm 2>/dev/null | head -1)
[ -f "$rpm_file" ] || { fail "no package in $b/rpmbuild/RPMS"; exit 1; }
echo "built $(basename "$rpm_file")"

step "rpmlint"
rpmlint -r "$src/rpm/nfs-tuned.rpmlintrc" "$rpm_file" "$src/rpm/nfs-tuned.spec" >"$d/lint" 2>&1
grep -E ': [EW]: ' "$d/lint" && fail "rpmlint: findings not explained in rpm/nfs-tuned.rpmlintrc"
grep -q 'checks: ' "$d/lint" || { cat "$d/lint"; fail "rpmlint did not run"; }

# --- the payload against meson install --destdir, with the spec's own %build ----------------
step "payload against meson install --destdir"
mkdir -p "$d/tree"
tar -xzf "$b/rpmbuild/SOURCES/nfs-tuned-0.1.0.tar.gz" -C "$d/tree"
rpmspec -P "$src/rpm/nfs-tuned.spec" >"$d/spec.expanded" 2>/dev/null
# the expanded %build section (rpmspec -P drops its header): %set_build_flags' exports, then
# `meson setup` with the spec's options, then `meson compile`
sed -n '/^ *CFLAGS=/,/^meson compile /p' "$d/spec.expanded" >"$d/build.sh"
builddir=$(sed -n 's/^meson compile -C \([^ ]*\) .*/\1/p' "$d/build.sh")
[ -n "$builddir" ] || fail "no meson compile line in the spec's %build"
(cd "$d/tree/nfs-tuned-0.1.0" && sh -e "$d/build.sh" &&
	meson install -C "$builddir" --no-rebuild --destdir "$d/destdir") >"$d/meson.log" 2>&1 ||
	{ tail -20 "$d/meson.log"; fail "meson install --destdir with the spec's options"; }
(cd "$d/destdir" && find . ! -type d | sed 's/^\.//' | sort) >"$d/meson-files"
# the package's files: FLAGS|MODE|NAME (flags: g %ghost, l %license, d %doc)
rpm -qp --qf '[%{FILEFLAGS:fflags}|%{FILEMODES:perms}|%{FILENAMES}\n]' "$rpm_file" 2>/dev/null |
	sort -t'|' -k3 >"$d/rpm-list"
# less its directories and %ghost files (made at run time)
awk -F'|' '$1 !~ /g/ && $2 !~ /^d/ { print $3 }' "$d/rpm-list" >"$d/rpm-files"
# what the spec adds itself: its own script, README.md, LICENSE (and rpm's /usr/lib/.build-id
# links of the binaries)
grep -vE '^/usr/sbin/nfs-tuned-front$|^/usr/share/doc/nfs-tuned/README\.md$|^/usr/share/(licenses|doc)/nfs-tuned[^/]*/LICENSE$|^/usr/lib/\.build-id/' \
	"$d/rpm-files" >"$d/rpm-meson-part"
missing=$(comm -23 "$d/meson-files" "$d/rpm-meson-part")
extra=$(comm -13 "$d/meson-files" "$d/rpm-meson-part")
[ -z "$missing" ] || fail "meson installs, the package lacks: $missing"
[ -z "$extra" ] || fail "the package has, meson does not install: $extra"
echo "$(wc -l <"$d/meson-files") files from meson install, all in the package"
grep -qx /usr/lib/udev/rules.d/99-zz-nfs-tuned.rules "$d/rpm-files" ||
	fail "the udev rule is not /usr/lib/udev/rules.d/99-zz-nfs-tuned.rules: $(grep rules.d "$d/rpm-files")"
# owned, not shipped: nfs-tuned-front's files; the doc folders; the licence marked as one
for want in 'g|-rwxr-xr-x|/usr/sbin/mount.nfs.nfs-utils' 'g|-rw-r--r--|/var/lib/nfs-tuned/front' \
	'|drwxr-xr-x|/usr/share/doc/nfs-tuned' '|drwxr-xr-x|/usr/share/doc/nfs-tuned/examples' \
	'|drwxr-xr-x|/usr/share/doc/nfs-tuned/prometheus'; do
	grep -qxF "$want" "$d/rpm-list" || fail "the package lacks $want"
done
grep -qE '^[^|]*l[^|]*\|-rw-r--r--\|/usr/share/(licenses|doc)/nfs-tuned[^/]*/LICENSE$' "$d/rpm-list" ||
	fail "no %license LICENSE: $(grep LICENSE "$d/rpm-list")"
# the path of this build in nfs-tuned-front, no placeholder left
rpm2cpio "$rpm_file" | cpio -i --to-stdout --quiet ./usr/sbin/nfs-tuned-front >"$d/front" 2>/dev/null
grep -qx 'sbin=${NFS_TUNED_SBIN:-/usr/sbin}' "$d/front" && ! grep -q '@[A-Z]*@' "$d/front" ||
	fail "nfs-tuned-front's paths are not this build's: $(grep -E '^(sbin|state)=' "$d/front")"
# the dependency on mount.nfs, whichever package ships it, and a trigger for each of them
rpm -qp --requires "$rpm_file" 2>/dev/null | grep -qx 'mount.nfs' || fail "no Requires: mount.nfs"
rpm -qp --requires "$rpm_file" 2>/dev/null | grep -qx 'nfs-utils' && fail "Requires: nfs-utils"
rpm -qp --triggers "$rpm_file" 2>/dev/null | sed -n 's/^\(trigger[a-z]*\) scriptlet .* -- \(.*\)$/\1, \2,/p' >"$d/triggers"
for t in triggerin triggerpostun; do
	for p in nfs-utils nfs-utils-coreos nfsv4-client-utils; do
		grep "^$t," "$d/triggers" | grep -q " $p," || fail "no %$t on $p: $(cat "$d/triggers")"
	done
done
# shipped 0755: %post makes it setuid when nfs-utils' mount.nfs is
[ "$(rpm -qp --qf '[%{FILEMODES:perms} %{FILENAMES}\n]' "$rpm_file" | grep ' /usr/sbin/mount.nfs-tuned$' | cut -c1-10)" = -rwxr-xr-x ] ||
	fail "mount.nfs-tuned is not 0755 in the package"
[ "$(id -u)" = 0 ] || {
	[ "$fails" = 0 ] || exit 1
	echo "skip: built as $BUILDER, linted, payload checked; rpm -i --root runs the scriptlets chrooted: root only"
	exit 77
}

# --- a scratch root: a shell and the tools the scriptlets use, a stand-in nfs-utils ---------
step "scratch root"
R=$d/root
mkdir -p "$R/usr/bin" "$R/usr/sbin" "$R/usr/lib" "$R/etc" "$R/tmp" "$R/var/lib" "$R/mnt/x" "$R/dev" "$R/proc"
cp -a /dev/null "$R/dev/null"
for l in bin sbin lib lib64; do [ -L "/$l" ] && ln -s "usr/$l" "$R/$l"; done
mkdir -p "$R/usr/lib64"
copy_with_libs() { # the program and the libraries ldd names, at their own paths
	local f
	for f in "$1" $(ldd "$1" 2>/dev/null | grep -oE '/[^ ]+'); do
		mkdir -p "$R$(dirname "$f")"
		[ -e "$R$f" ] || cp -L "$f" "$R$f"
	done
}
for t in sh env ln mv chmod stat sed grep mkdir dirname readlink rm cat; do
	copy_with_libs "$(command -v "$t")"
done
# the libraries of the helper itself: it runs in the root (its built-in paths are the root's)
rpm2cpio "$rpm_file" | (cd "$d" && mkdir -p payload && cd payload && cpio -idm --quiet)
copy_with_libs "$d/payload/usr/sbin/mount.nfs-tuned"

nfs_utils_rpm() { # nfs_utils_rpm VERSION: a noarch nfs-utils with a setuid /usr/sbin/mount.nfs
	cat >"$d/nfs-utils.spec" <<EOF
Name: nfs-utils
Version: $1
Release: 1
Summary: stand-in for the test
License: MIT
BuildArch: noarch
Provides: mount.nfs = $1
%description
stand-in
%install
mkdir -p %{buildroot}/usr/sbin
printf '#!/bin/sh\necho nfs-utils $1 "\$@"\n' >%{buildroot}/usr/sbin/mount.nfs
%files
%attr(4755,root,root) /usr/sbin/mount.nfs
EOF
	rpmbuild -bb "$d/nfs-utils.spec" >/dev/null 2>&1 && ls "$HOME"/rpmbuild/RPMS/noarch/nfs-utils-"$1"-1.noarch.rpm
}
rpm_root() { rpm --root "$R" --nodeps "$@" >"$d/rpm.out" 2>&1 || { cat "$d/rpm.out"; return 1; }; }
front() { OUT=$(chroot "$R" /usr/sbin/nfs-tuned-front "$@" 2>&1); RC=$?; echo "# nfs-tuned-front $* -> $RC: $OUT"; }
# the helper in the root, its built-in list of real binaries: which one would it run?
picks() { # picks PATH: the exec: line of a dry run names PATH
	# its own /proc (to know itself by /proc/self/exe), in a mount namespace that goes with it
	OUT=$(unshare --mount --fork sh -c 'mount -t proc proc "$1/proc" && exec chroot "$1" env NFS_TUNED_MOUNTINFO=/tmp/mountinfo /usr/sbin/mount.nfs-tuned 10.0.0.1:/e /mnt/x -f -v -o vers=3' sh "$R" 2>&1)
	[ "$(sed -n 's/.*exec: \([^ ]*\) .*/\1/p' <<<"$OUT")" = "$1" ]
}
mode() { stat -c %a "$R$1" 2>/dev/null; }
: >"$R/tmp/mountinfo"

u1=$(nfs_utils_rpm 1) && u2=$(nfs_utils_rpm 2) && u3=$(nfs_utils_rpm 3) || fail "stand-in nfs-utils"
rpm --root "$R" --initdb && rpm_root -i "$u1" && rpm_root -i "$rpm_file" || fail "rpm -i --root"
[ "$(mode /usr/sbin/mount.nfs-tuned)" = 755 ] || fail "the helper is setuid before enable: two setuid-root binaries"
[ -f "$R/usr/lib/nfs-tuned.conf.d/50-azure-netapp-files.conf" ] || fail "vendor profiles not installed"
[ -f "$R/usr/lib/udev/rules.d/99-zz-nfs-tuned.rules" ] || fail "udev rule not installed"
picks /usr/sbin/mount.nfs || fail "before enable the helper must run mount.nfs: $OUT"

step "enable, update, failed trigger, disable, erase"
front enable
[ "$RC" = 0 ] && [ "$(readlink "$R/usr/sbin/mount.nfs")" = mount.nfs-tuned ] || fail "enable"
[ "$(mode /usr/sbin/mount.nfs.nfs-utils)" = 755 ] || fail "the binary aside is still setuid"
picks /usr/sbin/mount.nfs.nfs-utils || fail "enabled, the helper must run the binary aside: $OUT"
# an nfs-utils update: rpm writes mount.nfs over the link, the trigger puts the helper back
rpm_root -U "$u2" || fail "rpm -U nfs-utils 2"
[ "$(readlink "$R/usr/sbin/mount.nfs")" = mount.nfs-tuned ] || fail "the trigger did not put the helper back"
grep -q 'nfs-utils 2' "$R/usr/sbin/mount.nfs.nfs-utils" || fail "the binary aside is not the updated one"
# a trigger that fails (the helper cannot be run at that moment): no superseded binary stays
chmod 0644 "$R/usr/sbin/mount.nfs-tuned"
rpm_root -U "$u3" || fail "rpm -U nfs-utils 3"
cat "$d/rpm.out"
[ ! -e "$R/usr/sbin/mount.nfs.nfs-utils" ] || fail "a failed trigger left the superseded binary aside"
[ "$(mode /usr/sbin/mount.nfs)" = 4755 ] && grep -q 'nfs-utils 3' "$R/usr/sbin/mount.nfs" ||
	fail "a failed trigger: mount.nfs must be nfs-utils' new binary"
chmod 4755 "$R/usr/sbin/mount.nfs-tuned"
picks /usr/sbin/mount.nfs || fail "after a failed trigger the helper must run the new binary: $OUT"
front status
[ "$RC" = 1 ] && [[ $OUT == *"not the helper"* ]] || fail "status after a failed trigger"
front reapply
[ "$RC" = 0 ] && grep -q 'nfs-utils 3' "$R/usr/sbin/mount.nfs.nfs-utils" || fail "reapply by hand"
# no trigger at all (rpm --notriggers): the stale binary aside is not setuid and not run
rpm_root -U --oldpackage --notriggers "$u2" || fail "rpm -U --notriggers"
[ "$(mode /usr/sbin/mount.nfs.nfs-utils)" = 755 ] || fail "the stale binary aside is setuid"
picks /usr/sbin/mount.nfs || fail "with the trigger not run the helper must run the new binary: $OUT"
front enable
front disable
[ "$RC" = 0 ] && [ ! -L "$R/usr/sbin/mount.nfs" ] && [ "$(mode /usr/sbin/mount.nfs)" = 4755 ] || fail "disable"
front enable
rpm_root -e nfs-tuned || fail "rpm -e"
[ ! -L "$R/usr/sbin/mount.nfs" ] && [ "$(mode /usr/sbin/mount.nfs)" = 4755 ] && [ ! -e "$R/usr/sbin/mount.nfs.nfs-utils" ] ||
	fail "erasing the package must put nfs-utils' mount.nfs back, setuid"
[ ! -e "$R/usr/sbin/mount.nfs-tuned" ] || fail "erase left the helper"

step "mount.nfs not setuid before the install: neither is the helper"
chmod u-s "$R/usr/sbin/mount.nfs"
rpm_root -i "$rpm_file" || fail "rpm -i with mount.nfs not setuid"
[ "$(mode /usr/sbin/mount.nfs-tuned)" = 755 ] || fail "the helper is $(mode /usr/sbin/mount.nfs-tuned) while mount.nfs is 755"
front enable
[ "$(mode /usr/sbin/mount.nfs-tuned)" = 755 ] && [ "$(mode /usr/sbin/mount.nfs.nfs-utils)" = 755 ] ||
	fail "enabled: the helper $(mode /usr/sbin/mount.nfs-tuned), the binary aside $(mode /usr/sbin/mount.nfs.nfs-utils)"
rpm_root -U --replacepkgs "$rpm_file" || fail "rpm -U of nfs-tuned itself"
[ "$(mode /usr/sbin/mount.nfs-tuned)" = 755 ] || fail "an upgrade made the helper $(mode /usr/sbin/mount.nfs-tuned)"
rpm -V --nodeps --root "$R" nfs-tuned >"$d/verify" 2>&1 || { cat "$d/verify"; fail "rpm -V nfs-tuned"; }
rpm_root -e nfs-tuned || fail "rpm -e"
[ "$(mode /usr/sbin/mount.nfs)" = 755 ] || fail "erase must put mount.nfs back as it was (755), not $(mode /usr/sbin/mount.nfs)"

step "nfs-utils-coreos (tests/fixtures/rpm) as the provider of mount.nfs, with dependency checks"
coreos_rpm() { # VERSION: the stand-in built
	rpmbuild -bb --define "ver $1" "$src/tests/fixtures/rpm/nfs-utils-coreos.spec" >/dev/null 2>&1 &&
		ls "$HOME/rpmbuild/RPMS/noarch/nfs-utils-coreos-$1-1.noarch.rpm"
}
# what the package requires but mount.nfs, provided by one stand-in (the libraries are copied
# into the root, not installed as packages), so that rpm checks that one dependency for real
base_rpm() {
	{
		printf '%s\n' 'Name: nfs-tuned-test-base' 'Version: 1' 'Release: 1' 'Summary: stand-in' \
			'License: MIT' 'BuildArch: noarch'
		rpm -qp --requires "$rpm_file" 2>/dev/null | awk '$1 != "mount.nfs" && $1 !~ /^rpmlib\(/ {
			print "Provides: " $1 }'
		printf '%s\n' '%description' 'stand-in' '%files'
	} >"$d/base.spec"
	rpmbuild -bb "$d/base.spec" >/dev/null 2>&1 && ls "$HOME/rpmbuild/RPMS/noarch/nfs-tuned-test-base-1-1.noarch.rpm"
}
rpm_dep() { rpm --root "$R" "$@" >"$d/rpm.out" 2>&1 || { cat "$d/rpm.out"; return 1; }; }
aside=/usr/sbin/mount.nfs.nfs-utils
in_front_with() { # VERSION: the helper in front, the binary aside nfs-utils VERSION's
	[ "$(readlink "$R/usr/sbin/mount.nfs")" = mount.nfs-tuned ] && grep -q "nfs-utils $1 " "$R$aside"
}
c4=$(coreos_rpm 4) && c5=$(coreos_rpm 5) && u5=$(nfs_utils_rpm 5) && base=$(base_rpm) ||
	fail "the stand-ins of nfs-utils-coreos, nfs-utils and the base"
rpm_root -e nfs-utils && rpm_dep -i "$base" || fail "no nfs-utils, the base stand-in"
rpm --root "$R" -i "$rpm_file" >"$d/rpm.out" 2>&1 && fail "installed with no package providing mount.nfs"
grep -q 'mount.nfs is needed by nfs-tuned' "$d/rpm.out" || fail "rpm -i without mount.nfs said: $(cat "$d/rpm.out")"
rpm_dep -i "$c4" && rpm_dep -i "$rpm_file" || fail "rpm -i with nfs-utils-coreos providing mount.nfs"
front enable
rpm_dep -U "$c5" || fail "rpm -U nfs-utils-coreos 5"
in_front_with 5 || fail "the trigger on nfs-utils-coreos did not put the helper back in front of its new binary"
picks $aside || fail "in front of nfs-utils-coreos, the helper must run the binary aside: $OUT"
# the spec's way to check the real binary: rpm's digest of the provider's mount.nfs
rpm --root "$R" -V nfs-utils-coreos >"$d/verify" 2>&1 && fail "rpm -V nfs-utils-coreos found mount.nfs unchanged"
echo "# rpm -V nfs-utils-coreos: $(tr '\n' ' ' <"$d/verify")"
digest=$(rpm --root "$R" -q --qf '[%{FILEDIGESTS} %{FILENAMES}\n]' --whatprovides mount.nfs | grep ' /usr/sbin/mount.nfs$')
[ "${digest%% *}" = "$(sha256sum <"$R$aside" | cut -d' ' -f1)" ] ||
	fail "the binary aside is not the file rpm installed: $digest"
[ "$(rpm --root "$R" -qf --qf '%{NAME}' $aside 2>/dev/null)" = nfs-tuned ] ||
	fail "$aside is not nfs-tuned's: $(rpm --root "$R" -qf $aside 2>&1)"
rpm -V --nodeps --root "$R" nfs-tuned >"$d/verify" 2>&1 || { cat "$d/verify"; fail "rpm -V nfs-tuned, enabled"; }
# nfs-utils beside it (the same mount.nfs), then erased: nfs-utils-coreos still ships mount.nfs
rpm_dep -i "$u5" || fail "rpm -i nfs-utils 5 beside nfs-utils-coreos 5"
in_front_with 5 || fail "the trigger on nfs-utils beside nfs-utils-coreos"
rpm_dep -e nfs-utils || fail "rpm -e nfs-utils"
in_front_with 5 || fail "nfs-utils erased, nfs-utils-coreos left: the helper must stay in front of its binary"
# the last provider: refused while nfs-tuned requires mount.nfs; with --nodeps rpm takes
# mount.nfs, the link, and the trigger the binary aside
rpm --root "$R" -e nfs-utils-coreos >/dev/null 2>&1 && fail "rpm -e of the last provider of mount.nfs went through"
rpm_root -e nfs-utils-coreos || fail "rpm -e --nodeps nfs-utils-coreos"
[ ! -e "$R/usr/sbin/mount.nfs" ] && [ ! -L "$R/usr/sbin/mount.nfs" ] && [ ! -e "$R$aside" ] ||
	fail "no provider left: $(ls -l "$R/usr/sbin" | grep mount.nfs)"
rpm_dep -i "$c4" || fail "rpm -i nfs-utils-coreos 4 again"
in_front_with 4 || fail "enabled before: the trigger must put the helper in front of the new provider"
rpm_dep -e nfs-tuned nfs-utils-coreos || fail "rpm -e nfs-tuned nfs-utils-coreos"
[ ! -e "$R/usr/sbin/mount.nfs" ] && [ ! -L "$R/usr/sbin/mount.nfs" ] && [ ! -e "$R$aside" ] &&
	[ ! -e "$R/var/lib/nfs-tuned/front" ] || fail "both erased: $(ls -l "$R/usr/sbin" "$R/var/lib/nfs-tuned" 2>&1)"

[ "$fails" = 0 ] && echo "all passed"
[ "$fails" = 0 ]
