# Scenario: sec=krb5* on a client with more than one connection (DESIGN.md "Policies").
# The first checks need no KDC: a refusal happens before mount.nfs runs; warnings are checked
# with -f. The last ones mount sec=krb5, krb5i and krb5p for real: realm LAB.TEST with its KDC,
# rpc.gssd and gssproxy in the guest (krb5_setup, lab/guest/lib.sh, done once, by the first).

krb5_refused() { # SEC NCONNECT(on the krb5 mount) FIRST(nconnect of an earlier sec=sys mount, or "")
	local a b
	need_helper || return
	a=$(mp a) b=$(mp b)
	conf "[global]" "krb5_policy = refuse"
	if [ -n "$3" ]; then
		hrun $SRV:/export/a "$a" -o "vers=4.1,sec=sys,nconnect=$3"
		status_is 0 || return
	fi
	hrun $SRV:/export/b "$b" -o "vers=4.1,sec=$1${2:+,nconnect=$2}"
	status_is 32 "sec=$1 on a multi-connection client" || return
	out_has refusing || return
	out_has 'krb5' || return
	not_mounted "$b" || return
	servers_is "$([ -n "$3" ] && echo 1 || echo 0)" "mount.nfs never ran" || return
}
t krb5-nconnect4-refused krb5_refused krb5 4 ""
t krb5i-nconnect2-refused krb5_refused krb5i 2 ""
t krb5p-nconnect16-refused krb5_refused krb5p 16 ""
t krb5-inherited-nconnect-refused krb5_refused krb5 "" 4

# one connection: nothing to refuse (dry run; krb5-real-mount-* below mount it for real)
krb5_single() {
	local b
	need_helper || return
	b=$(mp b)
	conf "[global]" "krb5_policy = refuse"
	hrun -f -v $SRV:/export/b "$b" -o vers=4.1,sec=krb5
	status_is 0 "a single connection is fine" || return
	out_lacks refusing || return
	not_mounted "$b" || return
}
t krb5-single-connection-allowed krb5_single

# warn (the default): a warning, the mount would go ahead (dry run)
krb5_warn() {
	local b
	need_helper || return
	b=$(mp b)
	hrun -f -v $SRV:/export/b "$b" -o vers=4.1,sec=krb5,nconnect=4
	status_is 0 "krb5_policy = warn (default)" || return
	out_has 'warning:' || return
	out_lacks refusing || return
	not_mounted "$b" || return
}
t krb5-warn-default krb5_warn

# a config default nconnect makes the client multi-connection too
krb5_config() {
	local b
	need_helper || return
	b=$(mp b)
	conf "[global]" "nconnect = 4" "krb5_policy = refuse"
	hrun $SRV:/export/b "$b" -o vers=4.1,sec=krb5
	status_is 32 "nconnect=4 from the config" || return
	out_has refusing || return
	not_mounted "$b" || return
}
t krb5-config-nconnect-refused krb5_config

# ---------------------------------------------------------------------------------------
# Real sec=krb5* mounts.

# pseudoflavor of each sec= in mountstats' "sec: flavor=6,pseudoflavor=N" (RFC 2623)
pseudoflavor() { case $1 in krb5) echo 390003 ;; krb5i) echo 390004 ;; krb5p) echo 390005 ;; esac; }
# the sec: line of the mount on DIR in mountstats: "flavor=N,pseudoflavor=N"
ms_sec() {
	awk -v d="$1" '$1 == "device" { on = ($5 == d) } on && $1 == "sec:" { print $2; exit }' \
		/proc/self/mountstats
}
# sec_is DIR SEC: mountinfo's sec= and mountstats' flavor of the mount on DIR
sec_is() {
	local want=flavor=1,pseudoflavor=1
	value_is "$1: mountinfo sec" "$(mi_opt "$1" sec)" "$2" || return
	[ "$2" = sys ] || want="flavor=6,pseudoflavor=$(pseudoflavor "$2")"
	value_is "$1: mountstats sec" "$(ms_sec "$1")" "$want"
}
# rw_as_root DIR EXPORT TAG: root writes a file through the mount (the machine credential of
# rpc.gssd), reads it back, and the server has it, owned by nobody (gssproxy maps the
# principal nfs/client.lab.test to no local user); reads 1 MiB of the export's data file
rw_as_root() {
	local f="krb5/$3" n
	xrun sh -c "echo 'written over $3' >'$1/$f' && sync '$1/$f' && cat '$1/$f'"
	status_is 0 "root writes through $1" || return
	out_has "written over $3" || return
	value_is "$f on the server" "$(srv cat "/export/$2/$f" 2>&1)" "written over $3" || return
	value_is "owner of $f on the server" "$(srv stat -c %U:%G "/export/$2/$f")" nobody:nogroup \
		"root's machine credential" || return
	n=$(head -c 1048576 "$1/data" | wc -c)
	value_is "bytes read from $1/data" "$n" 1048576
}

# krb5p_broken SEC: the last mount (hrun -v: mount.nfs names the error) failed the way
# sec=krb5p fails on the lab's kernel (Debian 12's 6.1): mount(2) gets EIO, because nfsd
# answers every krb5p call with GARBAGE_ARGS (the client's rpc__garbage_args trace event;
# krb5 and krb5i work). Such a check skips, with the reason, rather than pass or assert the
# bug, on 6.1 only: Debian 13's 6.12 mounts krb5p, so there (and on any other kernel) the
# failure is a failure.
krb5p_broken() {
	[ "$1" = krb5p ] && [ "$RC" = 32 ] && printf '%s\n' "$OUT" | grep -q 'Input/output error' ||
		return 1
	case $(uname -r) in 6.1.*) ;; *) return 1 ;; esac
	skip "sec=krb5p does not mount on kernel $(uname -r): mount(2) gets EIO," \
		"nfsd answers krb5p calls with GARBAGE_ARGS"
	return 0
}

# a sec=krb5* mount that failed: rpc.gssd's last lines in the details (why the context failed)
gssd_why() {
	[ "$RC" = 0 ] && return 0
	log "  rpc.gssd's last lines ($KRB5_DIR/gssd.log):"
	tail -n 20 "$KRB5_DIR/gssd.log" 2>/dev/null | sed 's/^/    | /' >>"$LAB_DETAILS"
}

# sec=krb5, krb5i or krb5p with nconnect=1 on each of exports a, b (and c): all work, one NFS
# client (the flavour is per mount, the client and its connection are shared)
krb5_real_single() { # SEC...
	local s e=a d
	need_helper || return
	krb5_setup || return
	for s in "$@"; do
		d=$(mp $e)
		hrun -v $SRV:/export/$e "$d" -o "vers=4.1,sec=$s,nconnect=1"
		gssd_why
		krb5p_broken $s && return 77
		status_is 0 "sec=$s over one connection" || return
		out_lacks warning: || return
		mounted "$d" || return
		sec_is "$d" $s || return
		xprt_is "$d" 1 || return
		rw_as_root "$d" $e "root-$s" || return
		e=$(echo $e | tr ab bc)
	done
	servers_is 1 "$# flavours, one NFS client" || return
	# root's machine credential: a service ticket of the server's principal, from the KDC
	xrun klist -c "/tmp/krb5ccmachine_$REALM"
	out_has "nfs/$SRVNAME@$REALM" "rpc.gssd's machine credential" || return
}
t krb5-real-mount-krb5-krb5i krb5_real_single krb5 krb5i
t krb5-real-mount-krb5p krb5_real_single krb5p

# refuse: a sec=sys nconnect=4 mount set up the NFSv4.1 client; sec=krb5 there is refused
# (the client would not change); on an NFS client of its own (NFSv4.2) with one connection
# it is allowed and works
krb5_real_refused() {
	local a b
	need_helper || return
	krb5_setup || return
	a=$(mp a) b=$(mp b)
	conf "[global]" "krb5_policy = refuse"
	hrun $SRV:/export/a "$a" -o vers=4.1,sec=sys,nconnect=4
	status_is 0 || return
	hrun $SRV:/export/b "$b" -o vers=4.1,sec=krb5
	status_is 32 "sec=krb5 would run over the 4 connections of $a's client" || return
	out_has refusing || return
	not_mounted "$b" || return
	servers_is 1 "mount.nfs never ran" || return
	hrun $SRV:/export/b "$b" -o vers=4.2,sec=krb5
	gssd_why
	status_is 0 "an NFS client of its own" || return
	out_lacks refusing || return
	mounted "$b" || return
	sec_is "$b" krb5 || return
	xprt_is "$b" 1 || return
	nconn_is "$a" 4 || return
	xprt_is "$a" 4 || return
	servers_is 2 "NFSv4.1 with 4 connections, NFSv4.2 with one" || return
	rw_as_root "$b" b root-own-client
}
t krb5-real-refused-then-own-client krb5_real_refused

# warn (the default): sec=krb5i/krb5p joins the NFSv4.1 client a sec=sys nconnect=4 mount set
# up; the kernel runs it over the 4 connections (one NFS client, the flavour per mount), and
# nfs-tuned status says so
krb5_real_warn_status() { # SEC
	local a b
	need_status || return
	krb5_setup || return
	a=$(mp a) b=$(mp b)
	hrun $SRV:/export/a "$a" -o vers=4.1,sec=sys,nconnect=4
	status_is 0 || return
	hrun -v $SRV:/export/b "$b" -o "vers=4.1,sec=$1"
	gssd_why
	krb5p_broken "$1" && return 77
	status_is 0 "krb5_policy = warn (default)" || return
	out_has "warning: sec=$1 on an NFS client with 4 connections (inherited from $a" || return
	mounted "$b" || return
	sec_is "$a" sys || return
	sec_is "$b" "$1" || return
	nconn_is "$b" 4 "inherited from $a" || return
	xprt_is "$b" 4 "sec=$1 over 4 connections" || return
	servers_is 1 "sec=sys and sec=$1 share one NFS client" || return
	rw_as_root "$b" b "root-$1-4-connections" || return
	srun
	status_is 1 "a finding" || return
	out_has "warning: [krb5-multi-connection] $b uses sec=$1 over 4 connections (its NFS client was set up by $a with nconnect=4)" || return
	value_is "findings" "$(printf '%s\n' "$OUT" | grep -c '^nfs-tuned: warning: \[')" 1 "nothing else" || return
}
t krb5i-real-warn-status krb5_real_warn_status krb5i
t krb5p-real-warn-status krb5_real_warn_status krb5p

krb5_stop
