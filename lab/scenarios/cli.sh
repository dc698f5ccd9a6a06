# Scenario: the dry run (-f -v) mounts nothing; exit codes as mount(8)'s; the names the
# helper is called by; the config checks (DESIGN.md "Binary and invocation", "Exit codes").

dry_run() { # VERS
	local a
	need_helper || return
	a=$(mp a)
	conf "[global]" "nconnect = 4" "read_ahead_kb = 15360"
	hrun -f -v $SRV:/export/a "$a" -o "vers=$1"
	status_is 0 || return
	not_mounted "$a" "a dry run mounts nothing" || return
	servers_is 0 "a dry run creates no NFS client" || return
	local k
	for k in endpoint verdict exec read-ahead; do
		out_matches "(^|: )$k:" "the plan's $k: line" || return
	done
	out_has 'nconnect=4' "the config default in the plan" || return
}
t dry-run-v3 dry_run 3
t dry-run-v4.1 dry_run 4.1

# a dry run that meets a conflict under refuse: refuses the same way, still mounts nothing
dry_run_refuse() {
	local a b
	need_helper || return
	a=$(mp a) b=$(mp b)
	conf "[global]" "nconnect_policy = refuse"
	hrun $SRV:/export/a "$a" -o vers=3,nconnect=4
	status_is 0 || return
	hrun -f -v $SRV:/export/b "$b" -o vers=3,nconnect=8
	out_has 'refusing' || return
	out_matches '(^|: )client:' "the existing client in the plan" || return
	status_is 32 || return
	not_mounted "$b" || return
	[ "$(nfs_volumes)" = 1 ] || fail "nfsfs volumes: $(nfs_volumes)" || return
}
t dry-run-conflict-refused dry_run_refuse

# -f without -v: silent, nothing mounted
dry_quiet() {
	local a
	need_helper || return
	a=$(mp a)
	hrun -f $SRV:/export/a "$a" -o vers=3
	status_is 0 || return
	not_mounted "$a" || return
	servers_is 0 || return
}
t dry-run-quiet dry_quiet

exit_code() { # EXPECTED ARGS...
	local want=$1
	need_helper || return
	shift
	hrun "$@"
	status_is "$want" || return
	[ -z "$(nfs_mountpoints)" ] || fail "something got mounted: $(nfs_mountpoints)" || return
}
mkdir -p $MNT/x
t exit-usage-no-arguments exit_code 1
t exit-usage-one-argument exit_code 1 $SRV:/export/a
t exit-usage-bad-option exit_code 1 -Z $SRV:/export/a $MNT/x
t exit-help exit_code 0 -h
t exit-version exit_code 0 -V
t exit-no-such-export exit_code 32 $SRV:/export/nonexistent $MNT/x -o vers=3
t exit-no-such-export-v4.1 exit_code 32 $SRV:/export/nonexistent $MNT/x -o vers=4.1
t exit-no-mountpoint exit_code 32 $SRV:/export/a $MNT/does-not-exist -o vers=3
t exit-unknown-host exit_code 32 no-such-host.invalid:/export/a $MNT/x -o vers=3
t exit-unknown-option exit_code 32 $SRV:/export/a $MNT/x -o vers=3,no_such_option=1

exit_exec() { # MOUNT_NFS-PATH WHAT-IN-OUTPUT
	need_helper || return
	conf "[global]" "mount_nfs = $1"
	hrun $SRV:/export/a $(mp x) -o vers=3
	status_is 2 "mount_nfs = $1" || return
	out_matches "$2" || return
	not_mounted $MNT/x || return
}
t exit-cannot-exec exit_exec /nonexistent/mount.nfs 'mount.nfs-tuned: '
t exit-divert-loop exit_exec "$H" 'divert loop'
ln -sf "$H" /tmp/lab/mount.nfs-link
t exit-divert-loop-symlink exit_exec /tmp/lab/mount.nfs-link 'divert loop'

# options before the positionals, repeated -o joined with ","
opts_order() {
	local a
	need_helper || return
	a=$(mp a)
	hrun -o vers=3 -o nconnect=2 $SRV:/export/a "$a"
	status_is 0 || return
	[ "$(mi_opt "$a" vers)" = 3 ] || fail "vers=$(mi_opt "$a" vers)" || return
	nconn_is "$a" 2 "the second -o" || return
}
t options-first-repeated-o opts_order

# called as mount.nfs4 or with -t nfs4: NFSv4; -t is not passed on
as_nfs4() { # how
	local a
	need_helper || return
	a=$(mp a)
	ln -sf "$H" /tmp/lab/mount.nfs4
	if [ "$1" = name ]; then
		OUT=$(timeout 60 /tmp/lab/mount.nfs4 $SRV:/export/a "$a" 2>&1); RC=$?
	else
		hrun $SRV:/export/a "$a" -t nfs4
	fi
	status_is 0 || return
	case $(mi_opt "$a" vers) in 4*) ;; *) fail "vers=$(mi_opt "$a" vers), expected 4.x" || return ;; esac
	mi "$a" | grep -q ' - nfs4 ' || fail "fstype not nfs4: $(mi "$a")" || return
}
t called-as-mount.nfs4 as_nfs4 name
t option-t-nfs4 as_nfs4 opt

# called as umount.nfs: everything goes to the real mount.nfs in umount mode
as_umount() {
	local a
	need_helper || return
	a=$(mp a)
	hrun $SRV:/export/a "$a" -o vers=3
	status_is 0 || return
	ln -sf "$H" /tmp/lab/umount.nfs
	OUT=$(timeout 60 /tmp/lab/umount.nfs "$a" 2>&1); RC=$?
	status_is 0 "umount.nfs" || return
	not_mounted "$a" "umount.nfs unmounted it" || return
}
t called-as-umount.nfs as_umount

# -N: the mount lands in the given mount namespace
ns_opt() {
	local b pid
	need_helper || return
	b=$(mp b)
	unshare -m --propagation private sleep 60 &
	pid=$!
	sleep 0.5
	hrun $SRV:/export/b "$b" -o vers=3 -N $pid
	status_is 0 || { kill $pid; return 1; }
	if is_mounted "$b"; then kill $pid; fail "mounted in our namespace, not in $pid's"; return; fi
	grep -q " $b " /proc/$pid/mountinfo || { kill $pid; fail "not mounted in $pid's namespace"; return; }
	nsenter -t $pid -m umount "$b"
	kill $pid
	wait $pid 2>/dev/null
	return 0
}
t option-N-namespace ns_opt

# --check-config
check_config() {
	need_helper || return
	conf "[global]" "nconnect = 4" "read_ahead_kb = 15x" "nconnect_policy = warn"
	hrun --check-config
	status_is 0 "a clean config" || return
	conf "[global]" "nconnect_policy = sometimes" "read_ahead_kb = 15360"
	hrun --check-config
	status_is 1 "a bad line" || return
	out_matches "$CONF:2:" "problems are reported as file:line:" || return
}
t check-config check_config

# a config file writable by others is skipped with a warning (as root)
unsafe_conf() {
	local a
	need_helper || return
	a=$(mp a)
	conf "[global]" "nconnect = 8"
	chmod 666 "$CONF"
	hrun $SRV:/export/a "$a" -o vers=3
	status_is 0 || return
	out_has 'warning:' "the unsafe file is reported" || return
	nconn_is "$a" "" "the unsafe file was not used" || return
}
t unsafe-config-skipped unsafe_conf

# drop-in directory: sorted, later wins; command line beats everything
dropin() {
	local a
	need_helper || return
	a=$(mp a)
	conf "[global]" "nconnect = 2" "timeo = 100"
	mkdir -p "$CONF.d"
	printf '[global]\nnconnect = 3\n' >"$CONF.d/10-a.conf"
	printf '[global]\nnconnect = 5\ntimeo = 200\n' >"$CONF.d/20-b.conf"
	chmod 644 "$CONF.d"/*.conf
	hrun $SRV:/export/a "$a" -o vers=3,timeo=300
	status_is 0 || return
	nconn_is "$a" 5 "the last drop-in wins" || return
	[ "$(mi_opt "$a" timeo)" = 300 ] || fail "timeo=$(mi_opt "$a" timeo), the command line's 300 must win" || return
}
t config-dropins dropin

# test path overrides: honoured for an unprivileged process (root without setuid) ...
env_override() {
	local a
	need_helper || return
	a=$(mp a)
	conf "[global]" "nconnect = 2"
	printf '[global]\nnconnect = 3\n' >/tmp/lab/alt.conf
	OUT=$(NFS_TUNED_CONFIG=/tmp/lab/alt.conf timeout 60 "$H" $SRV:/export/a "$a" -o vers=3 2>&1); RC=$?
	log "  NFS_TUNED_CONFIG=/tmp/lab/alt.conf mount.nfs-tuned ... -> $RC: $OUT"
	status_is 0 || return
	nconn_is "$a" 3 "NFS_TUNED_CONFIG honoured" || return
}
t env-override-honoured env_override

# ... and ignored when the helper runs setuid (secure_getenv); the user's mount is one fstab
# gives users (without it the helper refuses before reading any config)
env_setuid() {
	local x
	need_helper || return
	x=$(mp x)
	conf "[global]" "nconnect = 2"
	printf '[global]\nnconnect = 3\n' >/tmp/lab/alt.conf
	chmod 644 /tmp/lab/alt.conf
	echo "$SRV:/export/a $x nfs user,noauto,vers=3 0 0" >/etc/fstab
	install -m 4755 -o root -g root "$H" /usr/local/sbin/mount.nfs-tuned-suid
	OUT=$(setpriv --reuid=65534 --regid=65534 --clear-groups env NFS_TUNED_CONFIG=/tmp/lab/alt.conf \
		timeout 60 /usr/local/sbin/mount.nfs-tuned-suid -f -v $SRV:/export/a "$x" -o vers=3 2>&1); RC=$?
	rm -f /usr/local/sbin/mount.nfs-tuned-suid
	log "  (setuid, as nobody) NFS_TUNED_CONFIG=/tmp/lab/alt.conf mount.nfs-tuned -f -v ... -> $RC"
	log "$(echo "$OUT" | sed 's/^/    | /')"
	out_no_match 'alt\.conf' "a setuid helper must ignore NFS_TUNED_CONFIG" || return
	out_matches "$CONF" "the real config is read" || return
}
t env-override-ignored-setuid env_setuid

# mount_nfs is a [global] key only
mount_nfs_global_only() {
	local a
	need_helper || return
	a=$(mp a)
	conf "[server \"$SRV\"]" "mount_nfs = /nonexistent/mount.nfs"
	hrun $SRV:/export/a "$a" -o vers=3
	status_is 0 "mount_nfs in a [server] section is not used" || return
	mounted "$a" || return
}
t mount_nfs-global-only mount_nfs_global_only
t exit-version-long exit_code 0 --version

as_umount4() {
	local a
	need_helper || return
	a=$(mp a)
	hrun $SRV:/export/a "$a" -o vers=4.2
	status_is 0 || return
	ln -sf "$H" /tmp/lab/umount.nfs4
	OUT=$(timeout 60 /tmp/lab/umount.nfs4 "$a" 2>&1); RC=$?
	status_is 0 "umount.nfs4" || return
	not_mounted "$a" || return
}
t called-as-umount.nfs4 as_umount4

# -r, -w, -s reach mount.nfs
flag_r() {
	local a
	need_helper || return
	a=$(mp a)
	hrun -r $SRV:/export/a "$a" -o vers=3
	status_is 0 || return
	mi "$a" | awk '{ print $6 }' | grep -Eq '^ro(,|$)' || fail "-r: not read-only: $(mi "$a")" || return
}
t flag-r-read-only flag_r
flag_s() {
	local a
	need_helper || return
	a=$(mp a)
	hrun -s $SRV:/export/a "$a" -o vers=3,no_such_option=1
	status_is 0 "-s (sloppy) lets mount.nfs ignore an unknown option" || return
	mounted "$a" || return
}
t flag-s-sloppy flag_s
