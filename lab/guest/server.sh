#!/bin/bash
# The lab's NFS server: run in netns "srv" in a private mount namespace
# (ip netns exec srv unshare -m --propagation private bash server.sh).
# The daemons it starts keep the namespaces alive; a holder process's pid goes to
# /tmp/lab/srv.pid so that the lab can nsenter later.
set -ex
mount -t tmpfs -o mode=755 tmpfs /run
mkdir -p /run/rpcbind
mount -t tmpfs tmpfs /var/lib/nfs
mkdir -p /var/lib/nfs/sm /var/lib/nfs/sm.bak /var/lib/nfs/v4recovery /var/lib/nfs/rpc_pipefs /var/lib/nfs/nfsdcld
touch /var/lib/nfs/etab /var/lib/nfs/rmtab
for e in a b c d e f g h; do
	mkdir -p /export/$e
	mount -t tmpfs -o size=48m tmpfs /export/$e
	echo "export $e" >/export/$e/README
	head -c 8388608 /dev/zero >/export/$e/data
done
mount -t nfsd nfsd /proc/fs/nfsd
mount -t rpc_pipefs rpc_pipefs /var/lib/nfs/rpc_pipefs
# client tracking for NFSv4 in a non-init netns needs nfsdcld
nfsdcld -p /var/lib/nfs/rpc_pipefs -s /var/lib/nfs/nfsdcld || true
rpcbind -w
exportfs -ra
rpc.mountd --port 20048
# NFSv4.0 asked for by name: Debian 14's server (nfs-utils 3.1, Linux 7.2) offers it no more
# by default (/proc/fs/nfsd/versions "+3 +4 -4.0 +4.1 +4.2"); the identity and tls scenarios
# mount it
rpc.nfsd -V 4.0 --lease-time 10 --grace-time 10 8
# a second listener: another port means another NFS client on the client side
echo "tcp 2050" >/proc/fs/nfsd/portlist || echo "lab: no second nfsd port"
cat /proc/fs/nfsd/portlist
cat /proc/fs/nfsd/versions
[ -w /proc/fs/nfsd/v4_end_grace ] && echo Y >/proc/fs/nfsd/v4_end_grace || true
sleep infinity </dev/null >/dev/null 2>&1 &
echo $! >/tmp/lab/srv.pid
exportfs -v
