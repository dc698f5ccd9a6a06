#!/bin/bash
# Integration cases, parallel mounts: a mount that creates a client claims its key; joiners
# wait or go at once (doc/DESIGN.md, "Parallel mounts"); an untrusted run directory.
# How a file of cases runs: mount-lib.sh.
. "$(dirname "${BASH_SOURCE[0]}")/mount-lib.sh"

mi_nconnect() { grep " $1 " "$T/mountinfo" | grep -o 'nconnect=[0-9]*' | cut -d= -f2; }
claim_files() { ls "$T/run/clients/" 2>/dev/null | grep -v '\.lock$'; }
tc_claim_joiner_runs_at_once() {
	# B finds A's claim: it joins the client A is creating, warned, without waiting for A
	needs_root_claims
	two_at_once warn 4 8
	value_is "exit statuses" "$RC" "0 0"
	value_is "mount.nfs starts and ends" "$PATTERN" "start start end end " "the joiner did not wait"
	grep -qF "warning: nconnect=8 cannot take effect: this mount shares the NFS client for 10.99.0.1 port 2049, NFSv3 over tcp, which the mount of $T/mnt/a (10.99.0.1:/a) is creating now with nconnect=4" "$T/errB" ||
		fail "B did not report the claimed client: $(cat "$T/errB")"
	grep -q "passes nconnect=4" "$T/errB" || fail "B did not say it passes A's nconnect"
	[ -s "$T/errA" ] && fail "the claimant printed: $(cat "$T/errA")"
	value_is "A's nconnect" "$(mi_nconnect "$T/mnt/a")" 4; value_is "B's nconnect" "$(mi_nconnect "$T/mnt/b")" 4
	ls "$T/run/clients/"*-10.99.0.1-2049-tcp-v3.lock > /dev/null || fail "no lock of the client's key"
	value_is "claims left" "$(claim_files)" "" "a claim outlived its mount.nfs"
}
tc_claim_joiner_first_at_the_kernel() {
	# A claims but its mount.nfs reaches the kernel late: B's mount.nfs creates the client,
	# with A's nconnect, under every policy that mounts B
	needs_root_claims
	for pol in warn follow; do
		no_clients; rm -f "$T/stub/log" "$T/stub/argv"
		two_at_once "$pol" 2 8 STUB_KERNEL_DELAY_MS=2000
		value_is "$pol: exit statuses" "$RC" "0 0"
		value_is "$pol: the client B created" "$(cat "$T/clients")" "10.99.0.1 3 2 none"
		value_is "$pol: A's nconnect" "$(mi_nconnect "$T/mnt/a")" 2 "A's plan undone by B"
		[ -s "$T/errA" ] && fail "$pol: the claimant printed: $(cat "$T/errA")"
		argv_b=$(awk -v RS='--\n' '/10.99.0.1:\/b/' "$T/stub/argv" | tr '\n' ' ')
		grep -q -- "-o vers=3,nconnect=2 " <<<"$argv_b" && ! grep -q "nconnect=8" <<<"$argv_b" || fail "$pol: B did not pass nconnect=2: $argv_b"
	done
	grep -qF "following the existing client: nconnect=8 cannot take effect" "$T/errB" || fail "follow: B said $(cat "$T/errB")"
}
tc_claim_client_in_nfsfs_before_mountinfo() {
	# A's client is in nfsfs (the stub's kernel lists it at once) 2 s before A's mountinfo
	# line: B, once nfsfs lists it, finds a client only nfsfs shows; A's live claim says whose it is,
	# so B joins it quietly (same nconnect), under refuse too, and without waiting for A
	needs_root_claims
	export STUB_SLEEP_MS=2000 STUB_KERNEL=$T/clients
	local key; key=$(printf 'net%s-10.99.0.1-2049-tcp-v4.1' "$(stat -L -c %i /proc/self/ns/net)")
	mkdir -p "$T/mnt/a"
	for pol in warn refuse; do
		no_clients; rm -f "$T/stub/log"
		conf "nconnect_policy = $pol"
		"$HELPER" 10.99.0.1:/a "$T/mnt/a" -o vers=4.1,nconnect=2 2> "$T/errA" &
		local p1=$!
		until_true "$pol: A's client in nfsfs" grep -q '^v4 0a630001' "$T/nfsfs/servers"
		[ ! -s "$T/mountinfo" ] ||
			fail "$pol: the window is not there (nfsfs: $(cat "$T/nfsfs/servers" 2>&1), mountinfo: $(cat "$T/mountinfo"))"
		"$HELPER" 10.99.0.1:/b "$T/mnt/b" -v -o vers=4.1,nconnect=2 2> "$T/errB"
		local r2=$?
		wait $p1; local r1=$?
		RC="$r1 $r2" OUT=$(cat "$T/errB")
		value_is "$pol: exit statuses" "$RC" "0 0"
		out_lacks "warning"; out_lacks "refusing"; out_lacks "no mount of this mount namespace shows it"
		out_has "claim: $key is claimed by pid $p1 ($T/mnt/a): this mount joins the client it creates"
		value_is "$pol: mount.nfs starts and ends" "$(awk '{print $1}' "$T/stub/log" | tr '\n' ' ')" "start start end end " "B waited for A"
		[ -s "$T/errA" ] && fail "$pol: the claimant printed: $(cat "$T/errA")"
		value_is "$pol: B's nconnect" "$(mi_nconnect "$T/mnt/b")" 2
	done
	# the same nfsfs line with no claim behind it is another mount namespace's client: joined,
	# warned as one whose nconnect cannot be read, and no claim left
	no_clients; conf "nconnect_policy = warn"
	echo "v4 0a630001  801    1 10.99.0.1" > "$T/nfsfs/servers"
	echo "10.99.0.1 4.1 4" > "$T/clients"
	run 10.99.0.1:/b "$DIR" -v -o vers=4.1,nconnect=2
	status_is 0; out_has "no mount of this mount namespace shows it"
	out_has "claim: $key: no claim: the client only /proc/fs/nfsfs shows is another mount namespace's; this mount joins it"
	value_is "claims left" "$(claim_files)" ""
}
tc_claim_other_minor_in_nfsfs() {
	# a v4.2 mount is being made (its live claim; its client in nfsfs as "v4", no mountinfo
	# line yet) when a v4.1 mount of the same server starts: that line is the v4.2 client, so
	# the v4.1 mount creates its own, quietly (at boot, fstab's mounts start at once)
	needs_root_claims
	export STUB_KERNEL=$T/clients
	local ns key41 key42 holder
	ns=$(stat -L -c %i /proc/self/ns/net)
	key41=net$ns-10.99.0.1-2049-tcp-v4.1 key42=net$ns-10.99.0.1-2049-tcp-v4.2
	conf "nconnect_policy = refuse"
	mkdir -p "$T/run/clients"
	put_claim "$T/run/clients/$key42.claim" '# nfs-tuned client claim 1\npid=1\nnconnect=8\ntarget=/mnt/a42\nspec=10.99.0.1:/a42\n'
	echo "v4 0a630001  801    1 10.99.0.1" > "$T/nfsfs/servers"
	echo "10.99.0.1 4.2 8 none" > "$T/clients"
	flock "$T/run/clients/$key42.claim" sleep 5 &
	holder=$!
	locked "$T/run/clients/$key42.claim"
	run 10.99.0.1:/b "$DIR" -v -o vers=4.1,nconnect=2
	status_is 0; out_lacks "warning"; out_lacks "refusing"
	out_has "claim: $key42 is claimed by pid 1 (/mnt/a42): the NFSv4 client only /proc/fs/nfsfs shows may be the one it creates"
	out_has "claim: $key41: this mount creates the client (nconnect=2)"
	value_is "the v4.1 mount's nconnect" "$(mi_nconnect "$DIR")" 2
	kill "$holder" 2> /dev/null; wait "$holder" 2> /dev/null
	# the claim gone (its helper ended): the line may be this mount's client, as before
	: > "$T/mountinfo"; rm -f "$T/run/clients/$key41.claim"
	run 10.99.0.1:/b "$DIR" -o vers=4.1,nconnect=2
	status_is 32; out_has "refusing to mount: nconnect=2 cannot take effect"
	out_has "its NFSv4 minor version is not shown either"
}
tc_claim_refused_at_once() {
	two_at_once refuse 4 8
	value_is "exit statuses" "$RC" "0 32"
	value_is "mount.nfs runs" "$PATTERN" "start end " "B must not have run mount.nfs"
	grep -qF "refusing to mount: nconnect=8 cannot take effect" "$T/errB" || fail "B: $(cat "$T/errB")"
}
tc_claim_other_key_parallel() {
	# NFSv3 and NFSv4.1 of one address are two clients: two claims, neither waits, no word
	needs_root_claims
	conf "nconnect_policy = refuse"
	export STUB_SLEEP_MS=2000 STUB_KERNEL=$T/clients
	mkdir -p "$T/mnt/a"
	"$HELPER" 10.99.0.1:/a "$T/mnt/a" -v -o vers=3,nconnect=4 2> "$T/errA" &
	local p1=$!
	stub_started 1
	"$HELPER" 10.99.0.1:/b "$T/mnt/b" -v -o vers=4.1,nconnect=8 2> "$T/errB" &
	local p2=$!
	wait $p1; local r1=$?; wait $p2; local r2=$?
	RC="$r1 $r2" OUT=$(cat "$T/errA" "$T/errB")
	value_is "exit statuses" "$RC" "0 0"
	value_is "mount.nfs starts and ends" "$(awk '{print $1}' "$T/stub/log" | tr '\n' ' ')" "start start end end "
	out_has "-10.99.0.1-2049-tcp-v3: this mount creates the client (nconnect=4)"
	out_has "-10.99.0.1-2049-tcp-v4.1: this mount creates the client (nconnect=8)"
	out_lacks "warning"
}
tc_claim_stale_or_live() {
	needs_root_claims
	export STUB_KERNEL=$T/clients
	mkdir -p "$T/run/clients"
	key=$(printf 'net%s-10.99.0.1-2049-tcp-v3' "$(stat -L -c %i /proc/self/ns/net)")
	put_claim "$T/run/clients/$key.claim" '# nfs-tuned client claim 1\npid=1\nnconnect=2\ntarget=/mnt/gone\nspec=10.99.0.1:/gone\n'
	# left by a helper that is gone (no one holds it locked): not a claim, whatever pid=1 is
	run 10.99.0.1:/b "$DIR" -v -o vers=3,nconnect=8
	status_is 0; out_lacks "warning"; out_has "claim: $key: this mount creates the client (nconnect=8)"
	value_is "claims left" "$(claim_files)" ""
	# a live one (its holder has it locked): the client it names is joined
	put_claim "$T/run/clients/$key.claim" '# nfs-tuned client claim 1\npid=1\nnconnect=2\ntarget=/mnt/live\nspec=10.99.0.1:/live\n'
	no_clients
	flock "$T/run/clients/$key.claim" sleep 3 &
	local holder=$!
	locked "$T/run/clients/$key.claim"
	run 10.99.0.1:/b "$DIR" -o vers=3,nconnect=8
	status_is 0; out_has "which the mount of /mnt/live (10.99.0.1:/live) is creating now with nconnect=2"
	opts_has nconnect=2
	# a live file that is not a claim (another format, another owner's) is none
	no_clients
	put_claim "$T/run/clients/$key.claim" 'garbage\n'
	run 10.99.0.1:/b "$DIR" -o vers=3,nconnect=8
	status_is 0; out_lacks "warning"
	kill "$holder" 2> /dev/null; wait "$holder" 2> /dev/null
}
tc_claim_user_cannot_revive() {
	needs_root "the helper claims a new client's key for root's mounts only; a claim as user nobody locks it"
	export STUB_KERNEL=$T/clients
	chmod 755 "$T" "$T/run"
	key=$(printf 'net%s-10.99.0.1-2049-tcp-v3' "$(stat -L -c %i /proc/self/ns/net)")
	# what an older version left: clients/ 0755, a helper killed mid-mount left its claim 0644
	mkdir -m 755 "$T/run/clients"
	printf '# nfs-tuned client claim 1\npid=1\nnconnect=2\ntarget=/mnt/gone\nspec=10.99.0.1:/gone\n' > "$T/run/clients/$key.claim"
	chmod 644 "$T/run/clients/$key.claim"
	# user nobody opens it read-only and flocks it: no say in root's next mount of that key
	setpriv --reuid=65534 --regid=65534 --clear-groups flock -x "$T/run/clients/$key.claim" sleep 3 &
	local holder=$!
	locked "$T/run/clients/$key.claim"
	run 10.99.0.1:/b "$DIR" -v -o vers=3,nconnect=8
	status_is 0; out_lacks "/mnt/gone"; opts_has nconnect=8
	out_has "claim: $key: this mount creates the client (nconnect=8)"
	value_is "clients/ narrowed" "$(stat -c %a "$T/run/clients")" 700
	value_is "lock file mode" "$(stat -c %a "$T/run/clients/$key.lock")" 600
	kill "$holder" 2> /dev/null; wait "$holder" 2> /dev/null
	# root's own claim with group or other bits, or another user's, is no claim either
	no_clients
	for own in 0:0:640 65534:65534:600; do
		put_claim "$T/run/clients/$key.claim" '# nfs-tuned client claim 1\npid=1\nnconnect=2\ntarget=/mnt/x\nspec=10.99.0.1:/x\n'
		chown "${own%:*}" "$T/run/clients/$key.claim"; chmod "${own##*:}" "$T/run/clients/$key.claim"
		flock "$T/run/clients/$key.claim" sleep 3 &
		holder=$!
		locked "$T/run/clients/$key.claim"
		run 10.99.0.1:/b "$DIR" -o vers=3,nconnect=8
		status_is 0; out_lacks "/mnt/x"; opts_has nconnect=8
		kill "$holder" 2> /dev/null; wait "$holder" 2> /dev/null
		no_clients
	done
	# a claim the helper puts is 0600, in a directory no other user can enter
	export STUB_SLEEP_MS=2000
	rm -f "$T/stub/log"
	"$HELPER" 10.99.0.1:/b "$DIR" -o vers=3,nconnect=8 2> "$T/err" &
	local h=$!
	stub_started 1
	value_is "claim file mode" "$(stat -c %a "$T/run/clients/$key.claim")" 600
	setpriv --reuid=65534 --regid=65534 --clear-groups cat "$T/run/clients/$key.claim" 2> /dev/null &&
		fail "user nobody read a live claim"
	wait "$h"
}
tc_run_dir_untrusted() {
	needs_root "the locks and records in the run directory are root's mounts' only; another user's directory (chown)"
	newmount 0:60 "$V3NEW"
	key=$(printf 'net%s-10.99.0.1-2049-tcp-v3' "$(stat -L -c %i /proc/self/ns/net)")
	# a run directory others may write: no lock taken in it, the mount goes on
	chmod 777 "$T/run"
	: > "$T/mountinfo"; run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 0; mount_nfs_ran; out_has "not locking $T/run/clients/$key.lock"
	[ -e "$T/run/clients" ] && fail "a lock file was made in a directory others may write"
	[ -e "$T/run/mounts" ] && fail "a mount record was left in a directory others may write"
	# a link in its place is not followed
	chmod 755 "$T/run"; mkdir "$T/elsewhere"; rm -rf "$T/run"; ln -s "$T/elsewhere" "$T/run"
	: > "$T/mountinfo"; run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 0; mount_nfs_ran; out_has "warning: cannot lock"
	[ -e "$T/elsewhere/clients" ] && fail "the lock was made through a link"
	[ -e "$T/elsewhere/mounts" ] && fail "the mount record was left through a link"
	# one in a directory another user owns, who could swap it for anything: not used
	mkdir -p "$T/u/run"; chown 65534:65534 "$T/u"
	: > "$T/mountinfo"; NFS_TUNED_RUNDIR=$T/u/run run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 0; mount_nfs_ran; out_has "warning: not locking $T/u/run/clients/$key.lock"
	[ -e "$T/u/run/clients" ] && fail "the lock was made under another user's directory"
	[ -e "$T/u/run/mounts" ] && fail "the mount record was left under another user's directory"
	# a FIFO in place of the lock file: refused at once, never waited on
	rm "$T/run"; mkdir -p "$T/run/clients"; mkfifo "$T/run/clients/$key.lock"
	: > "$T/mountinfo"; timeout 20 "$HELPER" 10.99.0.1:/e "$DIR" -o vers=3 > "$T/out" 2> "$T/err"; took $?
	status_is 0; out_has "not locking $T/run/clients/$key.lock"
	# another user's lock file is not ours either
	rm "$T/run/clients/$key.lock"; touch "$T/run/clients/$key.lock"; chown 1:1 "$T/run/clients/$key.lock"
	: > "$T/mountinfo"; run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 0; out_has "not locking"
}

run_cases "$@"
