# Scenario: two helpers started at once for one server with different nconnect end in a
# known, reported state (the lock in /run/nfs-tuned serialises decide + mount).

race() { # VERS POLICY ROUND
	local v=$1 pol=$2 a b ra rb oa ob na nb
	need_helper || return
	a=$(mp a) b=$(mp b)
	conf "[global]" "nconnect_policy = $pol"
	timeout 90 "$H" $SRV:/export/a "$a" -o "vers=$v,nconnect=2" >/tmp/lab/race-a 2>&1 &
	local pa=$!
	timeout 90 "$H" $SRV:/export/b "$b" -o "vers=$v,nconnect=8" >/tmp/lab/race-b 2>&1 &
	local pb=$!
	wait $pa; ra=$?
	wait $pb; rb=$?
	oa=$(cat /tmp/lab/race-a) ob=$(cat /tmp/lab/race-b)
	log "  A nconnect=2 -> $ra: $oa"
	log "  B nconnect=8 -> $rb: $ob"
	log "  mounts: $(grep -E " $a | $b " /proc/self/mountinfo | awk '{print $5, $NF}' | tr '\n' ';') servers=$(nfs_servers)"
	servers_is 1 "one client for both" || return
	if [ "$pol" = refuse ]; then
		# exactly one mounted (rc 0, its own nconnect), the other refused (32), not mounted
		if [ "$ra" = 0 ] && [ "$rb" = 32 ]; then
			nconn_is "$a" 2 || return; not_mounted "$b" || return
			echo "$ob" | grep -q refusing || fail "B was refused without saying so: $ob" || return
		elif [ "$rb" = 0 ] && [ "$ra" = 32 ]; then
			nconn_is "$b" 8 || return; not_mounted "$a" || return
			echo "$oa" | grep -q refusing || fail "A was refused without saying so: $oa" || return
		else
			fail "expected one mount and one refusal, got A=$ra B=$rb (A: $oa / B: $ob)"
			return
		fi
		return 0
	fi
	[ "$ra" = 0 ] && [ "$rb" = 0 ] || fail "warn: both must mount, got A=$ra B=$rb (A: $oa / B: $ob)" || return
	na=$(mi_opt "$a" nconnect) nb=$(mi_opt "$b" nconnect)
	[ "$na" = "$nb" ] || fail "one client but mountinfo nconnect differs: $na / $nb" || return
	[ "$(xprts "$a")" = "${na:-1}" ] && [ "$(xprts "$b")" = "${na:-1}" ] ||
		fail "xprts $(xprts "$a")/$(xprts "$b") for nconnect=$na" || return
	# the one that did not get what it asked must have said so, the winner stays quiet
	case $na in
	2) echo "$ob" | grep -q 'warning:' || fail "B asked 8, got 2, no warning: '$ob'" || return
	   [ -z "$oa" ] || fail "A got what it asked but printed: $oa" || return ;;
	8) echo "$oa" | grep -q 'warning:' || fail "A asked 2, got 8, no warning: '$oa'" || return
	   [ -z "$ob" ] || fail "B got what it asked but printed: $ob" || return ;;
	*) fail "nconnect=$na: neither request" || return ;;
	esac
}
for i in 1 2 3; do
	t "warn-v3-round$i" race 3 warn $i
done
t warn-v4.1 race 4.1 warn 1
# without a lock both helpers would see no client yet and both mount: refuse shows it
for i in 1 2 3 4; do
	t "refuse-v3-round$i" race 3 refuse $i
done
t refuse-v4.1-round1 race 4.1 refuse 1
t refuse-v4.1-round2 race 4.1 refuse 2
