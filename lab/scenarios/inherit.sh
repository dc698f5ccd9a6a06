# Scenario: nconnect inheritance between two exports of one server, through the helper,
# NFSv3 and NFSv4.1, both orders, under each nconnect_policy (DESIGN.md "Policies").
# The kernel state (mountinfo nconnect=, mountstats xprt: lines, nfsfs) is the judge.

# first mount through the helper: quiet, and the kernel has what was asked
first_mount() { # VERS NCONNECT(or "") DIR
	hrun $SRV:/export/a "$3" -o "vers=$1${2:+,nconnect=$2}"
	status_is 0 "first mount" || return
	out_quiet "a good mount without -v" || return
	nconn_is "$3" "$2" "first mount" || return
	xprt_is "$3" "${2:-1}" "first mount" || return
}

inherit() { # VERS POLICY FIRST SECOND
	local v=$1 pol=$2 n1=$3 n2=$4 a b eff
	need_helper || return
	a=$(mp a) b=$(mp b)
	conf "[global]" "nconnect_policy = $pol"
	first_mount "$v" "$n1" "$a" || return
	hrun $SRV:/export/b "$b" -o "vers=$v${n2:+,nconnect=$n2}"
	eff=$n1                     # what the kernel gives the second mount: the client's
	if [ -z "$n2" ] || [ "$n2" = "${n1:-1}" ]; then
		# nothing asked (or the same): no conflict under any policy
		status_is 0 || return
		out_lacks refusing || return
	else
		case $pol in
		warn)
			status_is 0 "warn lets the mount go ahead" || return
			out_has 'warning:' "a warning about the inherited nconnect" || return
			out_has 'nconnect' || return
			;;
		refuse)
			status_is 32 "refused" || return
			out_has 'refusing' || return
			not_mounted "$b" "a refused mount leaves nothing mounted" || return
			servers_is 1 || return
			[ "$(nfs_volumes)" = 1 ] || fail "nfsfs volumes: $(nfs_volumes), expected 1 after the refusal" || return
			nconn_is "$a" "$n1" "the first mount is untouched" || return
			return 0
			;;
		follow)
			status_is 0 "follow lets the mount go ahead" || return
			[ -n "$OUT" ] || fail "follow printed no message" || return
			out_lacks 'refusing' || return
			;;
		esac
	fi
	mounted "$b" || return
	nconn_is "$b" "$eff" "the kernel shares the first mount's client" || return
	xprt_is "$b" "${eff:-1}" || return
	servers_is 1 || return
}

for v in 3 4.1; do
	for pol in warn refuse follow; do
		t "v$v-$pol-nconnect4-then-none" inherit $v $pol 4 ""
		t "v$v-$pol-nconnect4-then-nconnect8" inherit $v $pol 4 8
		t "v$v-$pol-none-then-nconnect4" inherit $v $pol "" 4
	done
done

# a conflict caused only by a config default is followed quietly, under every policy
config_default() { # POLICY
	local a b
	need_helper || return
	a=$(mp a) b=$(mp b)
	conf "[global]" "nconnect = 8" "nconnect_policy = $1"
	hrun $SRV:/export/a "$a" -o vers=3,nconnect=4
	status_is 0 || return
	nconn_is "$a" 4 "command line beats the config" || return
	hrun $SRV:/export/b "$b" -o vers=3
	status_is 0 "a config-only conflict never refuses" || return
	out_quiet "a config-only conflict is followed quietly" || return
	nconn_is "$b" 4 || return
	xprt_is "$b" 4 || return
	umount "$b"
	hrun -v $SRV:/export/b "$b" -o vers=3
	status_is 0 || return
	out_has 'nconnect' "-v shows the followed config default" || return
}
t config-default-followed-quietly-refuse config_default refuse
t config-default-followed-quietly-warn config_default warn

# the config default applies to a first mount
config_first() {
	local a
	need_helper || return
	a=$(mp a)
	conf "[global]" "nconnect = 8"
	hrun $SRV:/export/a "$a" -o vers=4.1
	status_is 0 || return
	nconn_is "$a" 8 "config default" || return
	xprt_is "$a" 8 || return
}
t config-default-first-mount config_first

# nconnect outside 1..16 or not a number: refused before mount.nfs, exit 32
bad_nconnect() { # VALUE
	local a
	need_helper || return
	a=$(mp a)
	hrun $SRV:/export/a "$a" -o "vers=3,nconnect=$1"
	status_is 32 "nconnect=$1" || return
	out_has 'refusing' || return
	not_mounted "$a" || return
	servers_is 0 "mount.nfs never ran" || return
}
t nconnect-0-refused bad_nconnect 0
t nconnect-17-refused bad_nconnect 17
t nconnect-abc-refused bad_nconnect abc
nconnect16() {
	need_helper || return
	hrun $SRV:/export/a "$(mp a)" -o vers=3,nconnect=16
	status_is 0 || return
	nconn_is $MNT/a 16 || return
	xprt_is $MNT/a 16
}
t nconnect-16-accepted nconnect16
