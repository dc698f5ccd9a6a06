# Scenario: what mounted before keeps mounting (odd but valid option forms give the same result
# through the plain mount.nfs and through the helper), a user's setuid run cannot loosen the
# admin's policy nor read the admin's configuration through -v, and a mount point with a space
# is handled end to end (doc/DESIGN.md, "Kernel and system facts").

# compat OPTS: the real mount.nfs, then the helper, with the same options: the same exit
# status and the same connections
compat() {
	local opts=$1 a rc nc xp
	need_helper || return
	a=$(mp a)
	xrun mount.nfs $SRV:/export/a "$a" -o "$opts"
	rc=$RC nc=$(mi_opt "$a" nconnect) xp=$(xprts "$a")
	lab_cleanup >>"$LAB_DETAILS" 2>&1 || fail "cleanup after the plain mount" || return
	a=$(mp a)
	hrun $SRV:/export/a "$a" -o "$opts"
	value_is "exit status of the helper" "$RC" "$rc" "as mount.nfs's" || return
	value_is "nconnect shown" "$(mi_opt "$a" nconnect)" "$nc" "as mount.nfs's" || return
	value_is "transports" "$(xprts "$a")" "$xp" "as mount.nfs's" || return
	# the helper read the value as the kernel did: no "raced" when nothing raced
	out_lacks "raced" || return
}
t compat-nconnect-hex-v3 compat vers=3,nconnect=0x4
t compat-nconnect-plus-v4.1 compat vers=4.1,nconnect=+4
t compat-nconnect-octal-v3 compat vers=3,nconnect=010
t compat-nconnect-octal-invalid compat vers=3,nconnect=08
t compat-port-hex-v4.1 compat vers=4.1,port=0x801
t compat-minorversion-plus compat vers=4,minorversion=+1

# the setuid helper, run by a user: the admin's refuse stands, the user's follow is not used
user_keys() {
	local a b
	need_helper || return
	a=$(mp a) b=$(mp b)
	conf "[global]" "nconnect_policy = refuse"
	chmod 600 "$CONF"
	xrun mount.nfs $SRV:/export/a "$a" -o vers=3,nconnect=4
	status_is 0 "first mount" || return
	echo "$SRV:/export/b $b nfs user,noauto,vers=3,nconnect=8 0 0" >/etc/fstab
	install -m 4755 -o root -g root "$H" /usr/local/sbin/mount.nfs-tuned-suid
	OUT=$(setpriv --reuid=65534 --regid=65534 --clear-groups timeout 60 \
		/usr/local/sbin/mount.nfs-tuned-suid $SRV:/export/b "$b" -v \
		-o vers=3,nconnect=8,nconnect_policy=follow 2>&1); RC=$?
	rm -f /usr/local/sbin/mount.nfs-tuned-suid
	log "  (setuid, as nobody) mount.nfs-tuned ... -o ...,nconnect_policy=follow -> $RC"
	log "$(echo "$OUT" | sed 's/^/    | /')"
	out_has "nconnect_policy=follow on the command line not used" || return
	status_is 32 "the admin's refuse stands" || return
	not_mounted "$b" || return
	# -v shows nothing of a configuration the user cannot read
	out_lacks "nconnect_policy=refuse from" || return
	out_has "of files you cannot read appl" || return
}
t user-cannot-loosen-policy user_keys

# the setuid helper, run by a user for a mount point no user entry of fstab names: refused
# before any configuration is read, as nfs-utils' mount.nfs refuses it; nothing of root's
# 0600 config (a krb5p server section) is said
user_no_entry() {
	local b
	need_helper || return
	b=$(mp b)
	conf "[server \"$SRV\"]" "sec = krb5p"
	chmod 600 "$CONF"
	echo "$SRV:/export/a $b nfs user,noauto,vers=3 0 0" >/etc/fstab
	install -m 4755 -o root -g root "$H" /usr/local/sbin/mount.nfs-tuned-suid
	OUT=$(setpriv --reuid=65534 --regid=65534 --clear-groups timeout 60 \
		/usr/local/sbin/mount.nfs-tuned-suid $SRV:/export/b "$b" -f -v 2>&1); RC=$?
	rm -f /usr/local/sbin/mount.nfs-tuned-suid
	log "  (setuid, as nobody, fstab has another spec there) mount.nfs-tuned -f -v -> $RC"
	log "$(echo "$OUT" | sed 's/^/    | /')"
	status_is 1 || return
	out_has "permission denied: no match for $b found in /etc/fstab" || return
	out_lacks krb5 || return
	not_mounted "$b" || return
}
t user-without-fstab-entry-refused user_no_entry

# a mount point with a space: planned, verified, its read-ahead set, and cleaned up
space() {
	local d="$MNT/with space"
	need_helper || return
	mkdir -p "$d"
	conf "[global]" "read_ahead_kb = 4096"
	hrun $SRV:/export/a "$d" -v -o vers=4.1
	status_is 0 || return
	out_has "verified: $d is NFSv4.1" || return
	out_has "read-ahead: bdi" || return
	[ "$(nfs_mountpoints | grep -c 'with space')" = 1 ] || fail "not in the mount table" || return
}
t mount-point-with-space space

# a client that only /proc/fs/nfsfs shows (another mount namespace): its connections come from
# the kernel's RPC transport switches, so asking for what it has is no conflict, and asking
# for more says how many it has
hidden_count() {
	local a b pid
	need_helper || return
	a=$(mp a) b=$(mp b)
	conf "[global]" "nconnect_policy = refuse"
	unshare -m --propagation private sh -c "mount.nfs $SRV:/export/a $a -o vers=3,nconnect=4 && exec sleep 120" &
	pid=$!
	for i in $(seq 1 50); do [ "$(nfs_servers)" = 1 ] && break; sleep 0.2; done
	log "  switches: $(grep -H . /sys/kernel/sunrpc/xprt-switches/*/xprt_switch_info 2>/dev/null | tr '\n' ';')"
	hrun $SRV:/export/b "$b" -f -v -o vers=3,nconnect=8
	local rc8=$RC out8=$OUT
	hrun $SRV:/export/b "$b" -v -o vers=3,nconnect=4
	kill $pid; wait $pid 2>/dev/null
	status_is 0 "nconnect=4 on a hidden client with 4 connections" || return
	out_lacks "cannot take effect" || return
	nconn_is "$b" 4 || return
	RC=$rc8 OUT=$out8
	status_is 32 "nconnect=8 refused" || return
	out_has "it has 4 connections (its transports in /sys/kernel/sunrpc)" || return
}
t hidden-client-connections-from-sunrpc hidden_count
