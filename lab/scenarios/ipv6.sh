# Scenario: an IPv6 server address ($SRV6): the client identity from mountinfo and from
# /proc/fs/nfsfs (hex IPv6), a CIDR [server] section over IPv6, the policy.

v6_conflict() { # VERS
	local a b
	need_helper || return
	a=$(mp a) b=$(mp b)
	conf "[global]" "nconnect_policy = refuse"
	hrun "[$SRV6]:/export/a" "$a" -o "vers=$1,nconnect=4"
	status_is 0 || return
	[ "$(mi_opt "$a" addr)" = $SRV6 ] || fail "addr=$(mi_opt "$a" addr), expected $SRV6" || return
	nconn_is "$a" 4 || return
	xprt_is "$a" 4 || return
	hrun "[$SRV6]:/export/b" "$b" -o "vers=$1,nconnect=8"
	status_is 32 "the IPv6 client has nconnect=4" || return
	out_has refusing || return
	not_mounted "$b" || return
	# the IPv4 address of the same server is another client for NFSv3; NFSv4.1 trunking
	# merges it into the IPv6 client, which the helper must report
	hrun $SRV:/export/b "$b" -o "vers=$1,nconnect=8"
	status_is 0 "IPv4 is another address" || return
	if [ "$1" = 3 ]; then
		nconn_is "$b" 8 || return
		out_quiet || return
	elif [ "$(mi_opt "$b" nconnect)" != 8 ]; then
		out_has 'warning:' "merged by trunking (addr=$(mi_opt "$b" addr) nconnect=$(mi_opt "$b" nconnect))" || return
	fi
}
t v3-conflict v6_conflict 3
t v4.1-conflict v6_conflict 4.1

v6_cidr() {
	local a
	need_helper || return
	a=$(mp a)
	conf "[server \"fd99::/64\"]" "nconnect = 3" "read_ahead_kb = 3072"
	hrun "[$SRV6]:/export/a" "$a" -o vers=4.2
	status_is 0 || return
	nconn_is "$a" 3 "the [server \"fd99::/64\"] section applies" || return
	[ "$(ra_of "$a")" = 3072 ] || fail "read_ahead_kb $(ra_of "$a"), expected 3072" || return
}
t cidr-section v6_cidr

# a client that only /proc/fs/nfsfs shows (mounted in another mount namespace of this
# netns): the helper cannot read its nconnect there, but must still see the client
v6_hidden() {
	local a b pid
	need_helper || return
	a=$(mp a) b=$(mp b)
	conf "[global]" "nconnect_policy = warn"
	unshare -m --propagation private sh -c "mount.nfs '[$SRV6]:/export/a' $a -o vers=3,nconnect=4 && exec sleep 120" &
	pid=$!
	for i in $(seq 1 50); do [ "$(nfs_servers)" = 1 ] && break; sleep 0.2; done
	hrun -v "[$SRV6]:/export/b" "$b" -o vers=3,nconnect=8
	log "  nfsfs: $(tail -n +2 /proc/fs/nfsfs/servers | tr '\n' ';')"
	local n=$(mi_opt "$b" nconnect)
	kill $pid; wait $pid 2>/dev/null
	status_is 0 || return
	out_matches '(^|: )client:' || return
	[ "$n" = 4 ] || fail "kernel nconnect=$n for the shared hidden client" || return
	out_has 'warning:' "the kernel gave nconnect=4, not 8" || return
}
t hidden-client-other-mount-namespace v6_hidden
