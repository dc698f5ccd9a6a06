# Shared code of the lab guest (bash, sourced): setup of the server and client
# namespaces, per-check cleanup, the check runner and the kernel-state assertions the
# scenarios in lab/scenarios use.  The general assertions (status_is, out_has, out_matches,
# out_quiet, value_is ...) and conf are the test suite's own, tests/lib/assert.sh and
# harness.sh, which lab/run ships to /lab/lib.
#
# Network (all inside the guest, no network device):
#   root netns (the client)  c0 10.99.0.2/24  <-veth->  s0 10.99.0.1/24 + 10.99.0.11/24  netns "srv"
#                               fd99::2/64             fd99::1/64
#   netns "other" (client)   o0 10.98.0.2/24  <-veth->  s1 10.98.0.1/24                netns "srv"
# The server (rpcbind, rpc.mountd, nfsd on 2049 and 2050) runs in netns srv with a
# private mount namespace; exports /export/a../export/h are separate tmpfs (fsid=1..8).

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
. /lab/lib/assert.sh
. /lab/lib/harness.sh # conf; this file's on_fail, below, replaces the harness's
H=/usr/local/sbin/mount.nfs-tuned
SRV=10.99.0.1
SRV2=10.99.0.11
SRV6=fd99::1
SRVPORT2=2050
# NFSv3 on the second port: mount.nfs probes the given port with rpcbind queries,
# so name the transport and the mountd port (rpc.mountd --port 20048)
V3PORT2="proto=tcp,port=$SRVPORT2,mountport=20048"
MNT=/mnt/lab
CONF=/etc/nfs-tuned.conf
LAB_LINES=${LAB_LINES:-/tmp/lab-lines}
LAB_DETAILS=${LAB_DETAILS:-/tmp/lab-details}
EXPORTS="a b c d e f g h"

# ---------------------------------------------------------------------------------------
lab_setup() {
	set -x
	local m
	for m in nfs nfsv3 nfsv4 nfsd veth; do modprobe "$m" || return 1; done
	mkdir -p "$MNT" /tmp/lab
	if [ -f /lab/mount.nfs-tuned ]; then
		install -m 0755 -o root -g root /lab/mount.nfs-tuned "$H" || return 1
	fi
	if [ -f /lab/nfs-tuned ]; then
		install -m 0755 -o root -g root /lab/nfs-tuned /usr/local/bin/nfs-tuned || return 1
	fi
	echo 0 >/proc/sys/kernel/printk_ratelimit 2>/dev/null
	ip link set lo up
	ip netns add srv || return 1
	ip netns add other || return 1
	ip link add c0 type veth peer name s0 netns srv || return 1
	ip addr add 10.99.0.2/24 dev c0
	ip addr add fd99::2/64 dev c0 nodad
	ip link set c0 up
	ip -n srv link set lo up
	ip -n srv addr add $SRV/24 dev s0
	ip -n srv addr add $SRV2/24 dev s0
	ip -n srv addr add $SRV6/64 dev s0 nodad
	ip -n srv link set s0 up
	ip -n other link add o0 type veth peer name s1 netns srv || return 1
	ip -n other link set lo up
	ip -n other addr add 10.98.0.2/24 dev o0
	ip -n other link set o0 up
	ip -n srv addr add 10.98.0.1/24 dev s1
	ip -n srv link set s1 up
	ip -n other route add 10.99.0.0/24 via 10.98.0.1
	cp /etc/hosts /etc/hosts.lab-base
	# no DNS in the lab: names come from /etc/hosts only (a lookup failure is final)
	sed -i 's/^hosts:.*/hosts:          files/' /etc/nsswitch.conf
	local i=1 e
	: >/etc/exports
	for e in $EXPORTS; do
		echo "/export/$e *(rw,no_root_squash,insecure,no_subtree_check,fsid=$i)" >>/etc/exports
		i=$((i + 1))
	done
	ip netns exec srv unshare -m --propagation private bash /lab/guest/server.sh || return 1
	# the client side (root netns): rpcbind and statd for NFSv3 locking
	mkdir -p /run/rpcbind /var/lib/nfs/sm /var/lib/nfs/sm.bak
	rpcbind -w || return 1
	rpc.statd --no-notify || return 1
	rpcinfo -p $SRV || return 1
	rpcinfo -p $SRV2 >/dev/null || return 1
	ip netns exec other rpcinfo -T tcp $SRV nfs 4 || return 1
	set +x
}

# run a command in the server's network and mount namespaces
srv() { local pid; read -r pid </tmp/lab/srv.pid; nsenter -t "$pid" -n -m "$@"; }

# ---------------------------------------------------------------------------------------
# The helpers a check calls often read /proc in bash, without a process: under the emulator
# each process costs 50-100 ms, and a check's cleanup took 1.1 s with nothing mounted.
# one a line, as paths: mountinfo writes a space as \040 (a tab \011, a newline \012; a
# backslash \134, so every backslash there begins such an escape)
nfs_mountpoints() {
	local l r
	while IFS= read -r l; do
		r=${l##* - }
		case ${r%% *} in nfs | nfs4) ;; *) continue ;; esac
		r=${l#* * * * }
		r=${r%% *}
		printf '%b\n' "${r//\\/\\0}"
	done </proc/self/mountinfo
}
# lines after the first (the header) that are not empty, as tail -n +2 | grep -c .
nfs_count() {
	local l n=0 first=1
	{ while IFS= read -r l; do
		[ -n "$first" ] && { first=; continue; }
		[ -n "$l" ] && n=$((n + 1))
	done <"$1"; } 2>/dev/null
	echo "$n"
}
nfs_servers() { nfs_count /proc/fs/nfsfs/servers; }
nfs_volumes() { nfs_count /proc/fs/nfsfs/volumes; }

lab_cleanup() {
	local d i
	for i in 1 2 3; do
		# a pipe, not <(...): the guest has no /dev/fd
		nfs_mountpoints | tac | while IFS= read -r d; do
			umount -i -f "$d" 2>/dev/null || umount -i -l "$d" 2>/dev/null
		done
		[ -z "$(nfs_mountpoints)" ] && break
	done
	local gone=() base
	for d in "$CONF" "$CONF.d" /etc/fstab.lab /run/nfs-tuned; do
		[ -e "$d" ] || [ -L "$d" ] && gone+=("$d")
	done
	[ ${#gone[@]} = 0 ] || rm -rf "${gone[@]}"
	IFS= read -r -d '' base </etc/hosts.lab-base
	printf '%s' "$base" >/etc/hosts
	: >/etc/fstab
	for i in $(seq 1 50); do
		[ "$(nfs_servers)" = 0 ] && return 0
		sleep 0.2
	done
	echo "cleanup: NFS clients still present:"; cat /proc/fs/nfsfs/servers
	return 1
}

# ---------------------------------------------------------------------------------------
# checks:  t NAME FUNCTION [ARGS...]
# The function returns 0 (ok), 1 with $REASON set by fail (FAIL) or 77 after skip (skip);
# an ok check may set NOTE (figures) for its line: "ok NAME: NOTE".
# Everything mounted is cleaned up after each check.
log() { echo "$*" >>"$LAB_DETAILS"; }
# microseconds as seconds with one decimal
tenths() { printf '%d.%d' $(($1 / 1000000)) $(($1 / 100000 % 10)); }
on_fail() { log "  FAILED: $*"; }
skip() { REASON="$*"; return 77; }
report() { echo "$*" | tee -a "$LAB_LINES"; }

t() {
	local name="${LAB_SCENARIO:-lab}/$1" rc
	shift
	REASON= NOTE=
	log "--- $name"
	local t0=${EPOCHREALTIME/./} t1 t2
	"$@"
	rc=$?
	t1=${EPOCHREALTIME/./}
	case $rc in
	0) report "ok $name${NOTE:+: $NOTE}" ;;
	77) report "skip $name: $REASON" ;;
	*) report "FAIL $name: ${REASON:-status $rc}"
	   sed -n "/^--- ${name//\//\\/}\$/,\$p" "$LAB_DETAILS" | tail -n 25 | sed 's/^/    /' ;;
	esac
	# LAB_NO_CLEANUP: checks of one state (the boot scenario)
	[ -n "${LAB_NO_CLEANUP:-}" ] ||
		lab_cleanup >>"$LAB_DETAILS" 2>&1 || report "FAIL $name: cleanup left NFS clients behind"
	# each check's time and its cleanup's, so that the slow ones can be found
	# (grep '^  time ' details.log | sort -k2 -n)
	t2=${EPOCHREALTIME/./}
	log "  time $(tenths $((t1 - t0))) s + cleanup $(tenths $((t2 - t1))) s: $name"
	return 0
}

need_helper() { [ -x "$H" ] || skip "mount.nfs-tuned not built (build/src/mount.nfs-tuned)"; }

# nfs-tuned status (status.sh, krb5.sh)
NT=/usr/local/bin/nfs-tuned
need_status() { need_helper || return; [ -x "$NT" ] || skip "nfs-tuned not built"; }
# srun ARGS...: `nfs-tuned status ARGS` as user nobody; sets RC and OUT
srun() {
	OUT=$(timeout -k 5 60 setpriv --reuid=65534 --regid=65534 --clear-groups "$NT" status "$@" 2>&1)
	RC=$?
	log "  \$ nfs-tuned status $* (as nobody) -> $RC"
	out_log
	return 0
}

# hrun ARGS...: run the helper; sets RC and OUT (stdout+stderr)
hrun() {
	OUT=$(timeout -k 5 90 "$H" "$@" 2>&1)
	RC=$?
	log "  \$ mount.nfs-tuned $* -> $RC"
	out_log
	return 0
}
# xrun CMD...: any other command, same capture
xrun() {
	OUT=$(timeout -k 5 90 "$@" 2>&1)
	RC=$?
	log "  \$ $* -> $RC"
	out_log
	return 0
}
# OUT into the details log, each line as "    | LINE"
out_log() { [ -z "$OUT" ] || log "    | ${OUT//$'\n'/$'\n'    | }"; }

# How long a check waits for udev's queue to empty (udevadm settle -t): 60 s. Debian 14's
# nfsrahead (nfs-utils 3.1.1) waits up to 10 s for a bdi's mount to appear, and the two
# short-lived superblocks of every NFSv4 mount (the server's root on the way to the export)
# never appear: each NFSv4 mount keeps a udev worker 10 s, and the next mount's short-lived
# bdis reuse the device numbers, so their events queue behind (settle after one NFSv4.1
# mount: 10.3 s, after one NFSv3 mount 0.4 s; after six NFSv4.1 mounts of one export 58.6 s).
SETTLE=60
# udev: systemd-udevd as a daemon (no systemd in the lab), with the rules of the image
udev_start() {
	local i d
	[ -e /run/udev/control ] && return 0
	for d in /lib/systemd/systemd-udevd /usr/lib/systemd/systemd-udevd; do [ -x $d ] && break; done
	[ -x "$d" ] || return 1
	$d --daemon >>"$LAB_DETAILS" 2>&1 || return 1
	for i in $(seq 1 50); do [ -e /run/udev/control ] && break; sleep 0.1; done
	udevadm settle -t 10
	[ -e /run/udev/control ]
}
udev_stop() {
	udevadm control --exit 2>/dev/null
	rm -f /run/udev/control
	return 0
}

# mountinfo of the last mount on DIR; superblock options; one option's value
mi() {
	local l r last=
	while IFS= read -r l; do
		r=${l#* * * * }
		[ "${r%% *}" = "$1" ] && last=$l
	done </proc/self/mountinfo
	[ -z "$last" ] || printf '%s\n' "$last"
	return 0
}
mi_super() { local l; l=$(mi "$1"); l=${l##* - }; l=${l#* }; [ -z "$l" ] || printf '%s\n' "${l#* }"; return 0; }
mi_opt() {
	local o v= opts
	IFS=, read -r -a opts <<<"$(mi_super "$1")"
	for o in "${opts[@]}"; do case $o in "$2="*) v=${o#*=} ;; esac; done
	[ -z "$v" ] || printf '%s\n' "$v"
	return 0
}
mi_dev() { local l; l=$(mi "$1"); l=${l#* * }; [ -z "$l" ] || printf '%s\n' "${l%% *}"; return 0; }
# number of xprt: lines (transports) of the mount on DIR in mountstats
xprts() {
	awk -v d="$1" '$1 == "device" { on = ($5 == d) } on && $1 == "xprt:" { n++ } END { print n + 0 }' \
		/proc/self/mountstats
}
is_mounted() { [ -n "$(mi "$1")" ]; }
mounted() { is_mounted "$1" || fail "$1 is not mounted${2:+ ($2)}"; }
not_mounted() { ! is_mounted "$1" || fail "$1 is mounted but must not be${2:+ ($2)}: $(mi_super "$1")"; }
# nconn_is DIR N [NOTE]: mountinfo nconnect= of DIR is N ("" = absent)
nconn_is() { value_is "$1: mountinfo nconnect" "$(mi_opt "$1" nconnect)" "$2" "$3"; }
# xprt_is DIR N [NOTE]: the mount on DIR has N xprt: lines in mountstats
xprt_is() { value_is "$1: xprt lines in mountstats" "$(xprts "$1")" "$2" "$3"; }
# servers_is N [NOTE]: /proc/fs/nfsfs/servers lists N clients
servers_is() {
	local list
	list=$(tail -n +2 /proc/fs/nfsfs/servers 2>/dev/null | tr '\n' ';')
	value_is "clients in /proc/fs/nfsfs/servers" "$(nfs_servers)" "$1" "$2${2:+${list:+; }}$list"
}
mp() { [ -d "$MNT/$1" ] || mkdir -p "$MNT/$1"; echo "$MNT/$1"; }
# read_ahead_kb of the bdi of the mount on DIR
ra_of() { cat "/sys/class/bdi/$(mi_dev "$1")/read_ahead_kb" 2>/dev/null; }

# ---------------------------------------------------------------------------------------
# Kerberos, for real sec=krb5/krb5i/krb5p mounts: set up once, by the first check that
# calls krb5_setup (other scenarios do not pay for it).
#   realm LAB.TEST, its KDC (krb5kdc) in the root netns on 10.99.0.2:88;
#   names in /etc/hosts: server.lab.test for $SRV, $SRV2 and $SRV6 (rpc.gssd names the
#   server's principal from a reverse lookup of the address), client.lab.test for 10.99.0.2;
#   nfs/server.lab.test in /etc/krb5.keytab of the server's mount namespace (a file bound
#   over it there), where gssproxy (nfs-server service, kernel_nfsd) accepts contexts for
#   nfsd; nfs/client.lab.test in the root namespace's /etc/krb5.keytab, the machine
#   credential rpc.gssd gets for root;
#   rpc.gssd in the root netns (rpc_pipefs on /run/rpc_pipefs), with client.lab.test as its
#   host name (a UTS namespace of its own: the kernel's NFSv4 client name stays as it is);
#   the exports allow sec=sys:krb5:krb5i:krb5p, each with a krb5/ directory anyone may write.
# krb5_stop stops rpc.gssd and restores sec=sys-only exports: the scenarios after it see the
# lab as before (the KDC and gssproxy stay, idle).
REALM=LAB.TEST
SRVNAME=server.lab.test
CLINAME=client.lab.test
KRB5_DIR=/tmp/lab/krb5
KRB5_SEC=sys:krb5:krb5i:krb5p

# lab_cleanup restores /etc/hosts after every check: the names go back in before each one
krb5_hosts() {
	grep -q "[[:space:]]$SRVNAME\$" /etc/hosts && return 0
	printf '%s\t%s\n' "$SRV" "$SRVNAME" "$SRV2" "$SRVNAME" "$SRV6" "$SRVNAME" \
		10.99.0.2 "$CLINAME" >>/etc/hosts
}

krb5_exports() { # SECLIST ("" = none: sec=sys only, as lab_setup made them)
	local e i=1
	: >/etc/exports
	for e in $EXPORTS; do
		echo "/export/$e *(rw,no_root_squash,insecure,no_subtree_check,fsid=$i${1:+,sec=$1})" >>/etc/exports
		i=$((i + 1))
	done
	srv exportfs -ra || return 1
	if [ -n "$1" ]; then touch "$KRB5_DIR/exports"; else rm -f "$KRB5_DIR/exports"; fi
}

krb5_wait() { # WHAT COMMAND...: up to 10 s
	local i
	for i in $(seq 1 50); do "${@:2}" >/dev/null 2>&1 && return 0; sleep 0.2; done
	echo "krb5: $1 did not come up"
	return 1
}

krb5_configure() {
	cat >/etc/krb5.conf <<-EOF
	[libdefaults]
		default_realm = $REALM
		dns_lookup_realm = false
		dns_lookup_kdc = false
		rdns = false
	[realms]
		$REALM = {
			kdc = 10.99.0.2
			admin_server = 10.99.0.2
		}
	[domain_realm]
		.lab.test = $REALM
		lab.test = $REALM
	EOF
	mkdir -p /etc/krb5kdc /var/lib/krb5kdc
	cat >/etc/krb5kdc/kdc.conf <<-EOF
	[kdcdefaults]
		kdc_ports = 88
		kdc_tcp_ports = 88
	[realms]
		$REALM = {
			database_name = /var/lib/krb5kdc/principal
			key_stash_file = /etc/krb5kdc/stash
			acl_file = /etc/krb5kdc/kadm5.acl
			master_key_type = aes256-cts-hmac-sha1-96
			supported_enctypes = aes256-cts-hmac-sha1-96:normal aes128-cts-hmac-sha1-96:normal
		}
	[logging]
		kdc = FILE:$KRB5_DIR/kdc.log
		admin_server = FILE:$KRB5_DIR/kadmin.log
		default = FILE:$KRB5_DIR/krb5.log
	EOF
	: >/etc/krb5kdc/kadm5.acl
}

krb5_kdc() {
	local p
	kdb5_util create -s -r "$REALM" -P lab-master-key || return 1
	krb5kdc -P "$KRB5_DIR/kdc.pid" || return 1
	for p in "nfs/$SRVNAME" "nfs/$CLINAME"; do
		kadmin.local -q "addprinc -randkey $p" || return 1
	done
	kadmin.local -q "ktadd -k $KRB5_DIR/server.keytab nfs/$SRVNAME" || return 1
	rm -f /etc/krb5.keytab
	kadmin.local -q "ktadd -k /etc/krb5.keytab nfs/$CLINAME" || return 1
	klist -k -e "$KRB5_DIR/server.keytab" && klist -k -e /etc/krb5.keytab
}

krb5_server() {
	local e
	# the server's keytab is the one it sees at /etc/krb5.keytab
	srv mount --bind "$KRB5_DIR/server.keytab" /etc/krb5.keytab || return 1
	srv mkdir -p /var/lib/gssproxy/clients /var/lib/gssproxy/rcache
	srv sh -c "gssproxy -i -d >$KRB5_DIR/gssproxy.log 2>&1 & echo \$! >$KRB5_DIR/gssproxy.pid"
	# gssproxy writes 1 there for its kernel_nfsd service: nfsd then asks it to accept contexts
	krb5_wait "gssproxy (use-gss-proxy)" srv grep -qx 1 /proc/net/rpc/use-gss-proxy || return 1
	for e in $EXPORTS; do srv install -d -m 1777 "/export/$e/krb5"; done
	krb5_exports "$KRB5_SEC"
}

krb5_client() {
	mkdir -p /run/rpc_pipefs
	mountpoint -q /run/rpc_pipefs || mount -t rpc_pipefs rpc_pipefs /run/rpc_pipefs || return 1
	krb5_gssd
}

krb5_gssd() {
	[ -s "$KRB5_DIR/gssd.pid" ] && kill -0 "$(cat "$KRB5_DIR/gssd.pid")" 2>/dev/null && return 0
	unshare -u sh -c "hostname $CLINAME && exec rpc.gssd -f -vvv -p /run/rpc_pipefs" \
		>>"$KRB5_DIR/gssd.log" 2>&1 &
	echo $! >"$KRB5_DIR/gssd.pid"
	# rpc.gssd holds the gssd pipe open once it runs
	krb5_wait "rpc.gssd" sh -c "ls -l /proc/$!/fd | grep -q rpc_pipefs"
}

# krb5_setup: set the realm up (once; later calls only put the names back); its log is
# $KRB5_DIR/setup.log, its time in the details
krb5_setup() {
	local t0 rc
	if [ -f "$KRB5_DIR/ready" ]; then
		krb5_hosts
		krb5_gssd >>"$KRB5_DIR/setup.log" 2>&1 || { skip "rpc.gssd does not start"; return; }
		[ -f "$KRB5_DIR/exports" ] || krb5_exports "$KRB5_SEC" >>"$KRB5_DIR/setup.log" 2>&1
		return 0
	fi
	setup_once krb5 "$KRB5_DIR" "the Kerberos setup" krb5_setup_steps || return
	[ -s "$KRB5_DIR/warm-tries" ] && echo "lab: krb5 warmed up in $(cat "$KRB5_DIR/warm-tries") tries"
	return 0
}
krb5_setup_steps() {
	export KRB5_KDC_PROFILE=/etc/krb5kdc/kdc.conf
	krb5_hosts && krb5_configure && krb5_kdc && krb5_server && krb5_client && krb5_warm
}

# krb5_warm: the realm's first context, through a fresh KDC, rpc.gssd and the server's
# gssproxy, may take longer than the kernel's upcall waits under the emulator beside another
# guest (run W: the first check's mount got "access denied by server", rpc.gssd "Failed to
# create machine krb5 context", every later one worked). So does a fresh rpc.gssd's first
# machine credential: a warm-up that started rpc.gssd again after its mount failed the same
# way in CI. One plain sec=krb5 mount, tried up to 5 times, with the rpc.gssd the checks use
# (its machine credential stays); the tries it took go to $KRB5_DIR/warm-tries
krb5_warm() {
	local d=$KRB5_DIR/warm i
	mkdir -p "$d"
	for i in 1 2 3 4 5; do
		if mount.nfs "$SRV:/export/a" "$d" -o vers=4.1,sec=krb5,nconnect=1; then
			echo "$i" >"$KRB5_DIR/warm-tries"
			echo "krb5: warmed up in $i tries"
			umount "$d"
			return
		fi
		sleep 3
	done
	echo "krb5: no sec=krb5 mount in 5 tries"
	return 1
}

# setup_once NAME DIR WHAT STEPS: runs STEPS (a function) once, traced into DIR/setup.log
# (copied to results/NAME-setup.log), its time in the details and the run's output; DIR/ready
# after it worked, DIR/failed (and every later call fails) after it did not
setup_once() {
	local t0 rc
	if [ -f "$2/failed" ]; then
		fail "$3 failed before (see $1-setup.log)"
		return
	fi
	mkdir -p "$2"
	t0=$(cut -d' ' -f1 /proc/uptime)
	( set -x; "$4" ) >"$2/setup.log" 2>&1
	rc=$?
	cp "$2/setup.log" "/lab/results/$1-setup.log" 2>/dev/null
	t0=$(echo "$(cut -d' ' -f1 /proc/uptime) $t0" | awk '{ printf "%.1f", $1 - $2 }')
	log "  $1: setup took $t0 s (status $rc)"
	echo "lab: $1 setup took $t0 s"
	if [ "$rc" != 0 ]; then
		touch "$2/failed"
		fail "$3 failed: $(tail -n 3 "$2/setup.log" | tr '\n' ' ')"
		return
	fi
	touch "$2/ready"
}

# krb5_stop: rpc.gssd stops and the exports are sec=sys only again; logs to /lab/results
krb5_stop() {
	[ -f "$KRB5_DIR/ready" ] || return 0
	[ -s "$KRB5_DIR/gssd.pid" ] && kill "$(cat "$KRB5_DIR/gssd.pid")" 2>/dev/null
	rm -f "$KRB5_DIR/gssd.pid"
	krb5_exports "" >>"$KRB5_DIR/setup.log" 2>&1
	local f
	for f in gssd.log gssproxy.log kdc.log; do
		[ -f "$KRB5_DIR/$f" ] && cp "$KRB5_DIR/$f" "/lab/results/krb5-$f"
	done
	return 0
}

# ---------------------------------------------------------------------------------------
# RPC-with-TLS (xprtsec=), for the tls scenario: set up once, by the first check that calls
# tls_setup (other scenarios do not pay for it).
#   the tls module and the crypto the handshake negotiates (with tls alone tlshd fails with
#   "The kernel does not support the requested algorithm");
#   an EC P-256 CA, a server certificate with the server's addresses in its SAN, a client
#   certificate (openssl), in $TLS_DIR;
#   tlshd (ktls-utils) in the server's namespaces ([authenticate.server]) and in the client's
#   ([authenticate.client], its certificate for mtls);
#   exports a..f xprtsec=tls:mtls:none, g xprtsec=mtls (mutual TLS only), h xprtsec=tls:mtls
#   (TLS only).  tls_stop stops both tlshd and restores the exports.
TLS_DIR=/tmp/lab/tls
TLS_MODULES="tls aes_generic gcm ghash_generic ghash_clmulni_intel aesni_intel ccm chacha20poly1305 chacha_generic chacha-x86_64 poly1305_generic poly1305-x86_64 seqiv echainiv"

# why TLS cannot be had here, or nothing
tls_missing() {
	local k
	k=$(uname -r | awk -F. '{ print $1 * 1000 + $2 }')
	[ "$k" -ge 6005 ] || { echo "Linux $(uname -r) has no xprtsec= (RPC-with-TLS came with 6.5)"; return; }
	command -v tlshd >/dev/null || { echo "no tlshd (ktls-utils) in this image"; return; }
	command -v openssl >/dev/null || { echo "no openssl in this image"; return; }
}

tls_exports() { # on|off
	local e i=1 x
	: >/etc/exports
	for e in $EXPORTS; do
		x=
		if [ "$1" = on ]; then
			case $e in g) x=,xprtsec=mtls ;; h) x=,xprtsec=tls:mtls ;; *) x=,xprtsec=tls:mtls:none ;; esac
		fi
		echo "/export/$e *(rw,no_root_squash,insecure,no_subtree_check,fsid=$i$x)" >>/etc/exports
		i=$((i + 1))
	done
	srv exportfs -ra || return 1
}

tls_certs() {
	local d=$TLS_DIR
	openssl ecparam -name prime256v1 -genkey -noout -out $d/ca.key || return 1
	openssl req -x509 -new -key $d/ca.key -subj /CN=lab-ca -days 30 -out $d/ca.pem \
		-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign || return 1
	printf 'subjectAltName=IP:%s,IP:%s,IP:%s,DNS:server.lab.test\nextendedKeyUsage=serverAuth\n' \
		"$SRV" "$SRV2" "$SRV6" >$d/server.ext
	printf 'subjectAltName=IP:10.99.0.2,DNS:client.lab.test\nextendedKeyUsage=clientAuth\n' >$d/client.ext
	local who
	for who in server client; do
		openssl ecparam -name prime256v1 -genkey -noout -out $d/$who.key || return 1
		openssl req -new -key $d/$who.key -subj /CN=$who.lab.test -out $d/$who.csr || return 1
		openssl x509 -req -in $d/$who.csr -CA $d/ca.pem -CAkey $d/ca.key -CAcreateserial -days 30 \
			-extfile $d/$who.ext -out $d/$who.pem || return 1
	done
	chmod 600 $d/*.key
}

tls_tlshd() { # server|client
	local conf=$TLS_DIR/$1.conf
	printf '[debug]\nloglevel=1\ntls=0\nnl=0\n\n[authenticate.%s]\nx509.truststore=%s\nx509.certificate=%s\nx509.private_key=%s\n' \
		"$1" "$TLS_DIR/ca.pem" "$TLS_DIR/$1.pem" "$TLS_DIR/$1.key" >"$conf"
	if [ "$1" = server ]; then
		srv tlshd -s -c "$conf" >"$TLS_DIR/tlshd-server.log" 2>&1 </dev/null &
	else
		tlshd -s -c "$conf" >"$TLS_DIR/tlshd-client.log" 2>&1 </dev/null &
	fi
	echo $! >"$TLS_DIR/tlshd-$1.pid"
}

# tls_setup: once; later calls only check it is up.  Skips where TLS cannot be had.
tls_setup() {
	local why
	why=$(tls_missing)
	[ -z "$why" ] || { skip "$why"; return; }
	[ -f "$TLS_DIR/ready" ] && return 0
	setup_once tls "$TLS_DIR" "the TLS setup" tls_setup_steps
}
tls_setup_steps() {
	local m
	for m in $TLS_MODULES; do modprobe "$m" || echo "tls: no module $m (built in, or not for this CPU)"; done
	[ -e /proc/net/tls_stat ] || return 1
	tls_certs && tls_tlshd server && tls_tlshd client && tls_exports on
}

tls_stop() {
	[ -f "$TLS_DIR/ready" ] || return 0
	local w
	for w in server client; do
		[ -s "$TLS_DIR/tlshd-$w.pid" ] && kill "$(cat "$TLS_DIR/tlshd-$w.pid")" 2>/dev/null
		cp "$TLS_DIR/tlshd-$w.log" "/lab/results/tls-tlshd-$w.log" 2>/dev/null
	done
	rm -f "$TLS_DIR/ready"
	tls_exports off >>"$TLS_DIR/setup.log" 2>&1
	return 0
}

# kTLS sessions of the client's network namespace (/proc/net/tls_stat): set up since boot
# (TlsTxSw), and open now (TlsCurrTxSw); a TLS mount that makes a client makes one
tls_sessions() { awk '$1 == "TlsTxSw" { print $2 + 0 }' /proc/net/tls_stat 2>/dev/null; }
tls_open() { awk '$1 == "TlsCurrTxSw" { print $2 + 0 }' /proc/net/tls_stat 2>/dev/null; }
# the TLS policy the mount on DIR really has: its mountinfo xprtsec=, none when absent
mi_tls() { local x; x=$(mi_opt "$1" xprtsec); echo "${x:-none}"; }
