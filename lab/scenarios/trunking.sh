# Scenario: post-mount verification. A second address of the same server ($SRV2 on the
# server's veth): NFSv3 gets a client of its own; NFSv4.1 trunking discovery may merge the
# mount into the first address's client. The helper cannot predict that; it must report
# what really happened (mountinfo addr= / nconnect= differing from the plan).

second_addr() { # VERS N1 N2 POLICY
	local a b addr n
	need_helper || return
	a=$(mp a) b=$(mp b)
	conf "[global]" "nconnect_policy = $4"
	hrun $SRV:/export/a "$a" -o "vers=$1,nconnect=$2"
	status_is 0 || return
	hrun $SRV2:/export/b "$b" -o "vers=$1${3:+,nconnect=$3}"
	status_is 0 "another address: no conflict can be predicted" || return
	mounted "$b" || return
	addr=$(mi_opt "$b" addr) n=$(mi_opt "$b" nconnect)
	log "  kernel: $b addr=$addr nconnect=$n xprts=$(xprts "$b") servers=$(nfs_servers)"
	if [ "$addr" != "$SRV2" ]; then
		# merged into the first client: the helper must say so
		out_has 'warning:' "the kernel used addr=$addr, not $SRV2" || return
		out_matches "$addr|addr" "the warning names the address" || return
		[ -z "$3" ] || [ "${n:-1}" = "$3" ] || out_has 'nconnect' "nconnect=$n, not $3" || return
	else
		# a client of its own: as planned, quiet
		nconn_is "$b" "$3" || return
		xprt_is "$b" "${3:-1}" || return
		out_quiet "the plan held" || return
	fi
}
t v3-second-address-own-client second_addr 3 4 2 warn
t v4.1-second-address-nconnect2 second_addr 4.1 4 2 warn
t v4.1-second-address-refuse-policy second_addr 4.1 4 8 refuse
t v4.1-second-address-no-nconnect second_addr 4.1 4 "" warn

# the same with -v: the verification's findings are printed
second_addr_v() {
	local a b
	need_helper || return
	a=$(mp a) b=$(mp b)
	hrun $SRV:/export/a "$a" -o vers=4.1,nconnect=4
	status_is 0 || return
	hrun -v $SRV2:/export/b "$b" -o vers=4.1,nconnect=2
	status_is 0 || return
	out_matches '(^|: )verdict:' || return
	out_matches "$(mi_opt "$b" addr)" "the real address appears" || return
}
t v4.1-second-address-verbose second_addr_v

# version left to negotiation: no prediction before the mount (the server offers 4.2, so
# the mount shares the 4.2 client); the verification reports the inherited nconnect
negotiated() { # POLICY
	local a b n
	need_helper || return
	a=$(mp a) b=$(mp b)
	conf "[global]" "nconnect_policy = $1"
	hrun $SRV:/export/a "$a" -o vers=4.2,nconnect=4
	status_is 0 || return
	hrun $SRV:/export/b "$b" -o nconnect=8
	status_is 0 "no version: no prediction, the mount goes ahead" || return
	mounted "$b" || return
	n=$(mi_opt "$b" nconnect)
	log "  kernel: $b vers=$(mi_opt "$b" vers) nconnect=$n xprts=$(xprts "$b")"
	if [ "$n" != 8 ]; then
		out_has 'warning:' "the kernel gave nconnect=$n, not 8 (vers=$(mi_opt "$b" vers))" || return
		out_has 'nconnect' || return
	else
		out_quiet || return
	fi
}
t negotiated-version-warn negotiated warn
t negotiated-version-refuse negotiated refuse
