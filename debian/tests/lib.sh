# Shared by the package's tests (sourced). An NFS server of this machine's kernel in a network
# namespace and a private mount namespace of its own: its exports, state and daemons live
# there (a tmpfs each), the client reaches it over a veth pair, and server_stop leaves
# nothing behind. The checks of what the package put in place.
set -eu
exec 2>&1

NS=nfs-tuned-test
SRV=10.231.77.1
CLI=10.231.77.2
# the export: a tmpfs inside the server's private /var/lib/nfs, seen by nothing else
EXPORT=/var/lib/nfs/nfs-tuned-test
TMPD=${AUTOPKGTEST_TMP:-$(mktemp -d)}
MNT=$TMPD/mnt
DROPIN=/etc/nfs-tuned.conf.d/90-autopkgtest.conf
# nfs-common's mount.nfs, diverted aside by the package (Debian 13's layout, then Debian 12's)
REAL_NAMES="/usr/sbin/mount.nfs.usr-is-merged /sbin/mount.nfs.distrib"

fail() { echo "FAIL: $*"; exit 1; }
ok() { echo "ok: $*"; }

# the package is in front: mount.nfs is the helper, nfs-common's binary at a diverted name
in_front() {
	dpkg-divert --list | grep -q 'mount\.nfs .* by nfs-tuned$' ||
		fail "no diversion of mount.nfs by nfs-tuned: $(dpkg-divert --list | tr '\n' ';')"
	[ "$(readlink -f /sbin/mount.nfs)" = /usr/sbin/mount.nfs-tuned ] ||
		fail "/sbin/mount.nfs is $(readlink -f /sbin/mount.nfs), not the helper"
	real=
	for f in $REAL_NAMES; do [ -f "$f" ] && real=$f && break; done
	[ -n "$real" ] || fail "nfs-common's mount.nfs is at none of $REAL_NAMES"
	ok "the helper is in front of $real"
}

server_start() {
	for m in nfsd nfsv4 veth; do modprobe "$m" 2>/dev/null || true; done
	ip netns add $NS
	ip link add nt-cli type veth peer name nt-srv netns $NS
	ip addr add $CLI/24 dev nt-cli
	ip link set nt-cli up
	ip -n $NS link set lo up
	ip -n $NS addr add $SRV/24 dev nt-srv
	ip -n $NS link set nt-srv up
	# the machine's /etc/exports and /etc/exports.d are covered in this namespace only
	ip netns exec $NS unshare -m --propagation private sh -ec '
		mount -t tmpfs -o mode=755 tmpfs /run
		mkdir -p /run/rpcbind
		mount -t tmpfs -o mode=755 tmpfs /var/lib/nfs
		cd /var/lib/nfs
		mkdir -p sm sm.bak v4recovery rpc_pipefs nfsdcld empty "$1"
		touch etab rmtab
		mount -t tmpfs -o size=16m tmpfs "$1"
		head -c 1048576 /dev/zero >"$1/data"
		echo "$1 $2(rw,no_root_squash,no_subtree_check,fsid=7731)" >exports
		[ -e /etc/exports ] || { echo "no /etc/exports (nfs-kernel-server)"; exit 1; }
		mount --bind exports /etc/exports
		[ ! -d /etc/exports.d ] || mount --bind empty /etc/exports.d
		mount -t nfsd nfsd /proc/fs/nfsd
		mount -t rpc_pipefs rpc_pipefs rpc_pipefs
		nfsdcld -p /var/lib/nfs/rpc_pipefs -s /var/lib/nfs/nfsdcld || true
		rpcbind -w
		exportfs -ra
		rpc.mountd
		rpc.nfsd --lease-time 10 --grace-time 10 4
		# no grace period to wait out: the server has no clients to remember
		echo Y >/proc/fs/nfsd/v4_end_grace 2>/dev/null || true
		exportfs -v
	' server "$EXPORT" "$CLI"
	mkdir -p "$MNT"
}

server_stop() {
	! mountpoint -q "$MNT" || umount "$MNT" || umount -l "$MNT" || true
	if ip netns list | grep -q "^$NS\b"; then
		ip netns exec $NS rpc.nfsd 0 || true
		# the server's daemons: every process in its network namespace
		ip netns pids $NS | xargs -r kill || true
		ip netns del $NS || true
	fi
	rm -f "$DROPIN"
}

mount_v() { # SOURCE DIR OPTIONS: mount -v; its output in OUT
	OUT=$(mount -v -t nfs -o "$3" "$1" "$2" 2>&1) || fail "mount $1 $2 -o $3: $OUT"
	echo "$OUT" | sed 's/^/  | /'
}

opt_of() { # DIR NAME: the value of NAME= in the kernel's options of the mount on DIR
	findmnt -n -o OPTIONS --mountpoint "$1" | tr ',' '\n' | sed -n "s/^$2=//p"
}
