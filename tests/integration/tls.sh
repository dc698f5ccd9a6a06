#!/bin/bash
# Integration cases, TLS: a TLS mount beside a plain one (NFSv4 folds them into one client),
# refuse and warn, the plan, the claim's key, the udev mode.
# How a file of cases runs: mount-lib.sh.
. "$(dirname "${BASH_SOURCE[0]}")/mount-lib.sh"

tc_tls_beside_plain_refused() {
	plain_first 4.1
	run 10.99.0.1:/b "$DIR" -o vers=4.1,xprtsec=tls
	status_is 32; mount_nfs_not_run
	out_has "mount.nfs-tuned: refusing to mount: xprtsec=tls would land on the NFS client for 10.99.0.1 port 2049, NFSv4.1 over tcp, set up by $T/mnt/a (10.99.0.1:/a), which has no TLS; lacking: encryption and integrity protection"
	out_has "unmount the mounts of that client first, or mount with vers=3 or through another server address"
	grep -q " $DIR " "$T/mountinfo" && fail "mounted: $(cat "$T/mountinfo")"
	# mtls beside a tls client: the certificate is what it lacks
	no_clients
	plain_first 4.2,xprtsec=tls
	run 10.99.0.1:/b "$DIR" -o vers=4.2,xprtsec=mtls
	status_is 32; mount_nfs_not_run
	out_has "which has xprtsec=tls; lacking: the client certificate it asked to present"
}
tc_tls_beside_plain_warn() {
	conf "tls_policy = warn"
	plain_first 4.0
	run 10.99.0.1:/b "$DIR" -o vers=4.0,xprtsec=tls
	status_is 0; mount_nfs_ran
	out_has "mount.nfs-tuned: warning: xprtsec=tls would land on the NFS client for 10.99.0.1 port 2049, NFSv4.0 over tcp"
	out_has "tls_policy = refuse prevents it"
	# the kernel did fold it: the verification says so, and the mount stays
	out_has "warning: $DIR asked for xprtsec=tls but its mountinfo shows no xprtsec=: the kernel folded it into the existing NFS client of 10.99.0.1 (NFSv4.0), $T/mnt/a (10.99.0.1:/a)"
	out_has "the mount stays (tls_policy = warn)"
	grep -q " $DIR " "$T/mountinfo" || fail "not mounted: $(cat "$T/mountinfo")"
	argv_all | grep -q umount && fail "unmounted: $(argv_all)"
	return 0
}
tc_tls_folded_unexpectedly_unmounted() {
	# a client the plan could not see (made between the survey and the mount): the kernel folds
	# the TLS mount into it; under refuse the helper unmounts it and fails
	export STUB_KERNEL=$T/clients
	echo "10.99.0.1 4.1 1 none" > "$T/clients"
	run 10.99.0.1:/b "$DIR" -o vers=4.1,xprtsec=tls
	status_is 32; mount_nfs_ran
	out_has "mount.nfs-tuned: $DIR asked for xprtsec=tls but its mountinfo shows no xprtsec=: it landed on an NFS client of 10.99.0.1 (NFSv4.1), which a mount made meanwhile (a race)"
	out_has "its first requests already went that way; unmounting it (tls_policy = refuse)"
	out_has "unmounted $DIR: it did not get the TLS it asked for"
	value_is "second run" "$(sed -n '/^--$/,$p' "$T/stub/argv" | tr '\n' ' ')" "-- umount.nfs4 $DIR -- "
	grep -q " $DIR " "$T/mountinfo" && fail "still mounted: $(cat "$T/mountinfo")"
	ls "$T/run/mounts/" 2>/dev/null | grep -q . && fail "a record is left: $(ls "$T/run/mounts/")"
	# umount.nfs fails: said, still exit 32
	: > "$T/mountinfo"
	STUB_UMOUNT_EXIT=16 run 10.99.0.1:/b "$DIR" -o vers=4.1,xprtsec=tls
	status_is 32; out_has "cannot unmount $DIR ($STUB umount.nfs4 exited 16): it stays mounted without the TLS it asked for; unmount it: umount $DIR"
	# under warn: kept
	: > "$T/mountinfo"; conf "tls_policy = warn"
	run 10.99.0.1:/b "$DIR" -o vers=4.1,xprtsec=tls
	status_is 0; out_has "the mount stays (tls_policy = warn)"
	grep -q " $DIR " "$T/mountinfo" || fail "not mounted"
	return 0
}
tc_tls_plan() {
	plain_first 4.1
	run 10.99.0.1:/b "$DIR" -f -v -o vers=4.1,xprtsec=tls
	status_is 32; mount_nfs_not_run
	out_has "endpoint: 10.99.0.1:/b -> 10.99.0.1 (mount.nfs uses 10.99.0.1), port 2049, NFSv4.1 over tcp, xprtsec"
	out_has "client: 10.99.0.1 port 2049, NFSv4.1 over tcp: nconnect=1, $T/mnt/a (10.99.0.1:/a) <- another TLS policy, but NFSv4 trunking folds this mount into it"
	out_has "verdict: shares a client; nconnect: none; krb5: none; connections: 1; tls: refuse (asks tls, gets none)"
	# a plain mount beside a TLS client lands on it: said as sharing, nothing refused
	no_clients
	plain_first 4.1,xprtsec=tls
	run 10.99.0.1:/b "$DIR" -f -v -o vers=4.1,nconnect=4
	status_is 0
	out_has "client: 10.99.0.1 port 2049, NFSv4.1 over tcp with xprtsec=tls: nconnect=1, $T/mnt/a (10.99.0.1:/a) <- another TLS policy, but NFSv4 trunking folds this mount into it"
	out_has "warning: nconnect=4 cannot take effect: this mount shares the NFS client for 10.99.0.1 port 2049, NFSv4.1 over tcp with xprtsec=tls"
	out_has "tls: none (asks none, gets tls)"
}
tc_tls_nfsv3_separate() {
	plain_first 3
	run 10.99.0.1:/b "$DIR" -v -o vers=3,xprtsec=tls
	status_is 0; mount_nfs_ran; out_lacks "warning"; out_lacks "error"
	out_has "(other port, protocol or TLS policy: separate)"
	grep " $DIR " "$T/mountinfo" | grep -q "xprtsec=tls" || fail "no xprtsec=tls: $(cat "$T/mountinfo")"
}
tc_tls_nfsv3_claim_key() {
	# NFSv3 keeps TLS policies apart: the TLS mount's claim is a key of its own
	needs_root_claims
	plain_first 3
	run 10.99.0.1:/b "$DIR" -v -o vers=3,xprtsec=tls
	status_is 0; out_has "claim: net"; out_has "-10.99.0.1-2049-tcp-v3-tls: this mount creates the client"
}
tc_tls_claim_one_key() {
	# NFSv4 folds TLS policies: a plain mount's live claim is the TLS mount's key too
	needs_root_claims
	export STUB_KERNEL=$T/clients
	mkdir -p "$T/run/clients"
	key=$(printf 'net%s-10.99.0.1-2049-tcp-v4.1' "$(stat -L -c %i /proc/self/ns/net)")
	put_claim "$T/run/clients/$key.claim" '# nfs-tuned client claim 1\npid=1\nnconnect=1\nxprtsec=none\ntarget=/mnt/live\nspec=10.99.0.1:/live\n'
	flock "$T/run/clients/$key.claim" sleep 3 &
	local holder=$!
	locked "$T/run/clients/$key.claim"
	run 10.99.0.1:/b "$DIR" -o vers=4.1,xprtsec=tls
	kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null
	status_is 32; mount_nfs_not_run
	out_has "refusing to mount: xprtsec=tls would land on the NFS client for 10.99.0.1 port 2049, NFSv4.1 over tcp, set up by /mnt/live (10.99.0.1:/live), which has no TLS"
}
tc_udev_bdi_tls() {
	# a bg TLS mount that lands later on a plain client: the udev mode says so (its record)
	needs_root_udev
	run 10.99.0.1:/e "$DIR" -o vers=4.1,xprtsec=tls,bg
	status_is 0
	grep -q "^xprtsec=tls$" "$T/run/mounts/"* || fail "record: $(cat "$T/run/mounts/"*)"
	echo "60 21 0:60 / $DIR rw,relatime - nfs4 10.99.0.1:/e rw,vers=4.1,rsize=1048576,hard,proto=tcp,sec=sys,addr=10.99.0.1" > "$T/mountinfo"
	run --udev-bdi 0:60
	out_has "bg mount $DIR (10.99.0.1:/e) asked for xprtsec=tls but landed on an NFS client of server 10.99.0.1 with no TLS"
	out_has "lacking: encryption and integrity protection"
}

run_cases "$@"
