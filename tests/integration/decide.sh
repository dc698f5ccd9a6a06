#!/bin/bash
# Integration cases, survey and decide: the clients a mount would share (mountinfo, nfsfs,
# hidden and other namespaces' clients), the policies' verdicts, the dry run's plan.
# How a file of cases runs: mount-lib.sh.
. "$(dirname "${BASH_SOURCE[0]}")/mount-lib.sh"

tc_dry_run_plan() {
	fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
	conf '[global]' 'read_ahead_kb = 15360'
	run 10.99.0.1:/export/b "$DIR" -f -v -o vers=3,nconnect=8
	status_is 0; mount_nfs_not_run
	for l in "endpoint: 10.99.0.1:/export/b -> 10.99.0.1" "client: 10.99.0.1 port 2049, NFSv3 over tcp: nconnect=4" \
			 "/mnt/a (filer:/export/a), /mnt/a2 (10.99.0.1:/export/a) <- this mount shares it" \
			 "verdict: shares a client; nconnect: warn" "exec: $STUB 10.99.0.1:/export/b $DIR -v -o vers=3,nconnect=8 (as mount.nfs)" \
			 "read-ahead: 15360 KiB" "config: read_ahead_kb=15360 from $T/conf:2"; do out_has "$l"; done
}
tc_dry_run_quiet() {
	fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
	run 10.99.0.1:/export/b "$DIR" -f -o vers=3,nconnect=4
	status_is 0; mount_nfs_not_run; out_quiet
}
tc_conflict_warn() {
	fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
	newmount 0:53 "${V3NEW/hard,/hard,nconnect=4,}"
	run 10.99.0.1:/export/b "$DIR" -o vers=3,nconnect=8
	status_is 0; mount_nfs_ran; opts_has nconnect=8
	out_has "mount.nfs-tuned: warning: nconnect=8 cannot take effect"
	out_has "/mnt/a (filer:/export/a)"; out_has "which has 4 connections (nconnect=4)"
	out_has "unmount every mount of that client first"
	# verification agrees with the plan (4 connections): no second warning
	value_is "number of warnings" "$(grep -c warning "$T/err")" 1
}
tc_conflict_refuse() {
	fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
	conf '[server "10.99.0.0/16"]' 'nconnect_policy = refuse'
	run 10.99.0.1:/export/b "$DIR" -o vers=3,nconnect=8
	status_is 32; mount_nfs_not_run
	out_has "refusing to mount: nconnect=8 cannot take effect"; out_has "/mnt/a (filer:/export/a)"
}
tc_conflict_follow() {
	fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
	conf 'nconnect_policy = follow'
	run 10.99.0.1:/export/b "$DIR" -o vers=3,nconnect=8,hard
	status_is 0; mount_nfs_ran; opts_lacks 'nconnect=[0-9]*'; opts_has hard
	out_has "following the existing client: nconnect=8 cannot take effect"
}
tc_config_default_follows_quietly() {
	fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
	conf '[global]' 'nconnect = 8'
	newmount 0:53 "${V3NEW/hard,/hard,nconnect=4,}"
	run 10.99.0.1:/export/b "$DIR" -o vers=3
	status_is 0; mount_nfs_ran; opts_lacks 'nconnect=[0-9]*'; out_quiet
	run 10.99.0.1:/export/b "$DIR" -v -f -o vers=3
	out_has "nconnect: follow (quiet)"; out_has "the configured default nconnect is dropped"
	# the same default on a new client is used
	: > "$T/mountinfo"; : > "$T/nfsfs/servers"
	newmount 0:60 "${V3NEW/hard,/hard,nconnect=8,}"
	run 10.99.0.1:/export/b "$DIR" -o vers=3
	status_is 0; opts_has nconnect=8
}
tc_same_nconnect_silent() {
	fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
	newmount 0:53 "${V3NEW/hard,/hard,nconnect=4,}"
	run 10.99.0.1:/export/b "$DIR" -o vers=3,nconnect=4
	status_is 0; mount_nfs_ran; out_quiet
}
tc_no_conflict_other_port_version_proto() {
	fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
	conf 'nconnect_policy = refuse'
	for o in vers=3,port=2050 vers=4.1 vers=4.2 vers=3,proto=rdma vers=3,proto=udp; do
		run 10.99.0.1:/export/b "$DIR" -f -o "$o,nconnect=8"
		status_is 0; out_lacks refusing
	done
	# port=2049 is the default: the same client
	run 10.99.0.1:/export/b "$DIR" -f -o vers=3,port=2049,nconnect=8
	status_is 32
}
tc_minor_version_separate() {
	fixture mountinfo-v41-loopback
	conf 'nconnect_policy = refuse'
	run 127.0.0.1:/x "$DIR" -f -o vers=4.2,nconnect=8
	status_is 0
	run 127.0.0.1:/x "$DIR" -f -o vers=4,minorversion=1,nconnect=8
	status_is 32; out_has "NFSv4.1 over tcp"
	run 127.0.0.1:/x "$DIR" -f -t nfs4 -o v4.1,nconnect=8
	status_is 32
}
tc_hostname_same_address() {
	fixture mountinfo-v41-loopback
	conf 'nconnect_policy = refuse'
	# localhost resolves to 127.0.0.1; proto=tcp keeps IPv4 as mount.nfs does
	run localhost:/y "$DIR" -f -o vers=4.1,proto=tcp,nconnect=4
	status_is 32; out_has "127.0.0.1 port 2049, NFSv4.1 over tcp with /mnt/lo (127.0.0.1:/)"
	# the bare tcp flag means proto=tcp in mount.nfs: IPv4 too
	run localhost:/y "$DIR" -f -o vers=4.1,tcp,nconnect=4
	status_is 32; out_has "with /mnt/lo (127.0.0.1:/)"
}
tc_other_network_namespace() {
	# /mnt/v6 shows in this mount table, but this netns has no client to fd00::1: it was
	# mounted from another network namespace, whose clients are separate
	fixture mountinfo-v41-loopback
	cp "$FIXTURES/nfsfs-servers-other-netns" "$T/nfsfs/servers"
	conf 'nconnect_policy = refuse'
	run "[fd00::1]:/z" "$DIR" -f -v -o vers=4.2,nconnect=4
	status_is 0; out_has "(made from another network namespace: separate)"
	out_has "verdict: new client"
	run 127.0.0.1:/z "$DIR" -f -o vers=4.1,nconnect=4
	status_is 32
}
tc_ipv6_literal() {
	fixture mountinfo-v41-loopback
	conf 'nconnect_policy = refuse' '[server "fd00::/8"]' 'krb5_policy = refuse'
	run "[fd00::1]:/z" "$DIR" -f -o vers=4.2,nconnect=4
	status_is 32; out_has "fd00::1 port 2049, NFSv4.2 over tcp with /mnt/v6 ([fd00::1]:/)"
	run "[fd00::1]:/z" "$DIR" -f -o vers=4.2,nconnect=2,sec=krb5
	status_is 32; out_has "refusing to mount: sec=krb5 on an NFS client with 2 connections (inherited from /mnt/v6"
}
tc_hidden_client() {
	fixture mountinfo-v3-nconnect4 nfsfs-servers-hidden nfsfs-volumes-hidden
	run 10.99.0.2:/export/c "$DIR" -f -o vers=3,nconnect=4
	status_is 0; out_has "no mount of this mount namespace shows it"
	conf 'nconnect_policy = refuse'
	run 10.99.0.2:/export/c "$DIR" -f -o vers=3,nconnect=4
	status_is 32; out_has "refusing to mount: nconnect=4 cannot take effect"
	# a config default meeting a hidden client is followed quietly, and the verification
	# does not take the unknown nconnect for a race
	conf 'nconnect = 8'
	newmount 0:71 "${V3NEW//10.99.0.1/10.99.0.2}"
	run 10.99.0.2:/export/c "$DIR" -o vers=3
	status_is 0; mount_nfs_ran; out_quiet; opts_lacks 'nconnect=[0-9]*'
	unset STUB_MOUNTINFO_LINE
	conf 'nconnect_policy = refuse'
	# NFSv4: nfsfs shows no minor version, so a hidden v4 client may be this mount's
	fixture mountinfo-v41-loopback
	cp "$FIXTURES/nfsfs-servers-v4-hidden" "$T/nfsfs/servers"
	run 10.99.0.9:/v4 "$DIR" -f -o vers=4.2,nconnect=4
	status_is 32; out_has "its NFSv4 minor version is not shown either"
	# 127.0.0.1's v4 line is the visible /mnt/lo client, not a hidden one
	run 127.0.0.1:/v4 "$DIR" -f -o vers=4.2,nconnect=4
	status_is 0; out_lacks "no mount of this mount namespace"
	fixture mountinfo-v3-nconnect4 nfsfs-servers-hidden nfsfs-volumes-hidden
	# the visible client's lines are accounted for: 10.99.0.1 is not hidden
	run 10.99.0.1:/export/c "$DIR" -f -o vers=3,nconnect=4
	status_is 0; out_lacks "no mount of this mount namespace"
}
tc_krb5() {
	conf '[global]' 'krb5_policy = warn'
	run 10.99.0.3:/k "$DIR" -f -o vers=4.1,sec=krb5p,nconnect=4
	status_is 0; out_has "warning: sec=krb5p on an NFS client with 4 connections (requested by this mount's nconnect)"
	out_has "one GSS context and sequence window"
	conf 'krb5_policy = refuse'
	run 10.99.0.3:/k "$DIR" -o vers=4.1,sec=krb5i,nconnect=4
	status_is 32; mount_nfs_not_run; out_has "refusing to mount: sec=krb5i"
	run 10.99.0.3:/k "$DIR" -f -o vers=4.1,sec=krb5p,nconnect=1
	status_is 0; out_lacks krb5
	# inherited: no nconnect asked, the client has 4
	fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
	run 10.99.0.1:/k "$DIR" -o vers=3,sec=krb5
	status_is 32; out_has "sec=krb5 on an NFS client with 4 connections (inherited from /mnt/a (filer:/export/a)"
}
# switch DIR ADDR PORT NXPRTS: one RPC transport switch under the fixture sysfs
switch() {
	local d=$T/sys/kernel/sunrpc/xprt-switches/$1
	mkdir -p "$d/xprt-1-tcp" "$d/xprt-2-tcp"
	printf 'num_xprts=%s\nnum_active=%s\nnum_unique_destaddr=1\nqueue_len=0\n' "$4" "$4" > "$d/xprt_switch_info"
	printf '%s\n' "$2" > "$d/xprt-1-tcp/dstaddr"; printf '%s\n' "$2" > "$d/xprt-2-tcp/dstaddr"
	# an extra transport connects lazily: until then it shows no port
	printf '<closed>\n' > "$d/xprt-1-tcp/xprt_info"
	printf 'last_used=0\ncur_cong=0\ncong_win=256\nmax_num_slots=65536\nmin_num_slots=2\nnum_reqs=2\nbinding_q_len=0\nsending_q_len=0\npending_q_len=0\nbacklog_q_len=0\nmain_xprt=1\nsrc_port=778\ndst_port=%s\n' "$3" > "$d/xprt-2-tcp/xprt_info"
}
tc_hidden_client_sunrpc() {
	# the hidden client of 10.99.0.2 has 4 transports; the visible one of 10.99.0.1 has its own
	# switch, and the lab's other RPC clients (rpcbind, another port) are not NFS's
	fixture mountinfo-v3-nconnect4 nfsfs-servers-hidden nfsfs-volumes-hidden
	switch switch-1 10.99.0.1 2049 4; switch switch-2 10.99.0.2 2049 4; switch switch-3 10.99.0.2 111 1
	run 10.99.0.2:/export/c "$DIR" -f -v -o vers=3,nconnect=4
	status_is 0; out_lacks "cannot take effect"; out_has "4 connections (sunrpc)"
	out_has "verdict: shares a client of another mount namespace; nconnect: none; krb5: none; connections: 4"
	run 10.99.0.2:/export/c "$DIR" -f -o vers=3,nconnect=8
	status_is 0; out_has "it has 4 connections (its transports in /sys/kernel/sunrpc)"
	# krb5 on it: its 4 connections are known, so the admin's refuse applies
	conf 'krb5_policy = refuse'
	run 10.99.0.2:/export/c "$DIR" -f -o vers=3,sec=krb5
	status_is 32; out_has "refusing to mount: sec=krb5 on an NFS client with 4 connections"
	# two switches that disagree for one hidden client: which is its own cannot be told
	conf ''
	switch switch-4 10.99.0.2 2049 2
	run 10.99.0.2:/export/c "$DIR" -f -o vers=3,nconnect=4
	status_is 0; out_has "cannot be read"
}
tc_shared_client_names() {
	# another storage account behind the same address shares the client: said by name
	cat > "$T/mountinfo" <<EOF2
41 21 0:60 / /mnt/acct1 rw,relatime - nfs4 acct1.file.core.windows.net:/acct1/a rw,vers=4.1,nconnect=4,addr=10.99.0.1
EOF2
	printf 'NV SERVER   PORT USE HOSTNAME\nv4 0a630001  801   1 10.99.0.1\n' > "$T/nfsfs/servers"
	conf '[server "10.99.0.1"]' 'profile = azure-files'
	mkdir -p "$T/vendor"; cp "$FIXTURES"/../../profiles/50-azure-files.conf "$T/vendor/"
	run 10.99.0.1:/acct2/b "$DIR" -f
	status_is 0
	out_has "warning: 10.99.0.1 shares the NFS client for 10.99.0.1 port 2049, NFSv4.1 over tcp with /mnt/acct1 (acct1.file.core.windows.net:/acct1/a), mounted under another server name"
	# without the profile's key: nothing said
	conf '[server "10.99.0.1"]' 'vers = 4.1' 'nconnect = 4'
	run 10.99.0.1:/acct2/b "$DIR" -f
	status_is 0; out_quiet
}

run_cases "$@"
