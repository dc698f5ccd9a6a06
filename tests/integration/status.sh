#!/bin/bash
# Integration cases of `nfs-tuned status`: the built binary against fixture trees (mountinfo,
# mountstats, nfsfs, a sysfs bdi tree, the helper's run directory, fstab, udev rule
# directories, nfsmount.conf).  The lab scenario tests/lab/status.sh proves the same against
# a real kernel client and server.
#   status.sh --list                    the case names (meson registers them)
#   status.sh BINARY FIXTURES CASE      runs one case; an unknown CASE is an error (exit 2)
# A case is a function st_NAME.  run sets RC, OUT (stdout) and ERR (stderr).
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/assert.sh"

V41="vers=4.1,rsize=1048576,wsize=1048576,namlen=255,hard,proto=tcp,timeo=600,retrans=2,clientaddr=10.99.0.2,local_lock=none"
V3="vers=3,rsize=1048576,wsize=1048576,namlen=255,hard,proto=tcp,timeo=600,retrans=2,mountaddr=10.99.0.1,local_lock=none"

# mount ID DEV TARGET FSTYPE SOURCE OPTS: a mountinfo line, its bdi (read_ahead_kb 128) and
# its mountstats entry with N transports (XPRTS, default the nconnect= of OPTS, else 1), each
# as the kernel writes a tcp one: local port 700+ID*16+N, SENDS requests sent (default 0)
mount() {
    local id=$1 dev=$2 target=$3 type=$4 src=$5 opts=$6 n i
    echo "$id 21 $dev / $target rw,relatime shared:$id - $type $src rw,$opts" >> "$T/mountinfo"
    mkdir -p "$T/sys/class/bdi/$dev"
    echo 128 > "$T/sys/class/bdi/$dev/read_ahead_kb"
    n=${XPRTS:-$(printf '%s\n' "$opts" | sed -n 's/.*nconnect=\([0-9]*\).*/\1/p')}
    echo "device $src mounted on $target with fstype $type statvers=1.1" >> "$T/mountstats"
    printf '\topts:\trw\n' >> "$T/mountstats"
    for i in $(seq "${n:-1}"); do
        xprt_line $((700 + id * 16 + i)) "${SENDS:-0}" >> "$T/mountstats"
    done
}
# xprt_line SRCPORT SENDS: srcport bind connect connect_time idle sends recvs bad_xids req_u
# bklog_u max_slots sending_u pending_u
xprt_line() { printf '\txprt:\ttcp %s 1 1 0 0 %s %s 0 %s 0 65 0 0\n' "$1" "$2" "$2" "$2"; }
ra() { echo "$2" > "$T/sys/class/bdi/$1/read_ahead_kb"; }
# record NAME KEY=VALUE...: the helper's mount record
record() {
    local name=$1; shift
    { echo "# nfs-tuned mount record 1"; printf '%s\n' "$@"; } > "$T/run/mounts/$name"
}
conf() { printf '%s\n' "$@" > "$T/conf"; }
fstab() { printf '%s\n' "$@" > "$T/fstab"; }

run() {
    "$BIN" status "$@" > "$T/out" 2> "$T/err"
    RC=$?
    OUT=$(cat "$T/out")
    ERR=$(cat "$T/err")
}
# the assertions on standard error (findings, hidden clients, what could not be read)
err_has() { local o=$OUT r; OUT=$ERR; out_has "$@"; r=$?; OUT=$o; return $r; }
err_lacks() { local o=$OUT r; OUT=$ERR; out_lacks "$@"; r=$?; OUT=$o; return $r; }
err_matches() { local o=$OUT r; OUT=$ERR; out_matches "$@"; r=$?; OUT=$o; return $r; }
on_fail() { echo "FAIL [$CASE]: $*"; echo "  rc=$RC"; echo "  stdout: $OUT" | head -c 3000; echo "  stderr: $ERR"; }
# the JSON output parses, and a Python expression over it (j) is true
json_true() {
    python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' \
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
    json_true 'j["findings"] == [] and j["clients"] == []'
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
    out_has 'nfs_tuned_mount_info{mountpoint="/mnt/a",export="filer:/export/a",mountaddr="10.99.0.1",port="2049",protocol="tcp",vers="4.1",sec="sys",set_by="/mnt/a",record="current",nconnect_requested="4",read_ahead_bytes="15728640",read_ahead_wanted_bytes="15728640"} 1'
    out_has 'nfs_tuned_mount_info{mountpoint="/mnt/q\"uote",export="10.99.0.1:/export/b",mountaddr="10.99.0.1",port="2049",protocol="tcp",vers="4.1",sec="krb5p",set_by="/mnt/a",record="none",nconnect_requested="",read_ahead_bytes="131072",' "not known: empty"
    out_has 'nfs_tuned_client_transports{mountaddr="10.99.0.1",port="2049",protocol="tcp",vers="4.1"} 4'
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
st_config_error_is_a_finding() {
    conf '[global]' 'nconnect = 99'
    run
    status_is 1; err_has "[config-error] $T/conf:2"
}

if [ "${1:-}" = --list ]; then
    declare -F | sed -n 's/^declare -f st_//p' | tr _ -
    exit 0
fi
[ $# = 3 ] || { echo "usage: status.sh --list | status.sh BINARY FIXTURES CASE" >&2; exit 2; }
BIN=$1 FIXTURES=$2 CASE=$3
fn=st_${CASE//-/_}
declare -F "$fn" > /dev/null || { echo "unknown case $CASE (status.sh --list)"; exit 2; }

T=$(mktemp -d "${TMPDIR:-/tmp}/nfs-tuned-st.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/nfsfs" "$T/sys/class/bdi" "$T/run/mounts" "$T/udev"
chmod 755 "$T/run" "$T/run/mounts"
echo "21 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw" > "$T/mountinfo"
: > "$T/mountstats" > "$T/conf" > "$T/fstab"
chmod 644 "$T/conf"
export NFS_TUNED_CONFIG=$T/conf NFS_TUNED_VENDOR_CONFIG=$T/vendor NFS_TUNED_MOUNTINFO=$T/mountinfo \
       NFS_TUNED_NFSFS=$T/nfsfs NFS_TUNED_SYSFS=$T/sys NFS_TUNED_RUNDIR=$T/run \
       NFS_TUNED_FSTAB=$T/fstab NFS_TUNED_MOUNTSTATS=$T/mountstats NFS_TUNED_UDEV_RULES=$T/udev/etc:$T/udev/lib \
       NFS_TUNED_NFSMOUNT_CONF=$T/nfsmount.conf
unset XPRTS

"$fn"

[ "$FAILURES" = 0 ] && { echo "ok $CASE"; exit 0; }
exit 1
