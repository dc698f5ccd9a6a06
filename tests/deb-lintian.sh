#!/bin/bash
# The Debian package built where Debian builds it, and linted as a sponsor lints it:
#  - for each release (default: bookworm trixie, Debian 12 and 13), a build root made with
#    debootstrap from this machine's apt mirror, the release reached by name as lab/build
#    reaches it, with lintian and the package's build dependencies (apt-get build-dep);
#  - the files of the tree (tracked and new, as tests/deb-package.sh takes them) but debian/
#    packed as the upstream tarball, nfs-tuned_UPSTREAM.orig.tar.xz (what `meson dist` makes:
#    .gitattributes keeps debian/ out), and `dpkg-buildpackage -us -uc` of it with debian/ in
#    the root as an ordinary user: source package, .deb, .buildinfo, .changes (nocheck: the
#    suites are run by the suite itself, not twice more here);
#  - lintian -I -E --pedantic of each release on its own build, and of the last release on
#    the others' too: no error and no warning. The overrides are debian/*lintian-overrides
#    and debian/source/lintian-overrides, each with its reason; one tag is left out here, for
#    an older lintian only (lintian_skip below).
#   tests/deb-lintian.sh SOURCE-DIR [RELEASE...]
# The build roots are kept for the next run, in $NFS_TUNED_BUILDROOTS/RELEASE (default
# SOURCE-DIR/build/buildroot/RELEASE), and made again when missing. The mirror:
# $NFS_TUNED_MIRROR, else the one the host's apt sources name for the release, else the
# host release's own (apt-get indextargets).
# Exit 77 (skip) not as root, without debootstrap, with no mirror, or when debootstrap cannot
# fetch the release.
# Time on this 2-core machine beside a CI run: 14.5 min with the two roots to make (each root
# 4 min, each build 1.5-2.5 min, each lintian 40-80 s), 5.3 min with the roots kept.
set -u
src=$(cd "$1" && pwd)
shift
[ $# -gt 0 ] || set -- bookworm trixie
releases=("$@")
skip() { echo "skip: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "debootstrap and chroot: root only"
for t in debootstrap chroot apt-get dpkg-parsechangelog tar xz; do
	command -v "$t" >/dev/null || skip "no $t (apt-get install debootstrap dpkg-dev xz-utils)"
done

roots=${NFS_TUNED_BUILDROOTS:-$src/build/buildroot}
version=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version) || exit 1
upstream=${version%-*}
pkg=nfs-tuned
builder=4242
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
step() { echo "== $*"; }
now() { date +%s; }

mkdir -p "$roots"
exec 9>"$roots/.lock"
flock 9

# --- the build roots ---------------------------------------------------------------------------
host_release=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
mirror_of() { # RELEASE: the URI of the host's apt source of RELEASE's main packages
	[ -n "$1" ] || return 0
	apt-get indextargets --format '$(REPO_URI)' 'Identifier: Packages' "Release: $1" 2>/dev/null |
		sed -n 1p
}
mounted=()
unmount_all() {
	local m
	for m in "${mounted[@]}"; do umount -l "$m" 2>/dev/null; done
}
trap unmount_all EXIT
# ROOT: /proc in it (apt, lintian and the build read it), undone when the script ends
with_proc() {
	mountpoint -q "$1/proc" && return 0
	mount -t proc proc "$1/proc" && mounted+=("$1/proc")
}
# ROOT COMMAND...: as root, in ROOT, with a plain environment
in_root() {
	local root=$1
	shift
	chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
		DEBIAN_FRONTEND=noninteractive "$@"
}
# ROOT COMMAND...: as the builder, uid 4242 (Debian's buildds build as an ordinary user)
as_builder() {
	local root=$1
	shift
	chroot --userspec=$builder:$builder "$root" env -i PATH=/usr/bin:/bin HOME=/home/builder \
		LC_ALL=C.UTF-8 "$@"
}
make_root() { # RELEASE ROOT
	local mirror t0
	mirror=${NFS_TUNED_MIRROR:-$(mirror_of "$1")}
	[ -n "$mirror" ] || mirror=$(mirror_of "$host_release")
	[ -n "$mirror" ] ||
		skip "no Debian mirror in the host's apt sources ('$1' or '$host_release'; or set NFS_TUNED_MIRROR)"
	step "$1: debootstrap a build root in $2"
	t0=$(now)
	rm -rf "$2" "$2.log"
	# build-essential's closure; lintian comes with apt, which resolves the virtual packages
	# debootstrap does not (perl-openssl-abi-3 for lintian's libnet-ssleay-perl)
	if ! debootstrap --variant=buildd --components=main "$1" "$2" "$mirror" >"$2.log" 2>&1; then
		tail -n 20 "$2.log"
		rm -rf "$2"
		! grep -q 'Failed getting release file\|Couldn.t download' "$2.log" ||
			skip "debootstrap cannot fetch $1 from the mirror (log: $2.log)"
		fail "debootstrap of $1 (log: $2.log)"
		return 1
	fi
	with_proc "$2" || { fail "mount /proc in $2"; return 1; }
	{ in_root "$2" apt-get -q update &&
		in_root "$2" apt-get -q install -y --no-install-recommends lintian man-db &&
		in_root "$2" useradd -m -u $builder -U builder; } >>"$2.log" 2>&1 ||
		{ tail -n 20 "$2.log"; fail "lintian or the builder in the $1 root (log: $2.log)"; return 1; }
	echo "$1" >"$2/.nfs-tuned-buildroot"
	echo "$1: build root made in $(($(now) - t0)) s"
}

# --- the build ---------------------------------------------------------------------------------
tree_files() { # the files of the tree, NUL-separated (tracked and new; never build products)
	if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
		(cd "$src" && git ls-files -co --exclude-standard -z |
			while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done)
	else
		(cd "$src" && find . -path './build*' -prune -o ! -type d -printf '%P\0')
	fi
}
build_in() { # RELEASE: the source and binary packages in its root's /build
	local root=$roots/$1 dir=/build/$pkg-$upstream t0
	[ -f "$root/.nfs-tuned-buildroot" ] || make_root "$1" "$root" || return 1
	with_proc "$root" || { fail "mount /proc in $root"; return 1; }
	t0=$(now)
	step "$1: dpkg-buildpackage -us -uc as uid $builder in $root$dir"
	rm -rf "$root/build" && mkdir -p "$root$dir"
	# the upstream tarball: what `meson dist` packs (the files git has, but debian/), under
	# one folder; then debian/ beside it, as dpkg-source unpacks the source package
	tree_files | grep -zv '^debian/' | (cd "$src" && tar -c --null -T - --sort=name \
		--owner=0 --group=0 --transform "s|^|$pkg-$upstream/|") |
		xz -T0 >"$root/build/${pkg}_$upstream.orig.tar.xz" || { fail "the upstream tarball"; return 1; }
	tar -xJf "$root/build/${pkg}_$upstream.orig.tar.xz" -C "$root/build"
	tree_files | grep -z '^debian/' | (cd "$src" && tar -c --null -T -) | tar -x -C "$root$dir"
	chown -R $builder:$builder "$root/build"
	{ in_root "$root" apt-get -q update &&
		in_root "$root" apt-get -q build-dep -y "$dir/"; } >"$root/build/deps.log" 2>&1 ||
		{ tail -n 20 "$root/build/deps.log"; fail "$1: apt-get build-dep"; return 1; }
	as_builder "$root" sh -c "cd $dir && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc" \
		>"$root/build/build.log" 2>&1 ||
		{ tail -n 30 "$root/build/build.log"; fail "$1: dpkg-buildpackage"; return 1; }
	echo "$1: built in $(($(now) - t0)) s: $(cd "$root/build" && ls ./*.changes ./*.deb ./*.dsc | tr '\n' ' ')"
}

# --- lintian -----------------------------------------------------------------------------------
# RELEASE: the tags its lintian reports wrongly, left out with --suppress-tags. Debian 12's
# lintian knows Standards-Version up to 4.6.2, and calls the 4.7.2 the package follows (debian/
# README.source) newer-standards-version; Debian 13's checks it. An override would be unused
# there.
lintian_skip() {
	case $1 in
	bookworm) echo newer-standards-version ;;
	esac
}
lint() { # LINTIAN-RELEASE BUILD-RELEASE
	local root=$roots/$1 dir=/build changes out t0 rc skip
	if [ "$1" != "$2" ]; then
		dir=/lint/$2
		rm -rf "$root$dir" && mkdir -p "$root$dir"
		find "$roots/$2/build" -maxdepth 1 -type f -name "${pkg}*_*" -exec cp -t "$root$dir" {} + &&
			chown -R $builder:$builder "$root/lint" || { fail "copy the $2 build into $root$dir"; return 1; }
	fi
	skip=$(lintian_skip "$1")
	changes=$(cd "$root$dir" && ls ${pkg}_*.changes | head -n1)
	t0=$(now)
	step "lintian of $1 on the $2 build (binary, source, .buildinfo, .changes)"
	out=$root/build/lintian-$1-on-$2.txt
	[ "$1" != "$2" ] || out=$root/build/lintian.txt
	as_builder "$root" lintian -I -E --pedantic --show-overrides --tag-display-limit 0 \
		--fail-on error,warning ${skip:+--suppress-tags "$skip"} "$dir/$changes" >"$out" 2>&1
	rc=$?
	grep -E '^[EW]: ' "$out"
	echo "$(grep -cE '^[EW]: ' "$out") errors and warnings, $(grep -cE '^[IPX]: ' "$out") other" \
		"tags, $(grep -cE '^O: ' "$out") overridden; lintian $(as_builder "$root" lintian --version |
		awk '{ print $2 }'), $(($(now) - t0)) s"
	# exit 2 is --fail-on's, which Debian 12's lintian also gives for an overridden warning
	# shown by --show-overrides: the E: and W: lines decide; exit 1 is lintian's own failure
	! grep -qE '^[EW]: ' "$out" && { [ "$rc" = 0 ] || [ "$rc" = 2 ]; } ||
		fail "lintian of $1 on the $2 build (exit $rc; all tags: $out)"
}

built=()
for rel in "${releases[@]}"; do
	build_in "$rel" && built+=("$rel")
done
last=${releases[${#releases[@]} - 1]}
for rel in "${built[@]}"; do
	lint "$rel" "$rel"
	[ "$rel" = "$last" ] || [ ! -f "$roots/$last/.nfs-tuned-buildroot" ] || lint "$last" "$rel"
done

[ "$fails" = 0 ] && echo "all passed"
[ "$fails" = 0 ]
