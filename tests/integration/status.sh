#!/bin/bash
# Integration cases of `nfs-tuned status`: the built binary against fixture trees (mountinfo,
# mountstats, nfsfs, a sysfs bdi tree, the helper's run directory, fstab, udev rule
# directories, nfsmount.conf).  The lab scenario lab/scenarios/status.sh proves the same against
# a real kernel client and server.
#   status.sh --list                    the case names (meson registers them)
#   status.sh BINARY FIXTURES CASE      runs one case; an unknown CASE is an error (exit 2)
# A case is a function st_NAME.  run sets RC, OUT (stdout) and ERR (stderr).  Harness:
# tests/lib/harness.sh.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/assert.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../lib/harness.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../lib/status-host.sh"
OUT_IS=stdout

V41="vers=4.1,rsize=1048576,wsize=1048576,namlen=255,hard,proto=tcp,timeo=600,retrans=2,clientaddr=10.99.0.2,local_lock=none"
V3="vers=3,rsize=1048576,wsize=1048576,namlen=255,hard,proto=tcp,timeo=600,retrans=2,mountaddr=10.99.0.1,local_lock=none"


run() {
	"${RUNAS[@]}" "$BIN" status "$@" > "$T/out" 2> "$T/err"
	RC=$?
	OUT=$(cat "$T/out")
	ERR=$(cat "$T/err")
}
# the assertions on standard error (findings, hidden clients, what could not be read)
err_has() { local o=$OUT r; OUT=$ERR; out_has "$@"; r=$?; OUT=$o; return $r; }
err_lacks() { local o=$OUT r; OUT=$ERR; out_lacks "$@"; r=$?; OUT=$o; return $r; }
err_matches() { local o=$OUT r; OUT=$ERR; out_matches "$@"; r=$?; OUT=$o; return $r; }
# the JSON output parses, and a Python expression over it (j) is true
json_true() {
	python3 -c 'import json,re,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' \
		"$T/out" "$1" || fail "JSON: not true: $1; output: $(out_short)"
}

st_clean_host_says_nothing() {
	mount 40 0:53 /mnt/a nfs4 filer:/export/a "$V41,nconnect=4,sec=sys,addr=10.99.0.1"
	mount 41 0:54 /mnt/b nfs4 10.99.0.1:/export/b "$V41,nconnect=4,sec=sys,addr=10.99.0.1"
	record mnt-b spec=10.99.0.1:/export/b target=/mnt/b nconnect=4 nconnect_requested=4 \
		nconnect_from=cmdline dev=0:54
	run
	status_is 0 "nothing found"
	out_matches '^/mnt/a +filer:/export/a +4\.1 +sys +/mnt/a +4 +4 +128 *$'
	out_matches '^/mnt/b +10\.99\.0\.1:/export/b +4\.1 +sys +/mnt/a +4 +4 +4 +128 *$'
	out_lacks "warning"; value_is stderr "$ERR" ""
}
st_inherited_from_record() {
	mount 40 0:53 /mnt/a nfs4 filer:/export/a "$V41,nconnect=4,sec=sys,addr=10.99.0.1"
	mount 41 0:54 /mnt/b nfs4 10.99.0.1:/export/b "$V41,nconnect=4,sec=sys,addr=10.99.0.1"
	record mnt-b spec=10.99.0.1:/export/b target=/mnt/b nconnect_requested=8 \
		nconnect_from=cmdline dev=0:54
	run
	status_is 1 "a finding"
	err_has "warning: [nconnect-inherited] /mnt/b asked for nconnect=8 (as the helper recorded when it mounted it) but has 4: it shares the NFS client of 10.99.0.1 (NFSv4.1) that /mnt/a set up first"
	out_matches '^/mnt/b .* 8 +4 +4 +128 +nconnect-inherited$'
}
st_tls_not_applied() {
	# the TLS mount /mnt/b was folded into the plain client of /mnt/a (NFSv4); /mnt/c asked
	# mtls in fstab and its client has tls; /mnt/d got the tls it asked
	mount 40 0:53 /mnt/a nfs4 filer:/export/a "$V41,sec=sys,addr=10.99.0.1"
	mount 41 0:54 /mnt/b nfs4 10.99.0.1:/export/b "$V41,sec=sys,addr=10.99.0.1"
	mount 42 0:55 /mnt/c nfs4 10.99.0.3:/export/c "$V41,sec=sys,xprtsec=tls,addr=10.99.0.3"
	mount 43 0:56 /mnt/d nfs4 10.99.0.3:/export/d "$V41,sec=sys,xprtsec=tls,addr=10.99.0.3"
	record mnt-b spec=10.99.0.1:/export/b target=/mnt/b nconnect_requested=0 xprtsec=tls dev=0:54
	fstab "10.99.0.3:/export/c /mnt/c nfs vers=4.1,xprtsec=mtls 0 0" \
		  "10.99.0.3:/export/d /mnt/d nfs vers=4.1,xprtsec=tls 0 0"
	run -o target,tls,tls-req,findings
	status_is 1 "findings"
	err_has "warning: [tls-not-applied] /mnt/b asked for xprtsec=tls (as the helper recorded when it mounted it) but its NFS client of 10.99.0.1 (NFSv4.1), set up by /mnt/a, has no TLS; lacking: encryption and integrity protection (its RPC traffic in plain text)"
	err_has "warning: [tls-not-applied] /mnt/c asked for xprtsec=mtls (in fstab) but its NFS client of 10.99.0.3 (NFSv4.1), set up by /mnt/c, has xprtsec=tls; lacking: the client certificate"
	out_matches '^/mnt/a +none *$' "nothing known of what it asked"
	out_matches '^/mnt/b +none +tls +tls-not-applied$'
	out_matches '^/mnt/c +tls +mtls +tls-not-applied$'
	out_matches '^/mnt/d +tls +tls *$'
	run -J -o target,tls,tls-req
	json_true 'j["mounts"][1] == {"target": "/mnt/b", "tls": "none", "tls-req": "tls"}'
	mkdir -p "$T/textfile"
	run --prometheus "$T/textfile/nfs-tuned.prom"
	OUT=$(cat "$T/textfile/nfs-tuned.prom")
	out_has 'nfs_tuned_mount_info{mountpoint="/mnt/b",export="10.99.0.1:/export/b",mountaddr="10.99.0.1",port="2049",protocol="tcp",vers="4.1",sec="sys",xprtsec="none",xprtsec_requested="tls",'
	out_has 'nfs_tuned_findings{code="tls-not-applied",mountpoint="/mnt/b"} 1'
}
st_inherited_lower_from_fstab() {
	# the other way: the first mount had 8, the second asked for 1 in fstab
	mount 40 0:53 /mnt/a nfs4 filer:/export/a "$V41,nconnect=8,sec=sys,addr=10.99.0.1"
	mount 41 0:54 /mnt/b nfs4 10.99.0.1:/export/b "$V41,nconnect=8,sec=sys,addr=10.99.0.1"
	fstab "10.99.0.1:/export/b /mnt/b nfs vers=4.1,nconnect=1,noauto 0 0"
	run -o target,req,req-from,nconnect,findings,client
	status_is 1
	err_has "[nconnect-inherited] /mnt/b asked for nconnect=1 (in fstab) but has 8"
	out_matches '^/mnt/b +1 +fstab +8 +nconnect-inherited +10\.99\.0\.1:2049/tcp/4\.1$'
}
st_stale_record_not_used() {
	# the record is of an earlier mount on /mnt/b (another superblock): ignored
	mount 40 0:53 /mnt/a nfs4 filer:/export/a "$V41,nconnect=4,sec=sys,addr=10.99.0.1"
	mount 41 0:54 /mnt/b nfs4 10.99.0.1:/export/b "$V41,nconnect=4,sec=sys,addr=10.99.0.1"
	record mnt-b spec=10.99.0.1:/export/b target=/mnt/b nconnect_requested=8 \
		nconnect_from=cmdline dev=0:99
	run -o target,record,req
	status_is 0 "a stale record says nothing"
	out_matches '^/mnt/b +stale *$'
}
st_record_of_reused_device() {
	# /mnt/b's record was seen mounted (verified_ms, CLOCK_MONOTONIC) long before the
	# superblock there now was made (mountstats' age 0): an earlier mount's on the same mount
	# point, whose device number the kernel gave again while a full or read-only run
	# directory kept the new mount's record from being written (the lab's churn found it).
	# Not used: no tls-not-applied for what that earlier mount asked
	mount 40 0:53 /mnt/a nfs4 filer:/export/a "$V41,sec=sys,addr=10.99.0.1"
	AGE=0 mount 41 0:54 /mnt/b nfs4 10.99.0.1:/export/b "$V41,sec=sys,addr=10.99.0.1"
	record mnt-b spec=10.99.0.1:/export/b target=/mnt/b nconnect_requested=0 xprtsec=tls \
		dev=0:54 verified_ms=1
	run -o target,record,tls-req
	status_is 0 "an earlier mount's record says nothing"
	out_matches '^/mnt/b +stale *$'
	err_lacks "tls-not-applied"
	# the same record, its superblock made before it was seen mounted (age: 46 days): its own
	sed -i 's/^\tage:\t0$/\tage:\t4000000/' "$T/mountstats"
	run -o target,record,tls-req
	status_is 1 "its finding"
	out_matches '^/mnt/b +current +tls *$'
	err_has "warning: [tls-not-applied] /mnt/b asked for xprtsec=tls (as the helper recorded"
	# written in another boot (a run directory kept on disk across a reboot): not used, whatever
	# its times say
	echo boot_id=0b7d8a1e-0000-4000-8000-000000000002 >> "$T/run/mounts/mnt-b"
	run -o target,record,tls-req
	status_is 0 "another boot's record says nothing"
	out_matches '^/mnt/b +stale *$'
	sed -i 's/-000000000002$/-000000000001/' "$T/run/mounts/mnt-b"
	run -o target,record,tls-req
	out_matches '^/mnt/b +current +tls *$' "this boot's"
}
st_krb5_on_multi_connection_client() {
	mount 40 0:53 /mnt/a nfs4 filer:/export/a "$V41,nconnect=4,sec=sys,addr=10.99.0.1"
	mount 41 0:54 /mnt/k nfs4 10.99.0.1:/export/k "$V41,nconnect=4,sec=krb5p,addr=10.99.0.1"
	run
	status_is 1
	err_has "[krb5-multi-connection] /mnt/k uses sec=krb5p over 4 connections (its NFS client was set up by /mnt/a with nconnect=4)"
	err_lacks "/mnt/a uses"
}
st_hidden_client_listed() {
	mount 40 0:53 /mnt/a nfs4 filer:/export/a "$V41,nconnect=4,sec=sys,addr=10.99.0.1"
	printf '%s\n' "NV SERVER   PORT USE HOSTNAME" "v4 0a630001  801   1 10.99.0.1" \
		"v4 0a630003  801   1 10.99.0.3" > "$T/nfsfs/servers"
	run
	status_is 0 "a hidden client is a fact, not a finding"
	err_has "NFS clients that no mount here shows (other mount namespaces):"
	err_matches '^10\.99\.0\.3 +2049 +tcp +4\.x *$'
	out_no_match '^10\.99\.0\.1 +2049'
	run --json
	json_true 'j["clients"] == [{"server": "10.99.0.3", "port": 2049, "proto": "tcp", "vers": "4.x", "xprts": None}]'
}
st_read_ahead_lost() {
	conf '[server "10.99.0.1"]' 'read_ahead_kb = 15x'
	mount 40 0:53 /mnt/a nfs 10.99.0.1:/export/a "$V3,sec=sys,addr=10.99.0.1"
	run -o target,ra-kb,ra-want-kb,findings
	status_is 1
	out_matches '^/mnt/a +128 +15360 +read-ahead-lost$'
	err_has "[read-ahead-lost] /mnt/a: read_ahead_kb of bdi 0:53 is 128 (the kernel's default), the config asks 15360"
	# set as asked: nothing (the kernel keeps whole pages)
	ra 0:53 15360
	run
	status_is 0
}
st_read_ahead_overwritten() {
	mount 40 0:53 /mnt/a nfs 10.99.0.1:/export/a "$V3,sec=sys,addr=10.99.0.1"
	record mnt-a spec=10.99.0.1:/export/a target=/mnt/a read_ahead_kb=15360 \
		read_ahead_from=cmdline dev=0:53
	ra 0:53 4096
	run
	status_is 1
	err_has "[read-ahead-overwritten] /mnt/a: read_ahead_kb of bdi 0:53 is 4096, not the 15360 the helper set when it mounted it"
}
st_read_ahead_auto() {
	# auto: the window of the helper's record (its round trip), else of the round trip
	# mountstats shows now; RA-WANT-KB says auto=, RA-RTT-MS the round trip
	conf 'read_ahead_kb = auto' 'read_ahead_bandwidth = 100'
	mount 40 0:53 /mnt/a nfs 10.99.0.1:/export/a "$V3,sec=sys,addr=10.99.0.1"
	printf '\tper-op statistics\n\t     GETATTR: 10 10 0 1200 1200 0 196 200 0\n' >> "$T/mountstats"
	record mnt-a spec=10.99.0.1:/export/a target=/mnt/a read_ahead_kb=auto \
		read_ahead_bandwidth=100 read_ahead_from=config dev=0:53 read_ahead_rtt_us=5071
	# 100 MiB/s x 5.071 ms + 1 MiB = 1544 KiB: 2048
	ra 0:53 2048
	run -o target,ra-kb,ra-want-kb,ra-rtt-ms
	status_is 0
	out_matches '^/mnt/a +2048 +auto=2048 +5\.071$'
	run -J -o target,ra-want-kb,ra-rtt-ms
	out_has '"ra-want-kb": 2048,'
	out_has '"ra-rtt-ms": 5.071'
	ra 0:53 8192
	run
	status_is 1
	err_has "[read-ahead-overwritten] /mnt/a: read_ahead_kb of bdi 0:53 is 8192, not the 2048 the helper set"
	# the config's bandwidth changed since: said
	ra 0:53 2048
	conf 'read_ahead_kb = auto' 'read_ahead_bandwidth = 200'
	run
	status_is 1
	err_has "[config-mismatch] /mnt/a was mounted when the config gave it read_ahead_kb = auto with read_ahead_bandwidth = 100, and it now says auto with read_ahead_bandwidth = 200"
	# no record (the udev rule sized it): mountstats' round trip now, (196 + 0.5) ms / 10 =
	# 19.65 ms: 2013 + 1024 KiB: 4096; any value the rule may have written stands, the
	# kernel's own says it never ran
	conf 'read_ahead_kb = auto' 'read_ahead_bandwidth = 100'
	rm "$T/run/mounts/mnt-a"
	run -o target,ra-kb,ra-want-kb,ra-rtt-ms
	status_is 0 "2048, from the round trip of the rule's time"
	out_matches '^/mnt/a +2048 +auto=4096 +19\.650$'
	ra 0:53 128
	run
	status_is 1
	err_has "[read-ahead-lost] /mnt/a: read_ahead_kb of bdi 0:53 is 128 (the kernel's default), the config asks 4096"
}
st_read_ahead_shared_superblock_once() {
	conf 'read_ahead_kb = 15360'
	mount 40 0:53 /mnt/a nfs 10.99.0.1:/export/a "$V3,sec=sys,addr=10.99.0.1"
	mount 41 0:53 /mnt/a2 nfs 10.99.0.1:/export/a "$V3,sec=sys,addr=10.99.0.1"
	run
	status_is 1
	value_is "read-ahead findings" "$(cat "$T/out" "$T/err" | grep -c read-ahead-lost)" 2 "one line in the table, one finding"
}
st_config_changed_since_mount() {
	conf '[server "10.99.0.1"]' 'nconnect = 8'
	mount 40 0:53 /mnt/a nfs4 10.99.0.1:/export/a "$V41,nconnect=4,sec=sys,addr=10.99.0.1"
	record mnt-a spec=10.99.0.1:/export/a target=/mnt/a nconnect_requested=4 nconnect_from=config \
		dev=0:53
	run
	status_is 1
	err_has "[config-mismatch] /mnt/a was mounted when the config gave it nconnect=4, and it now gives 8"
	# without a record: the mount never got the config's value
	rm "$T/run/mounts/mnt-a"
	run
	err_has "[config-mismatch] the config gives /mnt/a nconnect=8 but it has 4"
}
st_fstab_will_fight() {
	fstab "10.99.0.1:/export/x /mnt/x nfs vers=4.1,nconnect=2 0 0" \
		  "10.99.0.1:/export/y /mnt/y nfs4 vers=4.1,nconnect=8 0 0" \
		  "10.99.0.1:/export/z /mnt/z nfs vers=4.1,sec=krb5 0 0" \
		  "10.99.0.1:/export/w /mnt/w nfs vers=3,nconnect=16 0 0" \
		  "10.99.0.1:/export/v /mnt/v nfs-tuned _netdev,vers=3,nconnect=4 0 0"
	run
	status_is 1
	err_has "[fstab-nconnect-conflict] fstab: /mnt/y (entry 2, nconnect=8) and /mnt/x (entry 1, nconnect=2) will share one NFS client (10.99.0.1 port 2049, tcp, NFSv4.1)"
	err_has "so /mnt/x wins and /mnt/y gets 2"
	err_has "[fstab-krb5-nconnect] fstab: /mnt/z (entry 3, sec=krb5) will share one NFS client with /mnt/y (entry 2, nconnect=8)"
	err_has "[fstab-nconnect-conflict] fstab: /mnt/v (entry 5, nconnect=4) and /mnt/w (entry 4, nconnect=16)" "the helper's own fstab type"
	err_lacks "/mnt/w (entry 4, nconnect=16) and" "NFSv3 is another client"
	err_lacks "/mnt/z (entry 3, nconnect" "an entry that asks nothing takes what it gets"
	# refuse: the loser will not mount
	conf 'nconnect_policy = refuse'
	run
	err_has "(nconnect_policy=refuse: the one that loses fails to mount)"
}
st_udev_rules() {
	mkdir -p "$T/udev/etc" "$T/udev/lib"
	echo 'SUBSYSTEM=="bdi", PROGRAM="/usr/libexec/nfsrahead %k", ATTR{read_ahead_kb}="%c"' > "$T/udev/lib/99-nfs.rules"
	echo 'KERNEL=="0:*", PROGRAM="/sbin/mount.nfs-tuned --udev-bdi %k", ATTR{read_ahead_kb}="%c"' > "$T/udev/lib/99-zz-nfs-tuned.rules"
	echo 'SUBSYSTEM=="bdi", ATTR{read_ahead_kb}="512"' > "$T/udev/lib/60-early.rules"
	run
	status_is 0 "the packages' own rules, in order"
	cp "$T/udev/lib/99-nfs.rules" "$T/udev/etc/"
	echo 'SUBSYSTEM=="bdi", ATTR{read_ahead_kb}="4096"' > "$T/udev/etc/99-zzz-tuning.rules"
	ln -s /dev/null "$T/udev/etc/99-zz-nfs-tuned.rules"
	run
	status_is 1
	err_has "[udev-rule-shadowed] $T/udev/etc/99-nfs.rules shadows nfs-utils' $T/udev/lib/99-nfs.rules"
	err_has "[udev-rule-overrides] $T/udev/etc/99-zzz-tuning.rules writes read_ahead_kb and sorts after nfs-tuned's 99-zz-nfs-tuned.rules"
	err_has "[udev-rule-shadowed] $T/udev/etc/99-zz-nfs-tuned.rules masks nfs-tuned's rule $T/udev/lib/99-zz-nfs-tuned.rules"
	err_lacks "60-early.rules"
}
st_nfsmount_conf() {
	printf '%s\n' '# mount.nfs defaults' '[ NFSMount_Global_Options ]' 'retrans=3' 'hard=True' > "$T/nfsmount.conf"
	run
	status_is 0 "global options that do not decide the client"
	printf '%s\n' '[ NFSMount_Global_Options ]' 'Defaultvers=4.2' > "$T/nfsmount.conf"
	run
	status_is 1 "the version a negotiated mount lands on"
	err_has "[ NFSMount_Global_Options ] sets Defaultvers=4.2 for every NFS mount"
	rm "$T/nfsmount.conf"
	mkdir -p "$T/nfsmount.conf.d"
	printf '%s\n' '[ Server "filer" ]' 'nconnect=8' > "$T/nfsmount.conf.d/10-filer.conf"
	run
	status_is 1
	err_has "[nfsmount-conf-server] $T/nfsmount.conf.d/10-filer.conf:1: [ Server \"filer\" ] sets nconnect=8: mount.nfs adds them after the helper decided"
}
st_json_typed() {
	conf 'read_ahead_kb = 15360'
	mount 40 0:53 /mnt/a nfs4 filer:/export/a "$V41,nconnect=4,sec=sys,addr=10.99.0.1"
	ra 0:53 15360
	run --json -o target,server,port,nconnect,xprts,ra-kb,ra-want-kb,req,findings
	status_is 0
	json_true 'j["mounts"] == [{"target": "/mnt/a", "server": "10.99.0.1", "port": 2049, "nconnect": 4, "xprts": 4, "ra-kb": 15360, "ra-want-kb": 15360, "req": None, "findings": []}]'
	json_true 'j["findings"] == [] and j["clients"] == [] and j["inputs"] == []'
	ra 0:53 128
	run -J
	status_is 1
	json_true 'j["mounts"][0]["findings"] == ["read-ahead-lost"]'
	json_true 'j["findings"][0]["code"] == "read-ahead-lost" and j["findings"][0]["target"] == "/mnt/a" and j["findings"][0]["severity"] == "warning"'
}
st_raw_and_noheadings() {
	mount 40 0:53 "/mnt/with\\040space" nfs4 filer:/export/a "$V41,nconnect=4,sec=sys,addr=10.99.0.1"
	run -r -n -o target,nconnect
	status_is 0
	value_is "raw line" "$OUT" '/mnt/with\x20space 4'
}
st_prometheus_file() {
	conf 'read_ahead_kb = 15360'
	mount 40 0:53 /mnt/a nfs4 filer:/export/a "$V41,nconnect=4,sec=sys,addr=10.99.0.1"
	mount 41 0:54 '/mnt/q"uote' nfs4 10.99.0.1:/export/b "$V41,nconnect=4,sec=krb5p,addr=10.99.0.1"
	record mnt-a spec=filer:/export/a target=/mnt/a nconnect_requested=4 nconnect_from=cmdline \
		read_ahead_kb=15360 read_ahead_from=config dev=0:53
	ra 0:53 15360
	mkdir -p "$T/textfile"
	run --prometheus "$T/textfile/nfs-tuned.prom"
	status_is 1 "findings, still written"
	value_is stdout "$OUT" ""
	P=$(cat "$T/textfile/nfs-tuned.prom")
	value_is "files left" "$(ls "$T/textfile")" nfs-tuned.prom "no temporary file stays"
	OUT=$P
	out_has 'nfs_tuned_mount_info{mountpoint="/mnt/a",export="filer:/export/a",mountaddr="10.99.0.1",port="2049",protocol="tcp",vers="4.1",sec="sys",xprtsec="none",xprtsec_requested="",set_by="/mnt/a",record="current"} 1'
	out_has 'nfs_tuned_mount_info{mountpoint="/mnt/q\"uote",export="10.99.0.1:/export/b",mountaddr="10.99.0.1",port="2049",protocol="tcp",vers="4.1",sec="krb5p",xprtsec="none",xprtsec_requested="",set_by="/mnt/a",record="none"} 1'
	# the figures, a gauge each, for graphs and thresholds; none asked: no series
	out_has 'nfs_tuned_mount_read_ahead_bytes{mountpoint="/mnt/a"} 15728640'
	out_has 'nfs_tuned_mount_read_ahead_wanted_bytes{mountpoint="/mnt/a"} 15728640'
	out_has 'nfs_tuned_mount_nconnect_requested{mountpoint="/mnt/a"} 4'
	out_has 'nfs_tuned_mount_read_ahead_bytes{mountpoint="/mnt/q\"uote"} 131072'
	out_lacks 'nfs_tuned_mount_nconnect_requested{mountpoint="/mnt/q\"uote"}' "it asked for none"
	out_has 'nfs_tuned_client_transports{mountaddr="10.99.0.1",port="2049",protocol="tcp",vers="4.1"} 4'
	out_has 'nfs_tuned_client_transport_sends_total{mountaddr="10.99.0.1",port="2049",protocol="tcp",vers="4.1",transport="3"} 0'
	# --no-transport-series: the same file but the counters of each transport
	run --prometheus - --no-transport-series
	status_is 1 "findings, still written"
	out_lacks 'nfs_tuned_client_transport_sends_total'; out_lacks 'nfs_tuned_client_transport_receives_total'
	out_lacks 'nfs_tuned_client_transport_backlog_total'
	out_has 'nfs_tuned_client_transports{mountaddr="10.99.0.1",port="2049",protocol="tcp",vers="4.1"} 4'
	out_has 'nfs_tuned_mount_read_ahead_bytes{mountpoint="/mnt/a"} 15728640'
	OUT=$P
	out_has 'nfs_tuned_findings{code="krb5-multi-connection",mountpoint="/mnt/q\"uote"} 1'
	out_has 'nfs_tuned_status_success 1'
	# an unwritable directory: exit 2, the old file stays
	run --prometheus "$T/no-such-dir/x.prom"
	status_is 2; OUT=$ERR; out_has "cannot write $T/no-such-dir/x.prom"
	# the mount table unreadable: exit 2, and the file says so rather than keep old figures
	NFS_TUNED_MOUNTINFO=$T/none run --prometheus "$T/textfile/nfs-tuned.prom"
	status_is 2
	OUT=$(cat "$T/textfile/nfs-tuned.prom")
	out_has 'nfs_tuned_status_success 0'; out_lacks 'nfs_tuned_mount_info{'
}
st_prometheus_planted_link() {
	# Debian's /var/lib/prometheus is user prometheus's: its textfile directory under it is
	# written (a user's directory under root's), but a link that user plants in its place,
	# leading into root's, is not followed: root's file would land where it points
	needs_root "another user's directory under root's (chown)"
	mount 40 0:53 /mnt/a nfs4 filer:/export/a "$V41,nconnect=4,sec=sys,addr=10.99.0.1"
	mkdir -p "$T/prom/node-exporter" "$T/victim"; chown -R 65534:65534 "$T/prom"
	run --prometheus "$T/prom/node-exporter/nfs-tuned.prom"
	value_is "written" "$(ls "$T/prom/node-exporter")" nfs-tuned.prom
	rm -r "$T/prom/node-exporter"; ln -s "$T/victim" "$T/prom/node-exporter"
	chown -h 65534:65534 "$T/prom/node-exporter"
	run --prometheus "$T/prom/node-exporter/nfs-tuned.prom"
	status_is 2; OUT=$ERR
	out_has "refusing to write $T/prom/node-exporter/nfs-tuned.prom: $T/prom/node-exporter leads from a directory of uid 65534 to one of uid 0: the first could make it lead anywhere"
	value_is "files where the link points" "$(ls -A "$T/victim")" ""
}
st_promtool_accepts() {
	# Prometheus's own linter over a file with every kind of series (tests/deps.txt installs
	# it; a package build without it skips this case only)
	command -v promtool > /dev/null || { echo "SKIP: promtool not installed (Debian: prometheus)"; exit 77; }
	conf 'read_ahead_kb = 15360'
	mount 40 0:53 /mnt/a nfs4 filer:/export/a "$V41,nconnect=4,sec=sys,addr=10.99.0.1"
	mount 41 0:54 '/mnt/q"uote\\' nfs4 10.99.0.1:/export/b "$V41,nconnect=4,sec=krb5p,addr=10.99.0.1"
	record mnt-a spec=filer:/export/a target=/mnt/a nconnect_requested=8 nconnect_from=cmdline dev=0:53
	printf '%s\n' "NV SERVER   PORT USE HOSTNAME" "v4 0a630001  801   1 10.99.0.1" \
		"v4 0a630003  801   1 10.99.0.3" > "$T/nfsfs/servers"
	fstab "10.99.0.1:/export/x /mnt/x nfs vers=4.1,nconnect=2 0 0" "10.99.0.1:/export/y /mnt/y nfs vers=4.1,nconnect=8 0 0"
	run --prometheus "$T/out.prom"
	status_is 1
	OUT=$(cat "$T/out.prom"); out_has 'nfs_tuned_findings{code="fstab-nconnect-conflict",mountpoint="/mnt/y"} 1'
	OUT=$(promtool check metrics < "$T/out.prom" 2>&1); RC=$?
	status_is 0 "promtool check metrics"
}
st_errors() {
	run -o target,bogus
	status_is 2; OUT=$ERR; out_has "unknown column 'bogus'"
	"$BIN" frobnicate > /dev/null 2> "$T/err"; RC=$?; OUT=$(cat "$T/err")
	status_is 2; out_has "unknown command 'frobnicate'"
	NFS_TUNED_MOUNTINFO=$T/none run
	status_is 2; OUT=$ERR; out_has "cannot read the mount table $T/none"
}
# an option of the table's shape with --prometheus is a usage error, never silently dropped
st_prometheus_refuses_table_options() {
	local opt
	mount 40 0:53 /mnt/a nfs4 filer:/a "$V41,sec=sys,addr=10.99.0.1"
	for opt in -J --json -r -P -n -u "-o target" --output-all; do
		# shellcheck disable=SC2086 # -o and its list are two words
		run $opt --prometheus -
		status_is 2 "$opt --prometheus"
		value_is "stdout of $opt --prometheus" "$OUT" ""
		err_matches "^nfs-tuned: --prometheus writes the textfile format; --[a-z]+ shapes the table and does not apply to it: give one or the other$"
	done
	run -J --prometheus -
	err_has "--json shapes the table"
	run --prometheus - -o target
	err_has "--output shapes the table"
	run --prometheus -
	status_is 0 "alone it writes the textfile"
	run --no-transport-series
	status_is 2 "--no-transport-series without --prometheus"
	err_has "nfs-tuned: --no-transport-series shapes the textfile: give it with --prometheus"
}
st_config_error_is_a_finding() {
	conf '[global]' 'nconnect = 99'
	run
	status_is 1; err_has "[config-error] $T/conf:2"
}


# ---- every input read or reported: no silent all-clear ----
# as_nobody: the next runs are by user nobody (when root, as CI runs: setpriv), so that a file
# made unreadable with chmod 000 is unreadable; the tree is opened to others for it
as_nobody() {
	chmod -R a+rX "$T"
	if [ "$(id -u)" = 0 ]; then
		RUNAS=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
	fi
}
unreadable() { chmod 000 "$@"; }
# the exit status and the input named on stderr: "INPUT-WORDS" appear in a message
no_all_clear() {
	status_is 2 "${2:-the answer is not whole}"
	err_has "$1"
}
# a record asking nconnect=8 for /mnt/b, whose client /mnt/a set up with 4: a finding
inherited_host() {
	mount 40 0:53 /mnt/a nfs4 filer:/export/a "$V41,nconnect=4,sec=sys,addr=10.99.0.1"
	mount 41 0:54 /mnt/b nfs4 10.99.0.1:/export/b "$V41,nconnect=4,sec=sys,addr=10.99.0.1"
}
st_input_fstab_unreadable() {
	fstab "10.99.0.1:/export/x /mnt/x nfs vers=4.1,nconnect=2 0 0" \
		  "10.99.0.1:/export/y /mnt/y nfs vers=4.1,nconnect=8 0 0"
	as_nobody; unreadable "$T/fstab"
	run
	no_all_clear "cannot read $T/fstab: Permission denied; REQ from fstab and fstab-nconnect-conflict are not checked"
	# a line libmount cannot parse: skipped, and said with its line
	chmod 644 "$T/fstab"; printf '%s\n' "# c" "10.99.0.1:/export/x" >> "$T/fstab"
	run
	no_all_clear "$T/fstab:4: cannot be parsed; skipped"
	err_has "[fstab-nconnect-conflict]" "the other entries still checked"
}
st_input_fstab_invalid_nconnect() {
	fstab "10.99.0.1:/export/x /mnt/x nfs vers=4.1,nconnect=999 0 0"
	run
	status_is 1 "a finding: the entry will not mount"
	err_has "[fstab-invalid-option] fstab: /mnt/x (entry 1): nconnect=999 is not valid: it must be a number from 1 to 16"
}
st_input_udev_rules_unreadable() {
	mkdir -p "$T/udev/etc" "$T/udev/lib"
	echo 'SUBSYSTEM=="bdi", PROGRAM="/usr/libexec/nfsrahead %k", ATTR{read_ahead_kb}="%c"' > "$T/udev/lib/99-nfs.rules"
	cp "$T/udev/lib/99-nfs.rules" "$T/udev/etc/"
	as_nobody; unreadable "$T/udev/etc"
	run
	no_all_clear "cannot read $T/udev/etc: Permission denied; udev-rule-shadowed and udev-rule-overrides are not checked"
	chmod 755 "$T/udev/etc"; unreadable "$T/udev/etc/99-nfs.rules"
	echo 'SUBSYSTEM=="bdi", ATTR{read_ahead_kb}="4096"' > "$T/udev/etc/99-zzz-tuning.rules"
	unreadable "$T/udev/etc/99-zzz-tuning.rules"
	run
	no_all_clear "cannot read $T/udev/etc/99-zzz-tuning.rules: Permission denied"
	err_has "[udev-rule-shadowed]" "what could be read still checked"
}
st_input_bdi_unreadable() {
	conf 'read_ahead_kb = 15360'
	mount 40 0:53 /mnt/a nfs 10.99.0.1:/export/a "$V3,sec=sys,addr=10.99.0.1"
	as_nobody; unreadable "$T/sys/class/bdi/0:53/read_ahead_kb"
	run -o target,ra-kb,ra-want-kb
	no_all_clear "cannot read the read-ahead of /mnt/a (bdi 0:53 in $T/sys/class/bdi): Permission denied; its RA-KB is not known"
	out_matches '^/mnt/a +15360 *$' "RA-KB empty"
	rm -rf "$T/sys/class/bdi/0:53"
	run
	no_all_clear "bdi 0:53 in $T/sys/class/bdi): No such file or directory"
}
st_input_record_unreadable() {
	inherited_host
	record mnt-b spec=10.99.0.1:/export/b target=/mnt/b nconnect_requested=8 nconnect_from=cmdline dev=0:54
	as_nobody; unreadable "$T/run/mounts/mnt-b"
	run
	no_all_clear "cannot read the record of /mnt/b: Permission denied; its REQ comes from fstab only"
}
st_input_records_dir_not_roots() {
	# the records' directory not root's: not used, and said
	needs_root "the records' directory given to another user (chown)"
	inherited_host
	record mnt-b spec=10.99.0.1:/export/b target=/mnt/b nconnect_requested=8 nconnect_from=cmdline dev=0:54
	as_nobody; chown daemon "$T/run/mounts"
	run
	no_all_clear "cannot use the records in $T/run/mounts: not root's, or writable by group or others"
}
st_input_nfsmount_conf_unreadable() {
	printf '%s\n' '[ Server "filer" ]' 'nconnect=8' > "$T/nfsmount.conf"
	as_nobody; unreadable "$T/nfsmount.conf"
	run
	no_all_clear "cannot read $T/nfsmount.conf: Permission denied; nfsmount-conf-server is not checked"
	chmod 644 "$T/nfsmount.conf"; mkdir "$T/nfsmount.conf.d"; unreadable "$T/nfsmount.conf.d"
	run
	no_all_clear "cannot read $T/nfsmount.conf.d: Permission denied"
	err_has "[nfsmount-conf-server]" "the readable file still checked"
}
st_input_mountstats_directory() {
	inherited_host
	rm "$T/mountstats"; mkdir "$T/mountstats"
	run -o target,xprts
	no_all_clear "cannot read $T/mountstats: Is a directory; live transports (XPRTS, LIVE, XPRT-*) not known"
	out_matches '^/mnt/a *$' "XPRTS empty"
	rmdir "$T/mountstats"
	run
	no_all_clear "cannot read $T/mountstats: No such file or directory"
}
st_input_mountinfo_malformed_lines() {
	inherited_host
	echo "this is not a mountinfo line" >> "$T/mountinfo"
	echo "42 21 0:55 / /mnt/c" >> "$T/mountinfo"
	run -rn -o target
	no_all_clear "$T/mountinfo:4: cannot be parsed; skipped"
	err_has "$T/mountinfo:4: cannot be parsed; skipped"
	value_is "mounts" "$OUT" "$(printf '/mnt/a\n/mnt/b')" "the good lines still read"
}
st_input_mountinfo_no_addr() {
	inherited_host
	echo "42 21 0:55 / /mnt/c rw,relatime shared:42 - nfs4 10.99.0.3:/c rw,$V41,nconnect=2" >> "$T/mountinfo"
	printf '%s\n' "NV SERVER   PORT USE HOSTNAME" "v4 0a630001  801   1 10.99.0.1" \
		"v4 0a630003  801   1 10.99.0.3" > "$T/nfsfs/servers"
	run
	no_all_clear "$T/mountinfo: /mnt/c (mount ID 42): an NFS mount without addr= (or one that cannot be read): its NFS client is not known"
}
st_input_mountinfo_directory() {
	rm "$T/mountinfo"; mkdir "$T/mountinfo"
	run
	no_all_clear "cannot read the mount table $T/mountinfo: Is a directory"
	err_lacks "NFS clients that no mount here shows"
}
st_input_mountinfo_bad_nconnect() {
	mount 40 0:53 /mnt/a nfs4 filer:/export/a "$V41,nconnect=abc,sec=sys,addr=10.99.0.1"
	record mnt-a spec=filer:/export/a target=/mnt/a nconnect_requested=4 nconnect_from=cmdline dev=0:53
	run -o target,req,nconnect,findings
	no_all_clear "$T/mountinfo: /mnt/a: its super option nconnect= cannot be read"
	err_lacks "[nconnect-differs]" "no finding from a figure that is not known"
	out_matches '^/mnt/a +4 *$' "NCONNECT empty, not 1"
}
st_input_config_unreadable() {
	conf '[server "10.99.0.1"]' 'nconnect = 4' 'read_ahead_kb = 15360'
	mount 40 0:53 /mnt/a nfs4 10.99.0.1:/export/a "$V41,nconnect=4,sec=sys,addr=10.99.0.1"
	record mnt-a spec=10.99.0.1:/export/a target=/mnt/a nconnect_requested=4 nconnect_from=config \
		read_ahead_kb=15360 read_ahead_from=config dev=0:53
	ra 0:53 15360
	run
	status_is 0 "readable: as configured"
	as_nobody; unreadable "$T/conf"
	run
	no_all_clear "$T/conf: cannot be read: Permission denied; what the configuration gives (RA-WANT-KB, config-mismatch, read-ahead-lost and -overwritten) is not checked"
	err_lacks "[config-mismatch]" "no finding from a config that could not be read"
	err_lacks "[config-error]"
	chmod 644 "$T/conf"; mkdir "$T/conf.d"; unreadable "$T/conf.d"
	run
	no_all_clear "$T/conf.d: cannot be read: Permission denied"
}
# Every input status has (the textfile's input_success lines name them): made unreadable or
# broken on a host with a finding, none gives exit 0, and each is named.  A new input without
# a way to break it here fails this case.
st_no_input_hides_a_finding() {
	local input broke
	inherited_host
	record mnt-b spec=10.99.0.1:/export/b target=/mnt/b nconnect_requested=8 nconnect_from=cmdline dev=0:54
	"$BIN" status --prometheus - > "$T/prom" 2> /dev/null
	[ "$(grep -c '^nfs_tuned_input_success{' "$T/prom")" -ge 10 ] || fail "inputs: $(cat "$T/prom")"
	as_nobody
	for input in $(sed -n 's/^nfs_tuned_input_success{input="\([a-z_]*\)"}.*/\1/p' "$T/prom"); do
		cp -a "$T" "$T.save"
		broke=yes
		case $input in
			mountinfo) echo "garbage" >> "$T/mountinfo" ;;
			mountstats) unreadable "$T/mountstats" ;;
			nfsfs) echo "v4 zz" > "$T/nfsfs/servers" ;;
			sunrpc) mkdir -p "$T/sys/kernel/sunrpc/xprt-switches"; unreadable "$T/sys/kernel/sunrpc/xprt-switches" ;;
			bdi) unreadable "$T/sys/class/bdi/0:54/read_ahead_kb" ;;
			records) unreadable "$T/run/mounts/mnt-b" ;;
			fstab) unreadable "$T/fstab" ;;
			config) unreadable "$T/conf" ;;
			udev_rules) mkdir -p "$T/udev/etc"; unreadable "$T/udev/etc" ;;
			nfsmount_conf) : > "$T/nfsmount.conf"; unreadable "$T/nfsmount.conf" ;;
			*) broke=no ;;
		esac
		[ $broke = yes ] || fail "no way to break input '$input' in this case"
		run
		[ "$RC" != 0 ] || fail "input $input broken: exit 0"
		[ "$RC" = 2 ] || fail "input $input broken: exit $RC, not 2"
		run -J
		json_true "any(x['input'] == '$input' and x['text'] for x in j['inputs'])"
		"${RUNAS[@]}" "$BIN" status --prometheus - > "$T/p2" 2> /dev/null
		grep -q "^nfs_tuned_input_success{input=\"$input\"} 0" "$T/p2" || fail "input $input: gauge not 0"
		grep -q "^nfs_tuned_status_success 0" "$T/p2" || fail "input $input: status_success not 0"
		rm -rf "$T"; mv "$T.save" "$T"
	done
}

# no /proc/fs/nfsfs/servers: fine with no NFS mount (no nfs module, no client); with NFS mounts
# the hidden clients went unchecked, and that is said
st_input_nfsfs_missing() {
	rm "$T/nfsfs/servers"
	run
	status_is 0 "no nfs module, no NFS mount: nothing to check"
	mount 40 0:53 /mnt/a nfs4 filer:/a "$V41,sec=sys,addr=10.99.0.1"
	run
	no_all_clear "$T/nfsfs/servers does not exist, yet $T/mountinfo has 1 NFS mount, so the nfs module is loaded: NFS clients of other mount namespaces are not checked"
	out_matches '^/mnt/a +filer:/a ' "the table is still printed"
	rmdir "$T/nfsfs"
	run
	no_all_clear "$T/nfsfs/servers does not exist"
	run --prometheus -
	status_is 2; out_has 'nfs_tuned_input_success{input="nfsfs"} 0'
}

# -J names each input that failed, and why, in its own array; also when the mount table
# itself cannot be read (nothing else can be said, and the document says so)
st_json_names_failed_inputs() {
	inherited_host
	as_nobody
	unreadable "$T/mountstats" "$T/sys/class/bdi/0:54/read_ahead_kb"
	run -J
	status_is 2
	json_true '[x["input"] for x in j["inputs"]] == ["mountstats", "bdi"]'
	json_true 'j["inputs"][0]["text"] == "cannot read '"$T"'/mountstats: Permission denied; live transports (XPRTS, LIVE, XPRT-*) not known, transports-down and transport-imbalance not checked"'
	json_true '"/mnt/b (bdi 0:54" in j["inputs"][1]["text"] and len(j["mounts"]) == 2'
	err_has "cannot read $T/mountstats: Permission denied" "stderr still says it"
	NFS_TUNED_MOUNTINFO=$T/none run -J
	status_is 2
	json_true 'j == {"mounts": [], "clients": [], "findings": [], "inputs": [{"input": "mountinfo", "text": "cannot read the mount table '"$T"'/none: No such file or directory; nothing is checked"}]}'
	NFS_TUNED_MOUNTINFO=$T/none run
	status_is 2; value_is "table without a mount table" "$OUT" ""
	err_has "cannot read the mount table $T/none: No such file or directory; nothing is checked"
}

# ---- findmnt's idioms: stdout holds the table and nothing else ----
# a host with findings, a hidden client and an input that cannot be read
busy_host() {
	inherited_host
	record mnt-b spec=10.99.0.1:/export/b target=/mnt/b nconnect_requested=8 nconnect_from=cmdline dev=0:54
	mount 42 0:55 /mnt/c nfs 10.99.0.2:/export/c "$V3,sec=sys,addr=10.99.0.2"
	printf '%s\n' "NV SERVER   PORT USE HOSTNAME" "v4 0a630001  801   1 10.99.0.1" \
		"v4 0a630003  801   1 10.99.0.3" "v3 0a630002  801   1 10.99.0.2" > "$T/nfsfs/servers"
	fstab "10.99.0.1:/export/x /mnt/x nfs vers=4.1,nconnect=2 0 0" \
		  "10.99.0.1:/export/y /mnt/y nfs vers=4.1,nconnect=8 0 0"
}
st_stdout_only_the_table() {
	busy_host
	run -rn -o TARGET,NCONNECT
	status_is 1
	value_is "stdout" "$OUT" "$(printf '/mnt/a 4\n/mnt/b 4\n/mnt/c 1')" "one line per NFS mount, nothing else"
	err_has "[nconnect-inherited]"; err_has "NFS clients that no mount here shows"
	local n=0 t c
	while read -r t c; do n=$((n + 1)); [ "$c" -ge 1 ] || fail "not a number: $t $c"; done < "$T/out"
	value_is "lines read" "$n" 3
	for o in -n -r -P "-o target"; do
		# shellcheck disable=SC2086
		run $o
		out_lacks "warning"; out_lacks "NFS clients that"; out_lacks "10.99.0.3"
	done
	run -J
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/out" || fail "stdout is not JSON alone"
	value_is "stderr with -J" "$(grep -c 'warning: \[' "$T/err")" 0 "the findings are in the JSON"
}
st_findmnt_selection() {
	busy_host
	run -rn -o target /mnt/b
	status_is 1 "its finding"; value_is "positional" "$OUT" /mnt/b
	err_has "[nconnect-inherited] /mnt/b"; err_lacks "[fstab-nconnect-conflict]" "only the selected mount's"
	run -rn -o target 10.99.0.2:/export/c
	status_is 0 "a source; no finding of its own"; value_is "by source" "$OUT" /mnt/c
	run -rn -o target -S filer:/export/a
	value_is "-S" "$OUT" /mnt/a
	mkdir -p "$T/tree/mnt/b/deep"
	run -rn -o target --target /mnt/b/deep/file
	value_is "-T" "$OUT" /mnt/b
	run /mnt/nothing
	status_is 2; err_has "no NFS mount at /mnt/nothing"
	run -rn -o target,source extra args
	status_is 2; err_has "unexpected argument 'args'"
}
st_findmnt_columns_and_pairs() {
	busy_host
	run -rn -o +CLIENT,live
	status_is 1
	out_matches '^/mnt/a filer:/export/a 4\.1 sys /mnt/a +4 4 128 +10\.99\.0\.1:2049/tcp/4\.1 4$' "the default, then CLIENT and LIVE"
	run --output-all
	out_matches '^TARGET +SOURCE +SERVER +PORT +PROTO +VERS +SEC +TLS +TLS-REQ +CLIENT +SET-BY +REQ +REQ-FROM +NCONNECT +XPRTS +LIVE +XPRT-SENDS +XPRT-RECVS +XPRT-BACKLOG +RA-KB +RA-WANT-KB +RA-RTT-MS +RECORD +MAJ:MIN +FINDINGS$'
	run -P -o target,nconnect,maj:min,record /mnt/b
	value_is "pairs" "$OUT" 'TARGET="/mnt/b" NCONNECT="4" MAJ:MIN="0:54" RECORD="current"'
	run -l -n -r -o target /mnt/a
	value_is "-l accepted" "$OUT" /mnt/a
}
# a terminal 80 columns wide (script(1) gives the pty): one line per mount, cut to fit; -u
# keeps every byte
# on_tty COLS [LOCALE] [ARGS...]: status as a user's terminal shows it (script(1): a pty COLS
# wide), into $T/tty without the pty's carriage returns
on_tty() {
	local cols=$1 loc=${2:-C.UTF-8}
	shift 2
	script -qec "stty cols $cols; LC_ALL=$loc \"\$BIN\" status $* 2>/dev/null" /dev/null < /dev/null | tr -d '\r' > "$T/tty"
}
# the first cell of each mount's line: a line that starts at column 0, after the header
# (a cell too wide for the room left moves the next ones to a line of their own, indented,
# as findmnt's do)
tty_targets() { awk 'NR > 1 && !/^ / { print $1 }' "$T/tty"; }
# findmnt's way: on a terminal of any width every TARGET is whole, so two kubelet PV paths
# that differ at their end are told apart; only our own columns are cut (FINDINGS, XPRT-*)
st_findmnt_keeps_target_whole() {
	command -v script > /dev/null || { echo "SKIP: no script(1)"; exit 77; }
	local long=/var/lib/kubelet/pods/0f3c1c2e-4d5b-4a7e-9c2f-1b2a3c4d5e6f/volumes/kubernetes.io~nfs/pvc-1234567890abcdef cols
	mount 40 0:53 "$long-1" nfs4 filer.example.com:/exports/projects/teams/platform/data "$V41,nconnect=4,sec=sys,addr=10.99.0.1"
	mount 41 0:54 "$long-2" nfs4 filer.example.com:/exports/projects/teams/platform/data2 "$V41,nconnect=4,sec=sys,addr=10.99.0.1"
	export BIN
	for cols in 40 80 200; do
		on_tty $cols C.UTF-8
		value_is "targets at $cols" "$(tty_targets)" "$long-1"$'\n'"$long-2" "whole, and apart"
		value_is "header at $cols" "$(head -1 "$T/tty" | awk '{ print $1, $2 }')" "TARGET SOURCE"
		grep -qE ' filer\.example\.com:/exports/projects/teams/platform/data2( |$)' "$T/tty" ||
			fail "SOURCE whole at $cols: $(cat "$T/tty")"
	done
	on_tty 40 C.UTF-8 -u
	value_is "targets with -u" "$(tty_targets)" "$long-1"$'\n'"$long-2"
	# our own column is cut to the room left, not TARGET
	: > "$T/mountinfo"; : > "$T/mountstats"
	inherited_host
	record mnt-b spec=10.99.0.1:/export/b target=/mnt/b nconnect_requested=8 nconnect_from=cmdline dev=0:54
	on_tty 40 C.UTF-8 -o target,source,findings
	value_is "targets, short" "$(tty_targets)" "/mnt/a"$'\n'"/mnt/b"
	local cut
	cut=$(awk 'NR == 3 { print $3 }' "$T/tty")
	case $cut in
		nconnect-inherited | "") fail "FINDINGS not cut at 40 columns: $(cat "$T/tty")" ;;
		nconnect-*) ;;
		*) fail "FINDINGS at 40 columns: '$cut'" ;;
	esac
	value_is "widest at 40" "$(wc -L < "$T/tty")" 40
	on_tty 40 C.UTF-8 -u -o target,source,findings
	grep -q "nconnect-inherited *$" "$T/tty" || fail "-u cut FINDINGS: $(cat "$T/tty")"
}
# a UTF-8 mount point prints as its characters in a UTF-8 locale, escaped in the C locale;
# a bidi override, a C1 control, a byte that is not UTF-8 and a backslash are escaped in both
st_table_utf8_by_locale() {
	command -v script > /dev/null || { echo "SKIP: no script(1)"; exit 77; }
	local jp=$'/mnt/\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x83\x87\xe3\x83\xbc\xe3\x82\xbf' cols
	local jp_c='/mnt/\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x83\x87\xe3\x83\xbc\xe3\x82\xbf'
	local others='/mnt/x\xe2\x80\xaecba\xc2\x9b2J'$'\n''/mnt/caf\xe9\x5cx41'
	mount 40 0:53 "$jp" nfs4 filer:/a "$V41,sec=sys,addr=10.99.0.1"
	mount 41 0:54 $'/mnt/x\xe2\x80\xaecba\xc2\x9b2J' nfs4 filer:/b "$V41,sec=sys,addr=10.99.0.1"
	mount 42 0:55 $'/mnt/caf\xe9\\134x41' nfs4 filer:/c "$V41,sec=sys,addr=10.99.0.1"
	export BIN
	for cols in 40 80 200; do
		on_tty $cols C.UTF-8
		value_is "UTF-8 at $cols" "$(tty_targets)" "/mnt/日本語データ"$'\n'"$others" "as characters; bidi, C1, Latin-1, backslash escaped"
		on_tty $cols C
		value_is "C at $cols" "$(tty_targets)" "$jp_c"$'\n'"$others" "escaped whole, never cut inside an escape"
		grep -q $'[\x80-\xff]' "$T/tty" && fail "C: a byte above 0x7f reached the terminal: $(cat -A "$T/tty")"
	done
	# the columns line up on the screen (a CJK character is two cells wide)
	on_tty 200 C.UTF-8 -o target,source
	value_is "SOURCE's screen column" "$(sed -n 2p "$T/tty" | sed 's/filer.*//' | wc -L)" "$(sed -n 4p "$T/tty" | sed 's/filer.*//' | wc -L)"
}

# ---- JSON and escapes ----
st_json_arrays_and_nulls() {
	busy_host
	run -J -o target,record,req,nconnect,findings
	status_is 1
	json_true 'j["mounts"][1] == {"target": "/mnt/b", "record": "current", "req": 8, "nconnect": 4, "findings": ["nconnect-inherited"]}'
	json_true 'j["mounts"][0]["record"] is None and j["mounts"][0]["req"] is None and j["mounts"][0]["findings"] == []'
}
st_escapes_everywhere() {
	# a mount point with an ESC sequence and a forged line, and one that is not UTF-8
	local evil=$'/mnt/e\e[31mvil\nnfs-tuned: warning: forged' latin=$'/mnt/caf\xe9'
	conf 'read_ahead_kb = 15360'
	mount 40 0:53 "/mnt/e\\033[31mvil\\012nfs-tuned:\\040warning:\\040forged" nfs4 filer:/a "$V41,sec=sys,addr=10.99.0.1"
	mount 41 0:54 "$latin" nfs4 filer:/b "$V41,sec=sys,addr=10.99.0.1"
	run
	status_is 1
	grep -q $'\e' "$T/out" "$T/err" && fail "a raw ESC reached the terminal"
	value_is "forged lines" "$(grep -c '^nfs-tuned: warning: forged' "$T/err")" 0
	err_has 'read_ahead_kb of bdi 0:53 is 128' ; err_has '/mnt/e\x1b[31mvil\x0anfs-tuned: warning: forged'
	out_has '/mnt/e\x1b[31mvil\x0anfs-tuned: warning: forged' "the table, as libsmartcols escapes"
	run -J -o target
	python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$T/out" || fail "JSON not valid UTF-8: $(cat "$T/out")"
	json_true 'j["mounts"][0]["target"] == "/mnt/e\\x1b[31mvil\\x0anfs-tuned: warning: forged" and j["mounts"][1]["target"] == "/mnt/caf\\xe9"'
	run --prometheus "$T/p.prom"
	grep -q $'\xe9' "$T/p.prom" && fail "a byte that is not UTF-8 in the textfile"
	OUT=$(cat "$T/p.prom")
	out_has 'mountpoint="/mnt/caf\\xe9"' "escaped, never dropped"
	if command -v promtool > /dev/null; then
		promtool check metrics < "$T/p.prom" > "$T/pt" 2>&1 || fail "promtool: $(cat "$T/pt")"
	fi
	: "$evil"
}
# a newline in one mount point, the four characters \x0a in another: JSON tells them apart
st_json_backslash_unambiguous() {
	mount 40 0:53 '/mnt/n\012l' nfs4 filer:/a "$V41,sec=sys,addr=10.99.0.1"
	mount 41 0:54 '/mnt/n\134x0al' nfs4 filer:/b "$V41,sec=sys,addr=10.99.0.1"
	run -J -o target,set-by
	status_is 0
	json_true 'j["mounts"][0]["target"] == "/mnt/n\\x0al" and j["mounts"][1]["target"] == "/mnt/n\\x5cx0al"'
	json_true 'j["mounts"][1]["set-by"] == "/mnt/n\\x0al"'
	# the one rule undone: \xNN back to its byte gives each mount point as the kernel has it
	json_true '[bytes(re.sub(r"\\x([0-9a-f]{2})", lambda m: chr(int(m.group(1), 16)), x["target"]), "latin-1") for x in j["mounts"]] == [b"/mnt/n\nl", b"/mnt/n\\x0al"]'
}
st_write_errors() {
	inherited_host
	"$BIN" status > /dev/full 2> "$T/err"; RC=$?; ERR=$(cat "$T/err")
	status_is 2 "stdout full"; err_has "cannot write to standard output: No space left on device"
	"$BIN" status -J > /dev/full 2> "$T/err"; RC=$?; ERR=$(cat "$T/err")
	status_is 2; err_has "No space left on device"
	"$BIN" status --prometheus - > /dev/full 2> "$T/err"; RC=$?; ERR=$(cat "$T/err")
	status_is 2; err_has "cannot write to standard output: No space left on device"
}
st_write_errors_full_file_system() {
	# a full file system under the textfile: its real errno (a tmpfs of 4 KiB in a mount
	# namespace of its own, so nothing stays mounted)
	needs_root "a tmpfs mounted in a mount namespace of its own"
	unshare -m true 2> /dev/null || { echo "SKIP: cannot create a mount namespace here"; exit 77; }
	inherited_host
	mkdir "$T/full"
	unshare -m sh -c 'mount -t tmpfs -o size=4k none "$1" && "$2" status --prometheus "$1/x.prom"' \
		sh "$T/full" "$BIN" > /dev/null 2> "$T/err"; RC=$?; ERR=$(cat "$T/err")
	status_is 2; err_has "cannot write $T/full/x.prom: No space left on device"
	err_lacks "Input/output error"
}

# ---- per-connection figures ----
# sysfs_xprt SWITCH ID SRCPORT MAIN STATE: a transport of the sunrpc sysfs to 10.99.0.1
st_transports_load_and_offline() {
	mkdir -p "$T/sys/kernel/sunrpc/xprt-switches/switch-1"
	SENDS=500 mount 40 0:53 /mnt/a nfs4 filer:/export/a "$V41,nconnect=4,sec=sys,addr=10.99.0.1"
	run -rn -o target,xprts,live,xprt-sends
	status_is 0 "four transports, the load spread"
	value_is "table" "$OUT" "/mnt/a 4 4 500,500,500,500"
	# one taken offline (rpcctl xprt set offline): the sysfs says so in the switch of the main
	# transport, found by its local port; another client's switch has one offline too
	sysfs_xprt 1 0 $((700 + 40 * 16)) 1 "CONNECTED BOUND"
	sysfs_xprt 1 1 41000 0 "CONNECTED BOUND"
	sysfs_xprt 1 2 41001 0 "CONNECTED BOUND"
	sysfs_xprt 1 3 41002 0 "CONNECTED BOUND OFFLINE"
	sysfs_xprt 2 5 42000 1 "CONNECTED BOUND"
	sysfs_xprt 2 6 42001 0 "CONNECTED BOUND OFFLINE"
	local x=$T/sys/kernel/sunrpc/xprt-switches/switch-1/xprt-3-tcp
	run -rn -o target,xprts,live
	status_is 1
	value_is "table" "$OUT" "/mnt/a 4 3"
	err_has "[transports-down] the NFS client of 10.99.0.1 (tcp, NFSv4.1) that /mnt/a set up has 3 live transports of the nconnect=4"
	run -J -o target,live,xprt-sends
	json_true 'j["mounts"][0] == {"target": "/mnt/a", "live": 3, "xprt-sends": [500, 500, 500, 500]}'
	run --prometheus -
	out_has 'nfs_tuned_client_transports_live{mountaddr="10.99.0.1",port="2049",protocol="tcp",vers="4.1"} 3'
	out_has 'nfs_tuned_client_transport_sends_total{mountaddr="10.99.0.1",port="2049",protocol="tcp",vers="4.1",transport="3"} 500'
	# as Linux 6.1 shows it: no local port on any xprt: line, and the offline transport left
	# out of mountstats; the switch is the only one of 3 live transports to the server
	sed -i "s/tcp $((700 + 40 * 16)) /tcp 0 /; 0,/tcp 0 1 1 0 0 500/{/tcp 0 1 1 0 0 500/d}" "$T/mountstats"
	run -rn -o target,nconnect,xprts,live
	status_is 1
	value_is "table (6.1)" "$OUT" "/mnt/a 4 3 3"
	err_has "has 3 live transports of the nconnect=4 it was made with (mountstats lists 3, the sunrpc sysfs shows 1 offline)"
	# a line the kernel never writes does not count as a transport
	rm -rf "$x"; printf '\txprt: GARBAGE\n' >> "$T/mountstats"
	run -rn -o target,xprts
	status_is 2; value_is "table" "$OUT" "/mnt/a 3"
	err_has "1 xprt: line of /mnt/a not understood; not counted"
}
st_transport_imbalance() {
	mount 40 0:53 /mnt/a nfs4 filer:/export/a "$V41,nconnect=4,sec=sys,addr=10.99.0.1"
	# the first transport carried 9,700 of 10,000 sends
	sed -i '0,/xprt:/s/\(tcp [0-9]* 1 1 0 0\) 0 0 0 0/\1 9700 9700 0 9700/' "$T/mountstats"
	sed -i 's/\(tcp [0-9]* 1 1 0 0\) 0 0 0 0/\1 100 100 0 100/' "$T/mountstats"
	run -rn -o target,xprt-sends
	status_is 1; value_is "table" "$OUT" "/mnt/a 9700,100,100,100"
	err_has "[transport-imbalance] the NFS client that /mnt/a set up sent 9700 of its 10000 RPC requests (97%) over transport 0 of 4"
	# below LOAD_MIN_SENDS: too early to say
	sed -i 's/ 9700 9700 0 9700/ 97 97 0 97/; s/ 100 100 0 100/ 1 1 0 1/' "$T/mountstats"
	run
	status_is 0
}

# the scratch tree every case starts from, and the binary's paths pointed into it
harness_setup() {
	BIN=$1 FIXTURES=$2
	status_host
	unset XPRTS SENDS
	RUNAS=()
	ERR=
}

harness_main st 3 "status.sh --list | status.sh BINARY FIXTURES CASE" "$@"
