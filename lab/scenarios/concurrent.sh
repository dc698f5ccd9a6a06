# Scenario: helpers started at once for one server end in a known, reported state. Only
# mounts that would create one client serialise, on the client's key, for the time of a claim
# (doc/DESIGN.md "Parallel mounts"); the others join at once.

# race8 VERS POLICY: 8 helpers at once, one export each; odd ones ask nconnect=2, even ones 8
race8() {
	local v=$1 pol=$2 e i nc rc out eff pids=() first x
	need_helper || return
	conf "[global]" "nconnect_policy = $pol"
	i=0
	for e in $EXPORTS; do
		i=$((i + 1)) nc=8; [ $((i % 2)) = 1 ] && nc=2
		timeout 120 "$H" $SRV:/export/$e "$(mp $e)" -o "vers=$v,nconnect=$nc" >/tmp/lab/race-$e 2>&1 &
		pids+=($!)
	done
	i=0
	for e in $EXPORTS; do
		wait "${pids[$i]}"; echo $? >/tmp/lab/race-$e.rc; i=$((i + 1))
	done
	servers_is 1 "one client for all" || return
	# the client's nconnect: the one every mounted export shows
	eff=
	for e in $EXPORTS; do
		is_mounted "$MNT/$e" && { eff=$(mi_opt "$MNT/$e" nconnect); break; }
	done
	[ -n "$eff" ] || fail "no mount shows an nconnect" || return
	log "  client nconnect=$eff"
	i=0
	for e in $EXPORTS; do
		i=$((i + 1)) nc=8; [ $((i % 2)) = 1 ] && nc=2
		rc=$(cat /tmp/lab/race-$e.rc) out=$(cat /tmp/lab/race-$e)
		log "  $e nconnect=$nc -> $rc: $out"
		if [ "$nc" = "$eff" ]; then
			# it created the client or joined one that got what it asked: no word
			[ "$rc" = 0 ] && [ -z "$out" ] || fail "$e asked $eff, got it, but: rc=$rc '$out'" || return
		else
			case $pol in
			refuse)
				[ "$rc" = 32 ] || fail "$e asked $nc of a client with $eff: rc=$rc, not 32" || return
				echo "$out" | grep -q "refusing to mount: nconnect=$nc cannot take effect" ||
					fail "$e refused without saying so: '$out'" || return
				not_mounted "$MNT/$e" || return
				continue ;;
			warn) x="warning: nconnect=$nc cannot take effect" ;;
			follow) x="following the existing client: nconnect=$nc cannot take effect" ;;
			esac
			[ "$rc" = 0 ] || fail "$e ($pol) must mount: rc=$rc '$out'" || return
			echo "$out" | grep -q "$x" || fail "$e asked $nc, got $eff, said: '$out'" || return
			# the verification agrees with what was said before the mount: one line
			[ "$(echo "$out" | grep -c .)" = 1 ] || fail "$e said more than one thing: '$out'" || return
		fi
		nconn_is "$MNT/$e" "$eff" || return
		[ "$(xprts "$MNT/$e")" = "$eff" ] || fail "$e: $(xprts "$MNT/$e") transports for nconnect=$eff" || return
	done
	[ -z "$(ls /run/nfs-tuned/clients/ 2>/dev/null | grep -v '\.lock$')" ] ||
		fail "claims outlived their mounts: $(ls /run/nfs-tuned/clients/)" || return
}
for pol in warn refuse follow; do
	for v in 3 4.1; do
		t "8-at-once-$pol-v$v" race8 $v $pol
	done
done
t "8-at-once-warn-v3-round2" race8 3 warn
t "8-at-once-refuse-v3-round2" race8 3 refuse

claim_key() { printf 'net%s-%s-2049-tcp-v%s' "$(stat -L -c %i /proc/self/ns/net)" "$SRV" "$1"; }
put_claim() { # put_claim VERS NCONNECT: a claim of /mnt/lab/x, nobody holding it
	mkdir -p /run/nfs-tuned/clients
	# 0600, as the helper writes one: a claim others could open (and flock) is none
	(umask 077; printf '# nfs-tuned client claim 1\npid=%s\nnconnect=%s\ntarget=%s\nspec=%s\n' \
		99999 "$2" "$MNT/x" "$SRV:/export/x" >"/run/nfs-tuned/clients/$(claim_key "$1").claim")
}

# a claim left by a helper that was killed: no process holds it, so it is none
stale_claim() {
	local a
	need_helper || return
	a=$(mp a)
	conf "[global]" "nconnect_policy = refuse"
	put_claim 3 2
	hrun $SRV:/export/a "$a" -o vers=3,nconnect=8
	status_is 0; out_quiet
	nconn_is "$a" 8 || return
	[ ! -e "/run/nfs-tuned/clients/$(claim_key 3).claim" ] || fail "the stale claim is still there" || return
}
t claim-left-by-a-killed-helper stale_claim

# a claim as an older version left it (0644 in a 0755 clients/), locked by a user who opened
# it: only root can make a claim live, so root's next mount of that key ignores it, and the
# directory and the key's lock are made root's own (0700, 0600)
user_locked_claim() {
	local a holder k
	need_helper || return
	a=$(mp a) k=$(claim_key 3)
	conf "[global]" "nconnect_policy = refuse"
	put_claim 3 2
	chmod 755 /run/nfs-tuned/clients && chmod 644 "/run/nfs-tuned/clients/$k.claim" || return
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		flock -x "/run/nfs-tuned/clients/$k.claim" sleep 60 &
	holder=$!
	sleep 0.5
	hrun $SRV:/export/a "$a" -o vers=3,nconnect=8
	kill $holder; wait $holder 2>/dev/null
	status_is 0 || return
	out_lacks "$MNT/x" || return
	nconn_is "$a" 8 || return
	value_is "clients/ mode" "$(stat -c %a /run/nfs-tuned/clients)" 700 || return
	value_is "the key's lock mode" "$(stat -c %a "/run/nfs-tuned/clients/$k.lock")" 600 || return
}
t claim-locked-by-a-user-is-none user_locked_claim

# a helper that claimed the client and is still in its mount.nfs (held here by flock): a
# joiner warned under warn passes the claimant's nconnect, so that the kernel, which it
# reaches first, creates the client the claimant planned
live_claim() {
	local a holder
	need_helper || return
	a=$(mp a)
	conf "[global]" "nconnect_policy = warn"
	put_claim 4.1 2
	flock "/run/nfs-tuned/clients/$(claim_key 4.1).claim" sleep 60 &
	holder=$!
	sleep 0.5
	hrun $SRV:/export/a "$a" -o vers=4.1,nconnect=8
	kill $holder; wait $holder 2>/dev/null
	rm -f "/run/nfs-tuned/clients/$(claim_key 4.1).claim"
	status_is 0
	out_has "warning: nconnect=8 cannot take effect: this mount shares the NFS client for $SRV port 2049, NFSv4.1 over tcp, which the mount of $MNT/x ($SRV:/export/x) is creating now with nconnect=2"
	out_lacks "the kernel gave"
	nconn_is "$a" 2 || return
	xprt_is "$a" 2 || return
}
t joiner-of-a-claim-first-at-the-kernel live_claim

# the client the scan found is gone by the time mount.nfs runs (its last mount unmounted):
# the mount creates a new one with its own nconnect, and the verification says so
vanished() {
	local a b
	need_helper || return
	a=$(mp a) b=$(mp b)
	conf "[global]" "nconnect_policy = warn"
	hrun $SRV:/export/a "$a" -o vers=3,nconnect=2
	status_is 0 || return
	# the helper stops after its scan (SIGSTOP when its stand-in mount.nfs is about to run is
	# not possible: it is the real one), so its scan is made to see the client first: a -v
	# run prints the plan and the scan's client before mount.nfs starts
	( "$H" $SRV:/export/b "$b" -v -o vers=3,nconnect=8 >/tmp/lab/vanish 2>&1 ) &
	local p=$!
	# unmount a while b's helper is past its scan: wait for its "exec:" line
	for _ in $(seq 1 100); do grep -q '^mount.nfs-tuned: exec:' /tmp/lab/vanish && break; sleep 0.05; done
	umount "$a"
	wait $p; RC=$? OUT=$(cat /tmp/lab/vanish)
	log "$OUT"
	status_is 0 || return
	out_has "nconnect=8 cannot take effect"
	if [ "$(mi_opt "$b" nconnect)" = 8 ]; then
		# the client was gone: b made a new one with 8, and the verification says so
		out_has "the kernel gave $b nconnect=8, not the 2 planned"
	else
		# the umount came after b's mount reached the kernel: b joined, as said
		nconn_is "$b" 2 || return
	fi
}
t client-gone-between-scan-and-mount vanished
