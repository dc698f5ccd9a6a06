# Scenario: which mounts share an NFS client (DESIGN.md "Policies", "When a new mount shares
# an existing NFS client"), all through the helper:
# two host names of one address conflict; another port, version or minor version does
# not; a mount in another network namespace does not count.

two_names() { # VERS POLICY
	local a b
	need_helper || return
	a=$(mp a) b=$(mp b)
	printf '%s\tnfsa nfsa.lab\n%s\tnfsb\n' $SRV $SRV >>/etc/hosts
	conf "[global]" "nconnect_policy = $2"
	hrun nfsa:/export/a "$a" -o "vers=$1,nconnect=4"
	status_is 0 || return
	hrun nfsb:/export/b "$b" -o "vers=$1,nconnect=8"
	if [ "$2" = refuse ]; then
		status_is 32 "nfsb is the same address as nfsa" || return
		out_has refusing || return
		not_mounted "$b" || return
	else
		status_is 0 || return
		out_has 'warning:' "nfsb is the same address as nfsa" || return
		nconn_is "$b" 4 "the kernel shares nfsa's client" || return
		xprt_is "$b" 4 || return
		[ "$(mi_opt "$b" addr)" = $SRV ] || fail "addr= of $b is $(mi_opt "$b" addr)" || return
	fi
	servers_is 1 || return
}
t two-names-v3-refuse two_names 3 refuse
t two-names-v4.1-warn two_names 4.1 warn

# no conflict: the second mount gets a client of its own and its own nconnect
separate() { # OPTS1 OPTS2
	local a b
	need_helper || return
	a=$(mp a) b=$(mp b)
	conf "[global]" "nconnect_policy = refuse"
	hrun $SRV:/export/a "$a" -o "$1,nconnect=4"
	status_is 0 || return
	hrun $SRV:/export/b "$b" -o "$2,nconnect=8"
	status_is 0 "not the same client: no conflict" || return
	out_quiet || return
	nconn_is "$b" 8 || return
	xprt_is "$b" 8 || return
	nconn_is "$a" 4 || return
	servers_is 2 || return
}
t other-port-v3 separate vers=3,proto=tcp,mountport=20048 vers=3,$V3PORT2
t other-version separate vers=3 vers=4.1
t other-minor-version separate vers=4.1 vers=4.2
t other-minor-version-4.0 separate vers=4.2 vers=4.0

# NFSv4.1 on another port: no conflict predicted (another port is another client), but
# trunking discovery merges it into the first client; the helper must say so afterwards
port_v41() {
	local a b n
	need_helper || return
	a=$(mp a) b=$(mp b)
	conf "[global]" "nconnect_policy = refuse"
	hrun $SRV:/export/a "$a" -o vers=4.1,nconnect=4
	status_is 0 || return
	hrun $SRV:/export/b "$b" -o vers=4.1,port=$SRVPORT2,nconnect=8
	status_is 0 "no conflict can be predicted for another port" || return
	n=$(mi_opt "$b" nconnect)
	log "  kernel: nconnect=$n xprts=$(xprts "$b") servers=$(nfs_servers)"
	if [ "$n" != 8 ]; then
		out_has 'warning:' "the kernel gave nconnect=$n, not 8: the verification must report it" || return
		out_has 'nconnect' || return
	else
		out_quiet || return
	fi
}
t other-port-v4.1-trunked port_v41

# a client in another network namespace does not count: mount there with nconnect=4,
# then (still seeing that mount in our mountinfo) mount from the root netns with 8
netns() {
	local a b
	need_helper || return
	a=$(mp a) b=$(mp b)
	conf "[global]" "nconnect_policy = refuse"
	xrun ip netns exec other bash -c "
		$H $SRV:/export/a $a -o vers=4.1,nconnect=4 || exit 10
		grep -q ' $a .*nconnect=4' /proc/self/mountinfo || exit 11
		nsenter --net=/proc/1/ns/net $H $SRV:/export/b $b -o vers=4.1,nconnect=8; rc=\$?
		echo rc=\$rc
		grep -E ' $b ' /proc/self/mountinfo
		awk '\$1==\"device\"{d=\$5} \$1==\"xprt:\" && d==\"$b\" {n++} END{print \"xprt=\" n}' /proc/self/mountstats
		umount $b; umount $a"
	status_is 0 "the helper inside the other netns" || return
	out_matches '^rc=0$' "a client of another netns is no conflict" || return
	out_no_match 'refusing|warning:' || return
	out_matches "$b .*nconnect=8" "the root netns mount got its own client" || return
	out_matches '^xprt=8$' || return
}
t other-netns-not-counted netns

# and the other way round: a root-netns client (NFSv3, seen in the mountinfo there) does not
# affect a mount in another netns (NFSv3 without locking: no statd there)
netns2() {
	local a b
	need_helper || return
	a=$(mp a) b=$(mp b)
	conf "[global]" "nconnect_policy = refuse"
	hrun $SRV:/export/a "$a" -o vers=3,nconnect=4
	status_is 0 || return
	# the other netns's mount namespace (ip netns exec) is a copy of ours: it sees $a
	xrun ip netns exec other bash -c "grep -q ' $a ' /proc/self/mountinfo || exit 10
		$H $SRV:/export/b $b -o vers=3,nolock,nconnect=2 && grep -E ' $b ' /proc/self/mountinfo; umount $b"
	status_is 0 "the root netns's client is not this netns's" || return
	out_no_match 'refusing|warning:' || return
	out_matches "$b .*nconnect=2" || return
}
t root-netns-not-counted-in-other netns2
