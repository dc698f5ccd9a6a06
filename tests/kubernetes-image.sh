#!/bin/bash
# contrib/kubernetes/Containerfile built as its README says, with buildah (or podman), from a
# local base made by mmdebstrap (no registry is reached): Debian 12 minbase with nfs-common
# and mount, the shape of csi-driver-nfs's Debian-based nfsplugin image. Then, in the image:
# dpkg's two diversions of mount.nfs are the package's, mount -t nfs and -t nfs4 (libmount
# passes -f on to the helper: a dry run) go through the helper to the diverted mount.nfs, and
# nfs-tuned-node install, with daemonset.yaml's mounts and no capability, puts its udev rule
# and self-contained helper on a "node" that has no C library at all (a static busybox), where
# the rule's program runs; the next install keeps that bundle, one from a changed image
# replaces it, uninstall leaves the node as it was.
#
#   kubernetes-image.sh SRCDIR BUILDDIR
# The base is cached in BUILDDIR/kubernetes (rebuilt when this script changes); the image is
# removed after the test. Exit 0, 1 a failure, 77 cannot run here (the reason on stdout).
set -uo pipefail
src=$1
work=$2/kubernetes
skip() { echo "skip: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

[ "$(id -u)" = 0 ] || skip "needs root (mmdebstrap, buildah's chroot isolation)"
# buildah bud, as contrib/kubernetes/README.md says; podman build takes the same arguments
if command -v buildah >/dev/null; then B=buildah BUILD=bud
elif command -v podman >/dev/null; then B=podman BUILD=build
else skip "neither buildah nor podman is installed (apt-get install buildah)"; fi
for t in mmdebstrap busybox dpkg-buildpackage; do
	command -v $t >/dev/null || skip "$t is not installed (tests/deps.txt, lab/deps.txt)"
done
file "$(command -v busybox)" 2>/dev/null | grep -q 'statically linked' ||
	skip "busybox is not the static one (apt-get install busybox-static)"
mirror=$("$src/lab/build" --print-mirror 2>/dev/null)
[ -n "$mirror" ] || skip "no Debian mirror in this machine's apt sources"

mkdir -p "$work"
S=(--root "$work/storage" --runroot "$work/runroot" --storage-driver vfs)
bah() { $B "${S[@]}" "$@"; }
t0=$(date +%s)

# --- the base, cached: the same suite and packages as last time --------------------------
stamp=$(sha256sum <"$0" | cut -d' ' -f1)
if [ "$(cat "$work/base.stamp" 2>/dev/null)" != "$stamp" ] ||
		! bah inspect --type image localhost/nfs-tuned-test-base:bookworm >/dev/null 2>&1; then
	rm -rf "$work/base" "$work/base.stamp"
	mkdir -p "$work/base" # mmdebstrap makes the target, not its parent
	# as lab/build makes its roots (merged /usr by debootstrap's way); mmdebstrap leaves no
	# apt cache or lists, and an empty machine-id, as an image's base should have
	mmdebstrap --mode=root --variant=minbase --include=nfs-common,mount \
		--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr bookworm "$work/base/root" \
		"$mirror" >"$work/mmdebstrap.log" 2>&1 || {
		tail -n 5 "$work/mmdebstrap.log"
		# the mirror out of reach skips; anything else is this script's or the tools' fault
		! grep -qE 'Failed to fetch|Could not resolve|Temporary failure resolving|Unable to connect' \
			"$work/mmdebstrap.log" || skip "mmdebstrap cannot fetch from $mirror (log: $work/mmdebstrap.log)"
		fail "mmdebstrap of the base failed (log: $work/mmdebstrap.log)"
	}
	tar -C "$work/base/root" -c . >"$work/base/root.tar"
	rm -rf "$work/base/root"
	printf 'FROM scratch\nADD root.tar /\n' >"$work/base/Containerfile"
	bah $BUILD --isolation chroot -q -t localhost/nfs-tuned-test-base:bookworm "$work/base" >/dev/null ||
		fail "the base image could not be made from the mmdebstrap tree"
	rm -f "$work/base/root.tar"
	echo "$stamp" >"$work/base.stamp"
fi
t1=$(date +%s)

# --- the package, and the build as contrib/kubernetes/README.md says -----------------------
"$src/lab/debs" --tuned-only "$work/debs" >"$work/debs.log" 2>&1 || { cat "$work/debs.log"; fail "the package could not be built"; }
rm -rf "$work/ctx" && cp -r "$src/contrib/kubernetes" "$work/ctx" && cp "$work"/debs/nfs-tuned_*.deb "$work/ctx/" || exit 1
img=localhost/nfsplugin-tuned:test
bah $BUILD --isolation chroot -t $img --build-arg BASE=localhost/nfs-tuned-test-base:bookworm \
	"$work/ctx" >"$work/build.log" 2>&1 || { tail -n 20 "$work/build.log"; fail "the Containerfile did not build (log: $work/build.log)"; }
t2=$(date +%s)
ctr=$(bah from -q $img) || fail "no container from $img"
node=$work/node
cleanup() { bah rm "$ctr" >/dev/null 2>&1; bah rmi -f $img >/dev/null 2>&1; rm -rf "$work/ctx" "$node"; }
trap cleanup EXIT
run() { OUT=$(bah run --isolation chroot "$@" 2>&1); RC=$?; }

# the diversions are the package's own
run "$ctr" dpkg-divert --list
echo "$OUT" | grep -q '^diversion of /sbin/mount.nfs to /sbin/mount.nfs.distrib by nfs-tuned$' &&
	echo "$OUT" | grep -q '^diversion of /usr/sbin/mount.nfs to /usr/sbin/mount.nfs.usr-is-merged by nfs-tuned$' ||
	fail "the image's diversions are not the package's: $OUT"
# mount(8) of the image runs the helper, which runs the diverted mount.nfs
for type in nfs nfs4; do
	run "$ctr" mount -f -v -t $type 192.0.2.1:/export /mnt -o nconnect=4
	[ "$RC" = 0 ] && echo "$OUT" | grep -q "^mount\.nfs-tuned: exec: /sbin/mount\.nfs\.distrib .*(as mount\.$type)" ||
		fail "mount -t $type in the image did not go through the helper (status $RC): $OUT"
done
echo "ok: the image's mount -t nfs and -t nfs4 run the helper, which runs /sbin/mount.nfs.distrib"

# nfs-tuned-node install on a node with no C library, with the install container's mounts
# and privileges of daemonset.yaml (a hostPath of each directory it writes, the vendor rules
# directory read-only, no capability): its rule runs the helper it brings
rm -rf "$node" && mkdir -p "$node/bin" "$node/etc/udev/rules.d" "$node/etc/nfs-tuned.conf.d" "$node/usr/lib/udev/rules.d" \
	"$node/opt/nfs-tuned" "$node/tmp" || exit 1
cp "$(command -v busybox)" "$node/bin/busybox" && ln -s busybox "$node/bin/sh"
printf '[global]\nread_ahead_kb = 15x\n' >"$work/node.conf"
before=$(cd "$node" && find . -printf '%p %M %s\n' | sort)
pod() {
	run --cap-drop ALL -v "$node/etc/nfs-tuned.conf.d:/host/etc/nfs-tuned.conf.d" -v "$node/etc/udev/rules.d:/host/etc/udev/rules.d" \
		-v "$node/opt/nfs-tuned:/host/opt/nfs-tuned" -v "$node/usr/lib/udev/rules.d:/host/usr/lib/udev/rules.d:ro" \
		-v "$work/node.conf:/etc/nfs-tuned-node/nfs-tuned.conf:ro" -e UDEV_RULE=auto "$ctr" "$@"
}
pod nfs-tuned-node install
[ "$RC" = 0 ] || fail "nfs-tuned-node install: status $RC: $OUT"
rule=$node/etc/udev/rules.d/99-zz-nfs-tuned.rules
grep -q '^SUBSYSTEM=="bdi", ACTION=="add", KERNEL=="0:\*", PROGRAM="/opt/nfs-tuned/current/udev-bdi --udev-bdi %k", ATTR{read_ahead_kb}="%c"$' "$rule" ||
	fail "the node's rule is not the package's with the bundle's program: $(grep -v '^#' "$rule" 2>&1)"
cmp -s "$work/node.conf" "$node/etc/nfs-tuned.conf.d/50-kubernetes.conf" ||
	fail "the node's configuration is not the ConfigMap's"
[ -z "$(find "$node" -newer "$work/node.conf" -perm /022 ! -type l)" ] ||
	fail "files on the node writable by others: $(find "$node" -newer "$work/node.conf" -perm /022 ! -type l)"
# udev runs the program on the node: not an NFS bdi there, so nothing to print, exit 1
OUT=$(chroot "$node" /opt/nfs-tuned/current/udev-bdi --udev-bdi 0:4095 2>&1); RC=$?
[ "$RC" = 1 ] && [ -z "$OUT" ] || fail "the rule's program on the node: status $RC, '$OUT' (expected 1 and nothing)"
OUT=$(chroot "$node" /opt/nfs-tuned/current/udev-bdi --check-config -v 2>&1); RC=$?
[ "$RC" = 0 ] && echo "$OUT" | grep -q '/etc/nfs-tuned.conf.d/50-kubernetes.conf' ||
	fail "the helper on the node does not read the node's configuration (status $RC): $OUT"
echo "ok: nfs-tuned-node install: the rule and a helper that runs on a node without a C library"

# the next pod start of the same image keeps the bundle; a new image (another vendor
# profile) replaces it: current switched, the old version gone
b1=$(readlink "$node/opt/nfs-tuned/current")
pod nfs-tuned-node install
[ "$RC" = 0 ] && echo "$OUT" | grep -q "bundle: /opt/nfs-tuned/$b1 is this image's .*, kept" ||
	fail "the same image's install did not keep $b1: status $RC: $OUT"
run "$ctr" sh -c 'printf "[global]\n" >/usr/lib/nfs-tuned.conf.d/70-update.conf'
pod nfs-tuned-node install
b2=$(readlink "$node/opt/nfs-tuned/current")
[ "$RC" = 0 ] && [ -n "$b2" ] && [ "$b2" != "$b1" ] && [ ! -e "$node/opt/nfs-tuned/$b1" ] &&
	[ -e "$node/opt/nfs-tuned/$b2/conf.d/70-update.conf" ] &&
	[ "$(ls -A "$node/opt/nfs-tuned")" = "$(printf '%s\ncurrent' "$b2")" ] ||
	fail "a new image did not replace the bundle $b1 (now '$b2': $(ls -A "$node/opt/nfs-tuned")): status $RC: $OUT"
(cd "$node/opt/nfs-tuned/current" && sha256sum --quiet -c SHA256SUMS) || fail "the new bundle is not what its SHA256SUMS says"
OUT=$(chroot "$node" /opt/nfs-tuned/current/udev-bdi --udev-bdi 0:4095 2>&1); RC=$?
[ "$RC" = 1 ] && [ -z "$OUT" ] || fail "the new bundle's program on the node: status $RC, '$OUT' (expected 1 and nothing)"
echo "ok: the bundle follows the image: kept for the same, $b1 replaced by $b2 for a new one"

# uninstall: the node as before install (the directories kubelet made for the hostPaths stay)
pod nfs-tuned-node uninstall
[ "$RC" = 0 ] && [ "$(cd "$node" && find . -printf '%p %M %s\n' | sort)" = "$before" ] ||
	fail "uninstall did not leave the node as before (status $RC: $OUT): $(diff <(echo "$before") <(cd "$node" && find . -printf '%p %M %s\n' | sort))"
echo "ok: nfs-tuned-node uninstall: the rule, the bundle and the configuration gone"

# a node with the package keeps its own rule, and an earlier install's rule and bundle go
pod nfs-tuned-node install
printf '# the package'"'"'s\n' >"$node/usr/lib/udev/rules.d/99-zz-nfs-tuned.rules"
pod nfs-tuned-node install
[ "$RC" = 0 ] && echo "$OUT" | grep -q 'the node has the package' && [ ! -e "$rule" ] &&
	[ -z "$(ls -A "$node/opt/nfs-tuned")" ] ||
	fail "with the package on the node, install: status $RC: $OUT; $(ls "$node/etc/udev/rules.d" "$node/opt/nfs-tuned")"
echo "ok: a node with the package: its own rule, no bundle"
t3=$(date +%s)
echo "times: base $((t1 - t0)) s (cached when 0), package and image $((t2 - t1)) s, checks $((t3 - t2)) s"
echo "5 passed, 0 failed"
