# Scenario: the kernel facts the helper is built on, seen with the real /sbin/mount.nfs
# (no helper involved). If these fail, the lab itself is broken.

# nconnect of the first mount wins for every later mount of the same client
k_first_wins() { # VERS FIRST SECOND EXPECT_NCONN EXPECT_XPRT
	local v=$1 a b
	a=$(mp a) b=$(mp b)
	xrun mount.nfs $SRV:/export/a "$a" -o "vers=$v${2:+,$2}"
	status_is 0 "first mount" || return
	xrun mount.nfs $SRV:/export/b "$b" -o "vers=$v${3:+,$3}"
	status_is 0 "second mount" || return
	nconn_is "$a" "$4" || return
	nconn_is "$b" "$4" "second mount shares the client" || return
	xprt_is "$a" "$5" || return
	xprt_is "$b" "$5" || return
	servers_is 1 || return
}
t v3-nconnect4-then-none k_first_wins 3 nconnect=4 "" 4 4
t v3-none-then-nconnect8 k_first_wins 3 "" nconnect=8 "" 1
t v4.1-nconnect4-then-none k_first_wins 4.1 nconnect=4 "" 4 4
t v4.1-none-then-nconnect8 k_first_wins 4.1 "" nconnect=8 "" 1

# port, version, minor version separate clients
k_separate() { # DESCR OPTS1 OPTS2
	local a b
	a=$(mp a) b=$(mp b)
	xrun mount.nfs $SRV:/export/a "$a" -o "$2,nconnect=4"
	status_is 0 || return
	xrun mount.nfs $SRV:/export/b "$b" -o "$3,nconnect=8"
	status_is 0 || return
	nconn_is "$b" 8 "$1: a client of its own" || return
	xprt_is "$b" 8 || return
	servers_is 2 || return
}
t port-separates-v3 k_separate port vers=3,proto=tcp,mountport=20048 vers=3,$V3PORT2
t version-separates k_separate version vers=3 vers=4.1
t minor-separates k_separate minor vers=4.1 vers=4.2

# a client in another network namespace is not shared (nor listed in our nfsfs)
k_netns() {
	local a b
	a=$(mp a) b=$(mp b)
	xrun ip netns exec other sh -c "mount.nfs $SRV:/export/a $a -o vers=4.1,nconnect=4 &&
		grep -c . /proc/fs/nfsfs/servers && nsenter --net=/proc/1/ns/net mount.nfs $SRV:/export/b $b -o vers=4.1,nconnect=8 &&
		nsenter --net=/proc/1/ns/net cat /proc/fs/nfsfs/servers && grep -E ' $a | $b ' /proc/self/mountinfo &&
		awk '\$1==\"device\"{d=\$5} \$1==\"xprt:\"{n[d]++} END{for(k in n) print k, n[k]}' /proc/self/mountstats"
	status_is 0 || return
	out_matches "$b .*nconnect=8" "the other netns's nconnect=4 is not inherited" || return
	out_matches "^$b 8$" || return
}
t netns-separates k_netns

k_netns3() {
	local a b
	a=$(mp a) b=$(mp b)
	xrun mount.nfs $SRV:/export/a "$a" -o vers=3,nconnect=4
	status_is 0 || return
	xrun ip netns exec other sh -c "grep -q ' $a .*nconnect=4' /proc/self/mountinfo || exit 10
		mount.nfs $SRV:/export/b $b -o vers=3,nolock,nconnect=2 && grep -E ' $b ' /proc/self/mountinfo; umount $b"
	status_is 0 || return
	out_matches "$b .*nconnect=2" "the root netns's NFSv3 client is not shared" || return
}
t netns-separates-v3 k_netns3

# the bdi of a new superblock starts at 128 KiB and can be written; a second mount of
# the same export shares the superblock (same maj:min)
k_bdi() {
	local a a2 dev
	a=$(mp a) a2=$(mp a2)
	xrun mount.nfs $SRV:/export/a "$a" -o vers=3
	status_is 0 || return
	dev=$(mi_dev "$a")
	[ "$(ra_of "$a")" = 128 ] || fail "read_ahead_kb of $dev is $(ra_of "$a"), expected 128" || return
	echo 4096 >"/sys/class/bdi/$dev/read_ahead_kb" || fail "cannot write read_ahead_kb" || return
	[ "$(ra_of "$a")" = 4096 ] || fail "read_ahead_kb did not take 4096" || return
	xrun mount.nfs $SRV:/export/a "$a2" -o vers=3
	status_is 0 || return
	[ "$(mi_dev "$a2")" = "$dev" ] || fail "second mount of the export got $(mi_dev "$a2"), not the shared $dev" || return
	[ "$(ra_of "$a2")" = 4096 ] || fail "shared bdi reads $(ra_of "$a2")" || return
}
t bdi-readahead k_bdi

# NFSv4.1 to another port of the same server: a client of its own at first, then
# trunking discovery finds the same server owner and merges it into the first client
k_port_v41() {
	local a b
	a=$(mp a) b=$(mp b)
	xrun mount.nfs $SRV:/export/a "$a" -o vers=4.1,nconnect=4
	status_is 0 || return
	xrun mount.nfs $SRV:/export/b "$b" -o vers=4.1,port=$SRVPORT2,nconnect=8
	status_is 0 || return
	echo "  kernel: v4.1 mount on port $SRVPORT2 after 2049 shows nconnect=$(mi_opt "$b" nconnect) port=$(mi_opt "$b" port), $(nfs_servers) client(s)"
	return 0
}
t port-v4.1-trunking k_port_v41

# a second server address: NFSv3 makes a client of its own; NFSv4.1 trunking may merge
k_second_addr() {
	local a b addr
	a=$(mp a) b=$(mp b)
	xrun mount.nfs $SRV:/export/a "$a" -o vers=4.1,nconnect=4
	status_is 0 || return
	xrun mount.nfs $SRV2:/export/b "$b" -o vers=4.1,nconnect=2
	status_is 0 || return
	addr=$(mi_opt "$b" addr)
	log "  second address mounted: addr=$addr nconnect=$(mi_opt "$b" nconnect) xprts=$(xprts "$b") servers=$(nfs_servers)"
	echo "  kernel: v4.1 mount of $SRV2 after $SRV shows addr=$addr nconnect=$(mi_opt "$b" nconnect), $(nfs_servers) client(s)"
	return 0
}
t second-address-v4.1 k_second_addr
