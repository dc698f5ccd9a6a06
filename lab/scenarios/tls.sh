# Scenario: NFS over TLS (xprtsec=tls|mtls) beside plain mounts of the same server (DESIGN.md
# "TLS and sharing").  Each check first lets the kernel show what it does (the real mount.nfs
# alone: the second mount's mountinfo xprtsec=, the kTLS session counters of /proc/net/tls_stat,
# the clients of /proc/fs/nfsfs/servers), then mounts the same through the helper and holds it
# to what the kernel did: no mount through the helper that asked for TLS may end up without
# it unless refused or reported.  TLS itself is set up once, by the first check (tls_setup,
# lab/guest/lib.sh); on a kernel without xprtsec= (Debian 12's 6.1) every check skips.

MOUNT_NFS=$(command -v mount.nfs)

# kernel_second VERS FIRST SECOND [EXPORT2]: the kernel alone mounts $SRV:/export/a with
# xprtsec=FIRST, then export b (or EXPORT2) with xprtsec=SECOND; sets KX (the second mount's
# TLS in mountinfo, "failed" when it failed), KN (clients) and KSES (kTLS sessions the second
# mount set up), then unmounts both
kernel_second() {
	local a b r0
	a=$(mp a) b=$(mp b)
	xrun "$MOUNT_NFS" $SRV:/export/a "$a" -o "vers=$1,xprtsec=$2"
	[ "$RC" = 0 ] || { fail "the kernel alone: the first mount (xprtsec=$2) failed: $OUT"; return; }
	r0=$(tls_sessions)
	xrun "$MOUNT_NFS" $SRV:/export/${4:-b} "$b" -o "vers=$1,xprtsec=$3"
	if [ "$RC" = 0 ]; then
		cat "$b/README" >/dev/null 2>&1
		KX=$(mi_tls "$b")
	else
		KX=failed
	fi
	KSES=$(($(tls_sessions) - r0)) KN=$(nfs_servers)
	log "  kernel: NFSv$1 xprtsec=$2 then $3${4:+ (export $4)}: second mount ${KX}, $KN client(s), $KSES new kTLS session(s)"
	echo "lab: tls: kernel $(uname -r) NFSv$1: xprtsec=$2 then $3${4:+ (export $4)}: the second mount got $KX; $KN NFS client(s); $KSES new kTLS session(s)"
	lab_cleanup >>"$LAB_DETAILS" 2>&1
}

# none < tls < mtls; a mount that failed has none
tls_rank() { case $1 in mtls) echo 2 ;; tls) echo 1 ;; *) echo 0 ;; esac; }

# through the helper, a mount that asked for xprtsec=WANT on DIR: refused (32, said), or
# mounted with at least that TLS in its mountinfo and a kTLS session open, or unmounted after
# an error that said so
tls_held() { # DIR WANT
	local got
	case $RC in
	0)
		got=$(mi_tls "$1")
		cat "$1/README" >/dev/null 2>&1
		if [ "$(tls_rank "$got")" -lt "$(tls_rank "$2")" ]; then
			fail "mounted through the helper with xprtsec=$got, not $2, and exit 0"
			return
		fi
		[ "$(tls_open)" -gt 0 ] || fail "mountinfo says $got but no kTLS session is open"
		;;
	32)
		if echo "$OUT" | grep -q "refusing to mount: xprtsec=$2"; then
			not_mounted "$1" "refused before the mount"
		else
			out_has "asked for xprtsec=$2 but its mountinfo shows" || return
			out_has "unmounted $1" || return
			not_mounted "$1" "unmounted after the verification"
		fi
		;;
	*) fail "exit $RC" ;;
	esac
}

# VERS FIRST SECOND: the second mount beside the first, by the kernel alone and through the helper
tls_beside() {
	local a b
	tls_setup || return
	need_helper || return
	kernel_second "$1" "$2" "$3" || return
	a=$(mp a) b=$(mp b)
	hrun $SRV:/export/a "$a" -o "vers=$1,xprtsec=$2"
	status_is 0 "the first mount, alone" || return
	hrun $SRV:/export/b "$b" -o "vers=$1,xprtsec=$3"
	if [ "$3" = none ]; then
		# a plain mount asks for nothing: it mounts, on whatever client the kernel picks; the
		# plan said which (tls_plan), the mount got what the kernel alone gave it
		status_is 0 "a plain mount" || return
		value_is "its TLS, as the kernel alone gave it" "$(mi_tls "$b")" "$KX" || return
		return 0
	fi
	tls_held "$b" "$3" || return
	# the kernel alone gave it less than it asked (folded into a weaker client): the helper
	# must have refused it (or unmounted it); as much or more: it may mount
	if [ "$(tls_rank "$KX")" -lt "$(tls_rank "$3")" ] && [ "$RC" = 0 ]; then
		fail "the kernel folds this mount into the $2 client (it got $KX), and the helper mounted it"
	fi
}
for v in 3 4.0 4.1 4.2; do
	t tls-v$v-plain-then-tls tls_beside $v none tls
	t tls-v$v-tls-then-plain tls_beside $v tls none
done
t tls-v4.2-tls-then-mtls tls_beside 4.2 tls mtls
t tls-v4.2-mtls-then-tls tls_beside 4.2 mtls tls

# an export that accepts only TLS: the kernel alone fails the folded mount (EPERM); the helper
# refuses it before; alone, a TLS mount of it works and a plain one is refused by the server
tls_only_export() {
	local a h
	tls_setup || return
	need_helper || return
	kernel_second 4.1 none tls h || return
	a=$(mp a) h=$(mp h)
	hrun $SRV:/export/a "$a" -o vers=4.1
	status_is 0 || return
	hrun $SRV:/export/h "$h" -o vers=4.1,xprtsec=tls
	tls_held "$h" tls || return
	[ "$KX" = failed ] && { status_is 32 "the kernel fails it: the helper must refuse it first" || return; }
	lab_cleanup >>"$LAB_DETAILS" 2>&1
	hrun $SRV:/export/h "$h" -o vers=4.1,xprtsec=tls
	status_is 0 "a TLS mount of the TLS-only export, alone" || return
	tls_held "$h" tls || return
	lab_cleanup >>"$LAB_DETAILS" 2>&1
	hrun $SRV:/export/h "$h" -o vers=4.1
	[ "$RC" != 0 ] || fail "a plain mount of the TLS-only export worked" || return
	# mutual TLS only: the client's certificate is presented
	hrun $SRV:/export/g "$(mp g)" -o vers=4.2,xprtsec=mtls
	status_is 0 "an mtls mount of the mtls-only export" || return
	value_is "its TLS" "$(mi_tls "$MNT/g")" mtls
}
t tls-only-export tls_only_export

# tls_policy = warn: the mount goes ahead; if the kernel folded it, the verification says so
# after, the mount stays, and status reports it (tls-not-applied) until it is remounted
tls_warn() {
	local a b
	tls_setup || return
	need_status || return
	a=$(mp a) b=$(mp b)
	conf "[global]" "tls_policy = warn"
	hrun $SRV:/export/a "$a" -o vers=4.1
	hrun $SRV:/export/b "$b" -o vers=4.1,xprtsec=tls
	status_is 0 "warn: mounted" || return
	mounted "$b" || return
	if [ "$(mi_tls "$b")" = tls ]; then
		out_lacks "asked for xprtsec=tls but" || return
		return 0
	fi
	out_has "warning: xprtsec=tls would land on the NFS client for $SRV port 2049, NFSv4.1 over tcp, set up by $a" || return
	out_has "warning: $b asked for xprtsec=tls but its mountinfo shows no xprtsec=: the kernel folded it into the existing NFS client of $SRV (NFSv4.1), $a" || return
	out_has "the mount stays (tls_policy = warn)" || return
	srun -o target,tls,tls-req,findings
	value_is "status exit" "$RC" 1 || return
	out_matches "^$b +none +tls +tls-not-applied\$" || return
	out_has "warning: [tls-not-applied] $b asked for xprtsec=tls (as the helper recorded when it mounted it) but its NFS client of $SRV (NFSv4.1), set up by $a, has no TLS" || return
	srun -o target,tls
	out_matches "^$a +none\$"
}
t tls-warn-folded-reported tls_warn

# the plan could not see it coming: the TLS mount goes to the server's second address, a
# client the plan does not know; NFSv4 trunking folds it into the plain client of the first
# address.  Under refuse the verification unmounts it.
tls_trunked() {
	local a b
	tls_setup || return
	need_helper || return
	a=$(mp a) b=$(mp b)
	hrun $SRV:/export/a "$a" -o vers=4.1
	status_is 0 || return
	hrun -v $SRV2:/export/b "$b" -o vers=4.1,xprtsec=tls
	tls_held "$b" tls || return
	if [ "$RC" = 32 ]; then
		out_has "$b asked for xprtsec=tls but its mountinfo shows no xprtsec=: the kernel folded it into the existing NFS client of $SRV (NFSv4.1), $a ($SRV:/export/a)" ||
			out_has "refusing to mount" || return
	fi
	echo "lab: tls: kernel $(uname -r): TLS to the second address beside a plain client: exit $RC ($(echo "$OUT" | grep -c unmounted) unmounted)"
}
t tls-trunked-unmounted tls_trunked

# the plan of -f -v names the client the mount is folded into, as the kernel does it
tls_plan() {
	local a b
	tls_setup || return
	need_helper || return
	kernel_second 4.2 none tls || return
	a=$(mp a) b=$(mp b)
	hrun $SRV:/export/a "$a" -o vers=4.2
	hrun -f -v $SRV:/export/b "$b" -o vers=4.2,xprtsec=tls
	if [ "$KX" = tls ]; then
		out_has "(other port, protocol or TLS policy: separate)" || return
	else
		status_is 32 "refused" || return
		out_has "client: $SRV port 2049, NFSv4.2 over tcp: nconnect=1, $a ($SRV:/export/a) <- another TLS policy, but NFSv4 trunking folds this mount into it" || return
		out_has "tls: refuse (asks tls, gets none)" || return
	fi
	not_mounted "$b"
}
t tls-plan tls_plan

# status: the TLS each client really has, and what each mount asked
tls_status() {
	local a
	tls_setup || return
	need_status || return
	a=$(mp a)
	hrun $SRV:/export/a "$a" -o vers=4.2,xprtsec=mtls
	status_is 0 || return
	srun -o target,tls,tls-req
	value_is "status exit" "$RC" 0 || return
	out_matches "^$a +mtls +mtls\$" || return
	# what the sunrpc sysfs shows of a TLS transport (status reads mountinfo: DESIGN.md)
	local f
	for f in /sys/kernel/sunrpc/xprt-switches/*/xprt-*/xprt_info; do
		[ -f "$f" ] && log "  $f: $(tr '\n' ' ' <"$f")"
	done
	echo "lab: tls: sunrpc xprt_info fields: $(cat /sys/kernel/sunrpc/xprt-switches/*/xprt-*/xprt_info 2>/dev/null | sed 's/=.*//' | sort -u | tr '\n' ' ')"
}
t tls-status tls_status

tls_stop
