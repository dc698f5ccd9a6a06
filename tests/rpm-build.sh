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
#    nfs-utils' mount.nfs is (also with it made non-setuid before the install).
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
rpm -qlp "$rpm_file" 2>/dev/null | sort >"$d/rpm-files"
# what the spec adds itself: its own script, state directory, README.md
# (and rpm's /usr/lib/.build-id links of the binaries)
grep -vE '^/usr/sbin/nfs-tuned-front$|^/var/lib/nfs-tuned$|^/usr/share/doc/nfs-tuned(-0\.1\.0)?(/README\.md)?$|^/usr/lib/nfs-tuned\.conf\.d$|^/usr/lib/\.build-id(/|$)' \
	"$d/rpm-files" >"$d/rpm-meson-part"
missing=$(comm -23 "$d/meson-files" "$d/rpm-meson-part")
extra=$(comm -13 "$d/meson-files" "$d/rpm-meson-part")
[ -z "$missing" ] || fail "meson installs, the package lacks: $missing"
[ -z "$extra" ] || fail "the package has, meson does not install: $extra"
echo "$(wc -l <"$d/meson-files") files from meson install, all in the package"
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
ls "$R"/*/udev/rules.d/99-zz-nfs-tuned.rules "$R"/usr/lib/udev/rules.d/99-zz-nfs-tuned.rules 2>/dev/null | grep -q . ||
	fail "udev rule not installed"
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

[ "$fails" = 0 ] && echo "all passed"
[ "$fails" = 0 ]
