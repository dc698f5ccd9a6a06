#!/bin/bash
# Integration cases: the built mount.nfs-tuned against fixture trees (mountinfo, nfsfs, a sysfs
# bdi directory) and a stub mount.nfs that records its argv.  The lab suite proves the same
# behaviour against a real kernel client and server.
#   cases.sh HELPER STUB FIXTURES CASE
set -u
HELPER=$1 STUB=$2 FIXTURES=$3 CASE=$4

T=$(mktemp -d "${TMPDIR:-/tmp}/nfs-tuned-it.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/nfsfs" "$T/sys/class/bdi" "$T/run" "$T/stub" "$T/mnt/b" "$T/bin"
: > "$T/mountinfo"
: > "$T/conf"
chmod 644 "$T/conf"
export NFS_TUNED_CONFIG=$T/conf NFS_TUNED_MOUNTINFO=$T/mountinfo NFS_TUNED_NFSFS=$T/nfsfs \
       NFS_TUNED_SYSFS=$T/sys NFS_TUNED_RUNDIR=$T/run NFS_TUNED_UDEV_CONTROL=$T/no-udev \
       NFS_TUNED_MOUNT_NFS=$STUB STUB_DIR=$T/stub
unset STUB_EXIT STUB_MOUNTINFO_LINE STUB_BDI STUB_SLEEP_MS
DIR=$T/mnt/b
failures=0

fixture() { # fixture MOUNTINFO [SERVERS VOLUMES]
    cp "$FIXTURES/$1" "$T/mountinfo"
    [ $# -ge 3 ] && cp "$FIXTURES/$2" "$T/nfsfs/servers" && cp "$FIXTURES/$3" "$T/nfsfs/volumes"
    return 0
}
conf() { printf '%s\n' "$@" > "$T/conf"; }

# run ARGS...: runs the helper; sets rc, err (stderr), out (stdout)
run() {
    rm -f "$T/stub/argv"
    "$HELPER" "$@" > "$T/out" 2> "$T/err"
    rc=$?
    out=$(cat "$T/out") err=$(cat "$T/err")
}
fail() { echo "FAIL [$CASE]: $*"; echo "  rc=$rc"; echo "  stderr: $err" | head -c 3000; echo; failures=$((failures + 1)); }
expect_rc() { [ "$rc" = "$1" ] || fail "exit status $rc, expected $1"; }
expect_err() { grep -qF -- "$1" "$T/err" || fail "stderr lacks '$1'"; }
expect_no_err() { grep -qF -- "$1" "$T/err" && fail "stderr has '$1'"; return 0; }
expect_silent() { [ ! -s "$T/err" ] || fail "stderr not empty"; }
expect_exec() { [ -f "$T/stub/argv" ] || fail "mount.nfs was not run"; }
expect_no_exec() { [ ! -f "$T/stub/argv" ] || fail "mount.nfs was run: $(tr '\n' ' ' < "$T/stub/argv")"; }
argv() { [ -f "$T/stub/argv" ] && sed -n "$1p" "$T/stub/argv"; }
argv_all() { [ -f "$T/stub/argv" ] && tr '\n' ' ' < "$T/stub/argv"; }
expect_argv() { [ "$(argv "$1")" = "$2" ] || fail "argv[$(($1 - 1))] is '$(argv "$1")', expected '$2' (argv: $(argv_all))"; }
expect_opts_has() { argv_all | grep -qE -- "(^| )-o ([^ ]*,)?$1(,| |$)" || fail "options lack $1: $(argv_all)"; }
expect_opts_lacks() { argv_all | grep -qE -- "(^| )-o ([^ ]*,)?$1(,| |$)" && fail "options have $1: $(argv_all)"; return 0; }
# the line the stub appends for the new mount
newmount() { # newmount DEV OPTS
    export STUB_MOUNTINFO_LINE="60 21 $1 / $DIR rw,relatime shared:60 - nfs filer:/export/b rw,$2"
}
V3NEW="vers=3,rsize=1048576,wsize=1048576,namlen=255,hard,proto=tcp,timeo=600,retrans=2,sec=sys,mountaddr=10.99.0.1,local_lock=none,addr=10.99.0.1"

case $CASE in
dry-run-plan)
    fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
    conf '[global]' 'read_ahead_kb = 15360'
    run 10.99.0.1:/export/b "$DIR" -f -v -o vers=3,nconnect=8
    expect_rc 0; expect_no_exec
    for l in "endpoint: 10.99.0.1:/export/b -> 10.99.0.1" "client: 10.99.0.1 port 2049, NFSv3 over tcp: nconnect=4" \
             "/mnt/a (filer:/export/a), /mnt/a2 (10.99.0.1:/export/a) <- this mount shares it" \
             "verdict: shares a client; nconnect: warn" "exec: $STUB 10.99.0.1:/export/b $DIR -v -o vers=3,nconnect=8 (as mount.nfs)" \
             "read-ahead: 15360 KiB" "config: read_ahead_kb=15360 from $T/conf:2"; do expect_err "$l"; done
    ;;
dry-run-quiet)
    fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
    run 10.99.0.1:/export/b "$DIR" -f -o vers=3,nconnect=4
    expect_rc 0; expect_no_exec; expect_silent
    ;;
good-mount-silent)
    newmount 0:60 "$V3NEW"
    run 10.99.0.1:/export/b "$DIR" -o vers=3
    expect_rc 0; expect_exec; expect_silent
    expect_argv 1 mount.nfs; expect_argv 2 10.99.0.1:/export/b; expect_argv 3 "$DIR"; expect_argv 4 -o; expect_argv 5 vers=3
    ;;
conflict-warn)
    fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
    newmount 0:53 "${V3NEW/hard,/hard,nconnect=4,}"
    run 10.99.0.1:/export/b "$DIR" -o vers=3,nconnect=8
    expect_rc 0; expect_exec; expect_opts_has nconnect=8
    expect_err "mount.nfs-tuned: warning: nconnect=8 cannot take effect"
    expect_err "/mnt/a (filer:/export/a)"; expect_err "which has 4 connections (nconnect=4)"
    expect_err "unmount every mount of that client first"
    # verification agrees with the plan (4 connections): no second warning
    [ "$(grep -c warning "$T/err")" = 1 ] || fail "expected exactly one warning"
    ;;
conflict-refuse)
    fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
    conf '[server "10.99.0.0/16"]' 'nconnect_policy = refuse'
    run 10.99.0.1:/export/b "$DIR" -o vers=3,nconnect=8
    expect_rc 32; expect_no_exec
    expect_err "refusing to mount: nconnect=8 cannot take effect"; expect_err "/mnt/a (filer:/export/a)"
    ;;
conflict-follow)
    fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
    conf 'nconnect_policy = follow'
    run 10.99.0.1:/export/b "$DIR" -o vers=3,nconnect=8,hard
    expect_rc 0; expect_exec; expect_opts_lacks 'nconnect=[0-9]*'; expect_opts_has hard
    expect_err "following the existing client: nconnect=8 cannot take effect"
    ;;
config-default-follows-quietly)
    fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
    conf '[global]' 'nconnect = 8'
    newmount 0:53 "${V3NEW/hard,/hard,nconnect=4,}"
    run 10.99.0.1:/export/b "$DIR" -o vers=3
    expect_rc 0; expect_exec; expect_opts_lacks 'nconnect=[0-9]*'; expect_silent
    run 10.99.0.1:/export/b "$DIR" -v -f -o vers=3
    expect_err "nconnect: follow (quiet)"; expect_err "the configured default nconnect is dropped"
    # the same default on a new client is used
    : > "$T/mountinfo"; : > "$T/nfsfs/servers"
    newmount 0:60 "${V3NEW/hard,/hard,nconnect=8,}"
    run 10.99.0.1:/export/b "$DIR" -o vers=3
    expect_rc 0; expect_opts_has nconnect=8
    ;;
same-nconnect-silent)
    fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
    newmount 0:53 "${V3NEW/hard,/hard,nconnect=4,}"
    run 10.99.0.1:/export/b "$DIR" -o vers=3,nconnect=4
    expect_rc 0; expect_exec; expect_silent
    ;;
no-conflict-other-port-version-proto)
    fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
    conf 'nconnect_policy = refuse'
    for o in vers=3,port=2050 vers=4.1 vers=4.2 vers=3,proto=rdma vers=3,proto=udp; do
        run 10.99.0.1:/export/b "$DIR" -f -o "$o,nconnect=8"
        expect_rc 0; expect_no_err refusing
    done
    # port=2049 is the default: the same client
    run 10.99.0.1:/export/b "$DIR" -f -o vers=3,port=2049,nconnect=8
    expect_rc 32
    ;;
minor-version-separate)
    fixture mountinfo-v41-loopback
    conf 'nconnect_policy = refuse'
    run 127.0.0.1:/x "$DIR" -f -o vers=4.2,nconnect=8
    expect_rc 0
    run 127.0.0.1:/x "$DIR" -f -o vers=4,minorversion=1,nconnect=8
    expect_rc 32; expect_err "NFSv4.1 over tcp"
    run 127.0.0.1:/x "$DIR" -f -t nfs4 -o v4.1,nconnect=8
    expect_rc 32
    ;;
hostname-same-address)
    fixture mountinfo-v41-loopback
    conf 'nconnect_policy = refuse'
    # localhost resolves to 127.0.0.1; proto=tcp keeps IPv4 as mount.nfs does
    run localhost:/y "$DIR" -f -o vers=4.1,proto=tcp,nconnect=4
    expect_rc 32; expect_err "127.0.0.1 port 2049, NFSv4.1 over tcp with /mnt/lo (127.0.0.1:/)"
    # the bare tcp flag means proto=tcp in mount.nfs: IPv4 too
    run localhost:/y "$DIR" -f -o vers=4.1,tcp,nconnect=4
    expect_rc 32; expect_err "with /mnt/lo (127.0.0.1:/)"
    ;;
other-network-namespace)
    # /mnt/v6 shows in this mount table, but this netns has no client to fd00::1: it was
    # mounted from another network namespace, whose clients are separate
    fixture mountinfo-v41-loopback
    cp "$FIXTURES/nfsfs-servers-other-netns" "$T/nfsfs/servers"
    conf 'nconnect_policy = refuse'
    run "[fd00::1]:/z" "$DIR" -f -v -o vers=4.2,nconnect=4
    expect_rc 0; expect_err "(made from another network namespace: separate)"
    expect_err "verdict: new client"
    run 127.0.0.1:/z "$DIR" -f -o vers=4.1,nconnect=4
    expect_rc 32
    ;;
ipv6-literal)
    fixture mountinfo-v41-loopback
    conf 'nconnect_policy = refuse' '[server "fd00::/8"]' 'krb5_policy = refuse'
    run "[fd00::1]:/z" "$DIR" -f -o vers=4.2,nconnect=4
    expect_rc 32; expect_err "fd00::1 port 2049, NFSv4.2 over tcp with /mnt/v6 ([fd00::1]:/)"
    run "[fd00::1]:/z" "$DIR" -f -o vers=4.2,nconnect=2,sec=krb5
    expect_rc 32; expect_err "refusing to mount: sec=krb5 on an NFS client with 2 connections (inherited from /mnt/v6"
    ;;
hidden-client)
    fixture mountinfo-v3-nconnect4 nfsfs-servers-hidden nfsfs-volumes-hidden
    run 10.99.0.2:/export/c "$DIR" -f -o vers=3,nconnect=4
    expect_rc 0; expect_err "no mount of this mount namespace shows it"
    conf 'nconnect_policy = refuse'
    run 10.99.0.2:/export/c "$DIR" -f -o vers=3,nconnect=4
    expect_rc 32; expect_err "refusing to mount: nconnect=4 cannot take effect"
    # a config default meeting a hidden client is followed quietly, and the verification
    # does not take the unknown nconnect for a race
    conf 'nconnect = 8'
    newmount 0:71 "${V3NEW//10.99.0.1/10.99.0.2}"
    run 10.99.0.2:/export/c "$DIR" -o vers=3
    expect_rc 0; expect_exec; expect_silent; expect_opts_lacks 'nconnect=[0-9]*'
    unset STUB_MOUNTINFO_LINE
    conf 'nconnect_policy = refuse'
    # NFSv4: nfsfs shows no minor version, so a hidden v4 client may be this mount's
    fixture mountinfo-v41-loopback
    cp "$FIXTURES/nfsfs-servers-v4-hidden" "$T/nfsfs/servers"
    run 10.99.0.9:/v4 "$DIR" -f -o vers=4.2,nconnect=4
    expect_rc 32; expect_err "its NFSv4 minor version is not shown either"
    # 127.0.0.1's v4 line is the visible /mnt/lo client, not a hidden one
    run 127.0.0.1:/v4 "$DIR" -f -o vers=4.2,nconnect=4
    expect_rc 0; expect_no_err "no mount of this mount namespace"
    fixture mountinfo-v3-nconnect4 nfsfs-servers-hidden nfsfs-volumes-hidden
    # the visible client's lines are accounted for: 10.99.0.1 is not hidden
    run 10.99.0.1:/export/c "$DIR" -f -o vers=3,nconnect=4
    expect_rc 0; expect_no_err "no mount of this mount namespace"
    ;;
krb5)
    conf '[global]' 'krb5_policy = warn'
    run 10.99.0.3:/k "$DIR" -f -o vers=4.1,sec=krb5p,nconnect=4
    expect_rc 0; expect_err "warning: sec=krb5p on an NFS client with 4 connections (requested by this mount's nconnect)"
    expect_err "one GSS context and sequence window"
    conf 'krb5_policy = refuse'
    run 10.99.0.3:/k "$DIR" -o vers=4.1,sec=krb5i,nconnect=4
    expect_rc 32; expect_no_exec; expect_err "refusing to mount: sec=krb5i"
    run 10.99.0.3:/k "$DIR" -f -o vers=4.1,sec=krb5p,nconnect=1
    expect_rc 0; expect_no_err krb5
    # inherited: no nconnect asked, the client has 4
    fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
    run 10.99.0.1:/k "$DIR" -o vers=3,sec=krb5
    expect_rc 32; expect_err "sec=krb5 on an NFS client with 4 connections (inherited from /mnt/a (filer:/export/a)"
    ;;
nconnect-range)
    for v in 0 17 -1 abc "" 99999999999999999999; do
        run 10.99.0.1:/e "$DIR" -o "vers=3,nconnect=$v"
        expect_rc 32; expect_no_exec; expect_err "refusing to mount: nconnect=$v (from the command line) is not valid: it must be a number from 1 to 16"
    done
    run 10.99.0.1:/e "$DIR" -o vers=5
    expect_rc 32; expect_err "vers=5 (from the command line) is not valid: it must be 3, 4, 4.0, 4.1 or 4.2"
    ;;
exit-status-passthrough)
    for s in 32 1 2 16 64; do
        export STUB_EXIT=$s
        run 10.99.0.1:/e "$DIR" -o vers=3
        expect_rc "$s"; expect_exec
    done
    ;;
self-exec-refused)
    export NFS_TUNED_MOUNT_NFS=$HELPER
    run 10.99.0.1:/e "$DIR" -o vers=3
    expect_rc 2; expect_err "refusing to run $HELPER: it is this helper itself"
    ln -s "$HELPER" "$T/bin/mount.nfs"
    export NFS_TUNED_MOUNT_NFS=$T/bin/mount.nfs
    run 10.99.0.1:/e "$DIR" -o vers=3
    expect_rc 2; expect_err "mount_nfs in [global]"
    # and via the config's mount_nfs
    export NFS_TUNED_MOUNT_NFS=$STUB
    conf "mount_nfs = $HELPER"
    run 10.99.0.1:/e "$DIR" -o vers=3
    expect_rc 2
    ln -s "$HELPER" "$T/bin/umount.nfs"
    rc=0; "$T/bin/umount.nfs" "$DIR" 2> "$T/err"; rc=$?; err=$(cat "$T/err")
    expect_rc 2; expect_err "it is this helper itself"
    ;;
missing-mount-nfs)
    export NFS_TUNED_MOUNT_NFS=$T/none/mount.nfs
    run 10.99.0.1:/e "$DIR" -o vers=3
    expect_rc 2; expect_err "cannot run the real mount.nfs $T/none/mount.nfs: No such file or directory"
    ;;
mount-nfs-candidates)
    # several build-time names for the real binary: the first that exists is run
    export NFS_TUNED_MOUNT_NFS="$T/none/mount.nfs.usr-is-merged:$STUB:$T/none/other"
    run 10.99.0.1:/e "$DIR" -o vers=3
    expect_rc 0; expect_exec
    run 10.99.0.1:/e "$DIR" -f -v -o vers=3
    expect_err "exec: $STUB 10.99.0.1:/e"
    # one that exists but cannot run stops the search: it is reported, never skipped
    mkdir -p "$T/dir.d"
    export NFS_TUNED_MOUNT_NFS="$T/dir.d:$STUB"
    run 10.99.0.1:/e "$DIR" -o vers=3
    expect_rc 2; expect_no_exec; expect_err "cannot run the real mount.nfs $T/dir.d: not a regular file"
    export NFS_TUNED_MOUNT_NFS="$T/none/a:$T/none/b"
    run 10.99.0.1:/e "$DIR" -o vers=3
    expect_rc 2; expect_err "cannot run the real mount.nfs $T/none/a:$T/none/b: No such file or directory"
    ;;
umount-passthrough)
    for name in umount.nfs umount.nfs4; do
        ln -sf "$HELPER" "$T/bin/$name"
        rm -f "$T/stub/argv"
        "$T/bin/$name" "$DIR" -f -v -l 2> "$T/err"; rc=$?; err=$(cat "$T/err")
        expect_rc 0; expect_argv 1 "$T/bin/$name"; expect_argv 2 "$DIR"; expect_argv 3 -f; expect_argv 4 -v; expect_argv 5 -l; expect_argv 6 --
        export STUB_EXIT=16
        "$T/bin/$name" "$DIR" 2> /dev/null; rc=$?
        expect_rc 16; unset STUB_EXIT
    done
    ;;
invocation-names)
    ln -s "$HELPER" "$T/bin/mount.nfs4"; ln -s "$HELPER" "$T/bin/mount.nfs"
    HELPER=$T/bin/mount.nfs4 run 10.99.0.1:/e "$DIR" -o rsize=65536
    expect_rc 0; expect_argv 1 mount.nfs4
    HELPER=$T/bin/mount.nfs run 10.99.0.1:/e "$DIR" -t nfs4 -N "$$" -s -n -r -o rsize=65536
    expect_rc 0; expect_argv 1 mount.nfs4
    argv_all | grep -qE -- ' -t | -N |nfs4 (.* )?nfs4' && fail "-t or -N forwarded: $(argv_all)"
    expect_argv 4 -s; expect_argv 5 -n; expect_argv 6 -r
    HELPER=$T/bin/mount.nfs run 10.99.0.1:/e "$DIR" -o rsize=65536
    expect_argv 1 mount.nfs
    ;;
namespace-with-own-proc)
    # -N into a mount namespace whose /proc belongs to another PID namespace (a container):
    # /proc/self does not resolve there, so every read goes through the caller's root
    unshare -m -p -f --mount-proc --kill-child sleep 30 >/dev/null 2>&1 & ns=$!
    sleep 0.5
    kill -0 "$ns" 2>/dev/null && [ "$(readlink /proc/$ns/ns/mnt)" != "$(readlink /proc/self/ns/mnt)" ] ||
        { echo "SKIP: cannot create mount and PID namespaces here"; exit 77; }
    fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
    newmount 0:53 "${V3NEW/hard,/hard,nconnect=4,}"
    # under ASan: LeakSanitizer reads /proc/self/task at exit, which the target's /proc lacks
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        run 10.99.0.1:/export/b "$DIR" -N "$ns" -o vers=3,nconnect=8
    kill "$ns"
    expect_rc 0; expect_exec; expect_no_err "cannot read"
    expect_err "warning: nconnect=8 cannot take effect"
    [ "$(grep -c warning "$T/err")" = 1 ] || fail "expected exactly one warning (the verification found the mount)"
    ;;
command-line-shapes)
    run -o vers=3 10.99.0.1:/e -v -o nconnect=2 "$DIR" -w -o hard -f
    expect_rc 0; expect_err "exec: $STUB 10.99.0.1:/e $DIR -v -w -o vers=3,nconnect=2,hard"
    run 10.99.0.1:/e "$DIR" -fvo'vers=3,sec=sys'
    expect_rc 0; expect_err "-o vers=3,sec=sys (as mount.nfs)"
    run 10.99.0.1:/e "$DIR" -f -v -o 'vers=3,context="system_u:object_r:nfs_t:s0:c1,c2"'
    expect_rc 0; expect_err '-o vers=3,context="system_u:object_r:nfs_t:s0:c1,c2" (as mount.nfs)'
    ;;
usage-errors)
    run; expect_rc 1; expect_err "missing remote file system and mount point"
    run 10.99.0.1:/e; expect_rc 1; expect_err "missing mount point"
    run nocolon "$DIR"; expect_rc 1; expect_err "'nocolon' is not a remote file system"
    run fd00::1:/x "$DIR"; expect_rc 1; expect_err "[IPv6-address]:/path"
    run 10.99.0.1:/e "$DIR" -t xfs; expect_rc 1; expect_err "file system type 'xfs' is not nfs"
    run 10.99.0.1:/e "$DIR" -q; expect_rc 1; expect_err "unknown option '-q'"
    run 10.99.0.1:/e "$DIR" -o; expect_rc 1; expect_err "option '-o' needs an argument"
    run 10.99.0.1:/e "$DIR" -o "mount_nfs=/tmp/x"; expect_rc 1; expect_err "mount_nfs cannot be given on the command line"
    run 10.99.0.1:/e "$DIR" -o "read_ahead_kb=lots"; expect_rc 1
    expect_err "read_ahead_kb=lots on the command line is not valid: it must be a size in KiB (15360), a multiple of rsize (15x) or keep"
    run 10.99.0.1:/e "$DIR" -N /nonexistent/ns; expect_rc 2; expect_err "cannot enter the mount namespace /nonexistent/ns"
    expect_no_exec
    run -h; expect_rc 0; grep -q "Usage: mount.nfs-tuned" "$T/out" || fail "-h prints no usage"
    run -V; expect_rc 0; grep -q "^mount.nfs-tuned [0-9]" "$T/out" || fail "-V prints no version"
    ;;
config-precedence)
    mkdir "$T/conf.d"
    conf '[global]' 'hard' 'rsize = 65536' 'timeo = 100' 'actimeo = 30' \
         '[server "10.99.*"]' 'rsize = 131072' 'timeo = 200' \
         '[mountpoint "'"$T"'/mnt/*"]' 'rsize = 262144' \
         '[server "filer"]' 'wsize = 4096'
    printf '[global]\ntimeo = 300\nnconnect_policy = refuse\nread_ahead_kb = keep\n' > "$T/conf.d/50-late.conf"
    printf '[global]\ntimeo = 150\n' > "$T/conf.d/10-early.conf"
    printf 'garbage\n' > "$T/conf.d/ignored.txt"
    run 10.99.0.1:/e "$DIR" -o vers=3,soft,acregmin=5
    expect_rc 0
    expect_opts_has rsize=262144; expect_opts_has timeo=200; expect_opts_has soft
    expect_opts_lacks hard; expect_opts_lacks wsize=4096; expect_opts_lacks nconnect_policy=refuse
    expect_opts_lacks read_ahead_kb=keep; expect_opts_has acregmin=5
    # command line options come last, so the kernel's last-one-wins agrees with the precedence
    argv_all | grep -qE -- "actimeo=30.*acregmin=5" || fail "config options not before the command line's: $(argv_all)"
    run filer:/e "$DIR" -o vers=3
    expect_opts_has wsize=4096; expect_opts_has timeo=300
    ;;
config-errors)
    conf '[global]' 'nconnect = 99' 'nconnect_policy = maybe' '[server]' 'hard' '[mountpoint "relative"]' \
         'rsize = 1' '[global]' 'rsize=8192' "$(head -c 5000 /dev/zero | tr '\0' a) = 1" 'a,b' 'read_ahead_kb = 15y'
    newmount 0:60 "$V3NEW"
    run 10.99.0.1:/e "$DIR" -o vers=3
    expect_rc 0; expect_exec; expect_opts_has rsize=8192; expect_opts_lacks nconnect=99; expect_opts_lacks hard
    expect_err "$T/conf:2: nconnect=99: nconnect must be a number from 1 to 16, skipped"
    expect_err "$T/conf:3: nconnect_policy=maybe: nconnect_policy must be warn, refuse or follow"
    expect_err "$T/conf:4: section needs a pattern"
    expect_err "$T/conf:6: a mount point pattern must be an absolute path"
    expect_err "$T/conf:10: line of 4096 bytes or more"
    expect_err "$T/conf:11: 'a,b' is not an option name"
    expect_err "$T/conf:12: read_ahead_kb=15y"
    run --check-config; expect_rc 1; expect_err "$T/conf:2:"
    conf '[global]' 'hard'
    run --check-config; expect_rc 0; grep -q "no problems" "$T/out" || fail "--check-config said: $out"
    ;;
config-permissions)
    [ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
    conf '[global]' 'nconnect_policy = refuse'
    fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
    chmod 666 "$T/conf"
    run 10.99.0.1:/e "$DIR" -f -o vers=3,nconnect=8
    expect_rc 0; expect_err "$T/conf: not used: not owned by root or writable by group or others"
    chmod 644 "$T/conf"; chown 1:1 "$T/conf"
    run 10.99.0.1:/e "$DIR" -f -o vers=3,nconnect=8
    expect_rc 0; expect_err "not owned by root"
    chown 0:0 "$T/conf"
    run 10.99.0.1:/e "$DIR" -f -o vers=3,nconnect=8
    expect_rc 32
    # a drop-in directory others may write is not used either
    mkdir "$T/conf.d"; printf '[global]\nnconnect_policy = follow\n' > "$T/conf.d/x.conf"
    chmod 777 "$T/conf.d"
    run 10.99.0.1:/e "$DIR" -f -o vers=3,nconnect=8
    expect_rc 32; expect_err "$T/conf.d: not used: not owned by root or writable by group or others"
    run --check-config
    expect_rc 1; expect_err "$T/conf.d: not used"
    chmod 755 "$T/conf.d"
    run 10.99.0.1:/e "$DIR" -f -o vers=3,nconnect=8
    expect_rc 0; expect_err "following the existing client"
    ;;
read-ahead-absolute)
    conf 'read_ahead_kb = 15360'
    newmount 0:60 "$V3NEW"; export STUB_BDI=0:60
    run 10.99.0.1:/e "$DIR" -v -o vers=3
    expect_rc 0; expect_opts_lacks read_ahead_kb=15360
    [ "$(cat "$T/sys/class/bdi/0:60/read_ahead_kb")" = 15360 ] || fail "read_ahead_kb is $(cat "$T/sys/class/bdi/0:60/read_ahead_kb")"
    expect_err "read-ahead: bdi 0:60 read_ahead_kb 128 -> 15360"
    ;;
read-ahead-rsize)
    conf '[mountpoint "'"$DIR"'"]' 'read_ahead_kb = 15x'
    newmount 0:61 "${V3NEW/rsize=1048576/rsize=262144}"; export STUB_BDI=0:61
    run 10.99.0.1:/e "$DIR" -o vers=3
    expect_rc 0; expect_silent
    [ "$(cat "$T/sys/class/bdi/0:61/read_ahead_kb")" = 3840 ] || fail "read_ahead_kb is $(cat "$T/sys/class/bdi/0:61/read_ahead_kb")"
    ;;
read-ahead-shared-superblock)
    fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
    conf 'read_ahead_kb = 15360'
    mkdir -p "$T/sys/class/bdi/0:53"; echo 128 > "$T/sys/class/bdi/0:53/read_ahead_kb"
    newmount 0:53 "${V3NEW/hard,/hard,nconnect=4,}"
    run 10.99.0.1:/export/a "$DIR" -v -o vers=3
    expect_rc 0; expect_err "shares the superblock (bdi 0:53) of an earlier mount; its read-ahead is left alone"
    [ "$(cat "$T/sys/class/bdi/0:53/read_ahead_kb")" = 128 ] || fail "shared bdi was written"
    # a superblock only /proc/fs/nfsfs/volumes knows (another mount namespace) is shared too
    fixture mountinfo-v3-nconnect4 nfsfs-servers-hidden nfsfs-volumes-hidden
    mkdir -p "$T/sys/class/bdi/0:70"; echo 128 > "$T/sys/class/bdi/0:70/read_ahead_kb"
    newmount 0:70 "${V3NEW//10.99.0.1/10.99.0.2}"
    run 10.99.0.2:/export/c "$DIR" -o vers=3
    expect_rc 0
    [ "$(cat "$T/sys/class/bdi/0:70/read_ahead_kb")" = 128 ] || fail "hidden shared bdi was written"
    ;;
read-ahead-failure)
    conf 'read_ahead_kb = 15360'
    newmount 0:62 "$V3NEW"
    mkdir -p "$T/sys/class/bdi/0:62/read_ahead_kb"   # a directory: the write fails
    run 10.99.0.1:/e "$DIR" -o vers=3
    expect_rc 0; expect_err "warning: mounted, but cannot set read_ahead_kb of bdi 0:62 to 15360"
    expect_err "the mount keeps the kernel's value"
    ;;
verify-nconnect)
    # planned a new client with nconnect=8; the kernel shows none (a racing mount won)
    newmount 0:63 "$V3NEW"
    run 10.99.0.1:/e "$DIR" -o vers=3,nconnect=8
    expect_rc 0; expect_err "warning: the kernel gave $DIR nconnect=1, not the 8 planned"
    # negotiated version: no pre-mount verdict, the check comes after
    fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
    conf 'nconnect_policy = refuse'
    newmount 0:53 "${V3NEW/hard,/hard,nconnect=4,}"
    run 10.99.0.1:/export/b "$DIR" -v -o nconnect=8
    expect_rc 0; expect_err "the NFS version is left to negotiation"
    expect_err "warning: the kernel gave $DIR nconnect=4, not the 8 planned: it joined the existing client of /mnt/a (filer:/export/a)"
    ;;
verify-trunking)
    fixture mountinfo-v41-loopback
    export STUB_MOUNTINFO_LINE="61 21 0:54 / $DIR rw,relatime shared:61 - nfs4 127.0.0.2:/ rw,vers=4.1,rsize=524288,wsize=524288,namlen=255,hard,proto=tcp,timeo=600,retrans=2,sec=sys,clientaddr=127.0.0.1,local_lock=none,addr=127.0.0.1"
    run 127.0.0.2:/ "$DIR" -o vers=4.1
    expect_rc 0
    expect_err "warning: the kernel uses server address 127.0.0.1 for $DIR, not 127.0.0.2: NFSv4 trunking found the same server and merged the mount into the existing client of /mnt/lo (127.0.0.1:/)"
    ;;
verify-missing)
    run 10.99.0.1:/e "$DIR" -o vers=3
    expect_rc 0; expect_err "warning: mounted, but no NFS mount on $DIR shows in $T/mountinfo: not verified"
    # bg: mount.nfs returns 0 and retries in the background; no false alarm
    run 10.99.0.1:/e "$DIR" -o vers=3,bg
    expect_rc 0; expect_silent
    run 10.99.0.1:/e "$DIR" -o vers=3,fg,bg
    expect_rc 0; expect_silent
    # the last of fg/bg wins, as in mount.nfs
    run 10.99.0.1:/e "$DIR" -o vers=3,bg,fg
    expect_rc 0; expect_err "not verified"
    ;;
lock-serialises)
    conf 'nconnect_policy = warn'
    export STUB_SLEEP_MS=700
    newmount 0:64 "${V3NEW/hard,/hard,nconnect=4,}"
    "$HELPER" 10.99.0.1:/e "$DIR" -o vers=3,nconnect=4 2> "$T/err1" &
    p1=$!
    sleep 0.2
    export STUB_MOUNTINFO_LINE="${STUB_MOUNTINFO_LINE/0:64/0:65}"
    "$HELPER" 10.99.0.1:/f "$DIR" -o vers=3,nconnect=8 2> "$T/err2" &
    p2=$!
    wait $p1; r1=$?; wait $p2; r2=$?
    rc="$r1 $r2"; err=$(cat "$T/err1" "$T/err2")
    [ "$rc" = "0 0" ] || fail "exit statuses $rc"
    # one mount.nfs after the other, never two at once
    pattern=$(awk '{print $1}' "$T/stub/log" | tr '\n' ' ')
    [ "$pattern" = "start end start end " ] || fail "mount.nfs runs overlapped: $pattern"
    # the second saw the first's client: a known, reported state
    grep -qF "nconnect=8 cannot take effect" "$T/err2" || fail "second helper did not report the inherited nconnect: $(cat "$T/err2")"
    [ -s "$T/err1" ] && fail "first helper printed: $(cat "$T/err1")"
    [ -e "$T/run/10.99.0.1.lock" ] || fail "no lock file under the run dir"
    ;;
udev-bdi-line-present)
    # udev's bdi add event for an NFS superblock whose mountinfo line is there
    echo "60 21 0:60 / /data rw,relatime - nfs filer:/export/b rw,$V3NEW" > "$T/mountinfo"
    echo "61 21 0:61 / /mnt/x rw,relatime - nfs 10.99.0.7:/x rw,${V3NEW//10.99.0.1/10.99.0.7}" >> "$T/mountinfo"
    echo "62 21 0:62 / /mnt/y rw,relatime - nfs4 [fd99::1]:/ rw,vers=4.1,rsize=65536,wsize=65536,proto=tcp6,addr=fd99::1" >> "$T/mountinfo"
    for d in 0:60 0:61 0:62; do mkdir -p "$T/sys/class/bdi/$d"; echo 640 > "$T/sys/class/bdi/$d/read_ahead_kb"; done
    conf '[global]' 'read_ahead_kb = 1024' '[server "filer"]' 'read_ahead_kb = 2048' \
         '[server "10.99.0.0/24"]' 'read_ahead_kb = 3072' '[server "fd99::/64"]' 'read_ahead_kb = 15x' \
         '[mountpoint "/data"]' 'read_ahead_kb = 4096'
    run --udev-bdi 0:60
    expect_rc 0; [ "$out" = 4096 ] || fail "printed '$out', expected 4096 ([mountpoint])"
    expect_err "mount.nfs-tuned: bdi 0:60 /data (filer:/export/b): read_ahead_kb 640 -> 4096 ([mountpoint \"/data\"] $T/conf:10)"
    [ "$(grep -c . "$T/err")" = 1 ] || fail "expected one line"
    run --udev-bdi 0:61
    expect_rc 0; [ "$out" = 3072 ] || fail "printed '$out', expected 3072 ([server] CIDR over addr=)"
    run --udev-bdi=0:62
    expect_rc 0; [ "$out" = 960 ] || fail "printed '$out', expected 960 (15 x rsize 65536)"
    # the value it already has: printed for udev, no line (nothing changes)
    echo 960 > "$T/sys/class/bdi/0:62/read_ahead_kb"
    run --udev-bdi 0:62
    expect_rc 0; [ "$out" = 960 ] || fail "printed '$out'"; expect_silent
    # keep: nothing printed, exit 1 (udev's PROGRAM does not match: nothing written)
    conf '[global]' 'read_ahead_kb = keep'
    run --udev-bdi 0:60
    expect_rc 1; [ -z "$out" ] || fail "printed '$out'"; expect_silent
    # a name is never resolved: a section of the address a name would resolve to does not match a
    # source written with the name, but matches through addr=
    conf '[server "filer.example.com"]' 'read_ahead_kb = 2000'
    run --udev-bdi 0:60
    expect_rc 1; [ -z "$out" ] || fail "printed '$out' for a name not written in the source"
    ;;
udev-bdi-line-late)
    # the event comes before mount(2) returns: nfsfs lists the volume, the line follows
    printf 'NV SERVER   PORT DEV          FSID                              FSC\nv3 0a630001  801 0:60         1:0                               no\n' > "$T/nfsfs/volumes"
    conf '[server "10.99.0.1"]' 'read_ahead_kb = 2048'
    ( sleep 0.3; echo "60 21 0:60 / /mnt/late rw,relatime - nfs 10.99.0.1:/e rw,$V3NEW" >> "$T/mountinfo" ) &
    run --udev-bdi 0:60 -v
    wait
    expect_rc 0; [ "$out" = 2048 ] || fail "printed '$out', expected 2048"
    expect_err "bdi 0:60 /mnt/late (10.99.0.1:/e): read_ahead_kb 0 -> 2048"
    ms=$(sed -n 's/.*mountinfo line found after waiting \([0-9]*\) ms.*/\1/p' "$T/err")
    [ -n "$ms" ] && [ "$ms" -ge 250 ] && [ "$ms" -lt 1000 ] || fail "waited '$ms' ms for a line 300 ms late"
    ;;
udev-bdi-line-absent)
    # another mount namespace made it: only nfsfs volumes lists it; the wait is bounded
    printf 'NV SERVER   PORT DEV          FSID                              FSC\nv4 0a630001  801 0:60         1:0                               no\n' > "$T/nfsfs/volumes"
    mkdir -p "$T/sys/class/bdi/0:60"; echo 128 > "$T/sys/class/bdi/0:60/read_ahead_kb"
    conf '[global]' 'read_ahead_kb = 1024' '[server "10.99.0.0/24"]' 'read_ahead_kb = 15360'
    start=$(date +%s%N)
    run --udev-bdi 0:60 -v
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    expect_rc 0; [ "$out" = 15360 ] || fail "printed '$out', expected 15360 ([server] by the volume's address)"
    expect_err "no mountinfo line, only nfsfs volumes lists it after waiting 10"
    expect_err "bdi 0:60 server 10.99.0.1, mounted in another mount namespace: read_ahead_kb 128 -> 15360"
    [ "$ms" -ge 1000 ] && [ "$ms" -lt 3000 ] || fail "took $ms ms, expected the 1000 ms bound"
    # 15x needs the rsize, which only a mountinfo line shows: nothing
    conf '[global]' 'read_ahead_kb = 15x'
    run --udev-bdi 0:60
    expect_rc 1; [ -z "$out" ] || fail "printed '$out'"; expect_silent
    # a volume that goes away while its line is waited for (NFSv4's superblock of the server's
    # root, dropped once mount(2) has walked to the export): nothing, no word, no full wait
    ( sleep 0.2; : > "$T/nfsfs/volumes" ) &
    start=$(date +%s%N)
    run --udev-bdi 0:60 -v
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    wait
    expect_rc 1; [ -z "$out" ] || fail "printed '$out' for a volume that went away"; expect_silent
    [ "$ms" -lt 700 ] || fail "took $ms ms for a volume gone after 200 ms"
    # a line that is there: no wait
    echo "60 21 0:60 / /mnt/late rw,relatime - nfs 10.99.0.1:/e rw,$V3NEW" > "$T/mountinfo"
    run --udev-bdi 0:60 -v
    expect_err "mountinfo line there at once"
    ;;
udev-bdi-not-nfs)
    echo "70 21 0:70 / /mnt/fuse rw,relatime - fuse.sshfs u@h:/ rw,user_id=0,group_id=0" > "$T/mountinfo"
    echo "71 21 0:71 / /mnt/lu rw,relatime - lustre 10.99.0.1@tcp:/fs rw,addr=10.99.0.1" >> "$T/mountinfo"
    conf '[global]' 'read_ahead_kb = 15360'
    for d in 0:70 0:71 0:72 9p-1 8:0 254:16 0:x '' ; do
        start=$(date +%s%N)
        run --udev-bdi "$d" -v
        ms=$(( ($(date +%s%N) - start) / 1000000 ))
        expect_rc 1; [ -z "$out" ] || fail "$d: printed '$out'"; expect_silent
        # no wait: the device is not an NFS volume of this network namespace
        [ "$ms" -lt 500 ] || fail "$d: took $ms ms"
    done
    run --udev-bdi
    expect_rc 1; expect_err "option '--udev-bdi' needs an argument"
    run --udev-bdi 0:70 extra
    expect_rc 1; expect_err "--udev-bdi takes no other argument"
    ;;
udev-bdi-record)
    # the mount path leaves its plan; the command line's read_ahead_kb reaches the udev mode
    conf '[global]' 'read_ahead_kb = 1024'
    run 10.99.0.1:/e "$DIR" -o vers=3,nconnect=8,bg,read_ahead_kb=15x
    expect_rc 0; expect_silent
    rec=$(ls "$T/run/mounts/")
    case $rec in *-mnt-b) ;; *) fail "record name '$rec'" ;; esac
    printf '# nfs-tuned mount record 1\nspec=10.99.0.1:/e\ntarget=%s\nserver=10.99.0.1\nnconnect=8\nread_ahead_kb=15x\nbg=yes\n' "$DIR" |
        cmp -s - "$T/run/mounts/$rec" || fail "record: $(cat "$T/run/mounts/$rec")"
    [ "$(stat -c %a "$T/run/mounts/$rec")" = 644 ] || fail "record mode $(stat -c %a "$T/run/mounts/$rec")"
    ls -a "$T/run/mounts" | grep -q "\.tmp$" && fail "a temporary file is left"
    # the bg mount lands later, on a client another mount made with nconnect=4 meanwhile
    echo "60 21 0:60 / $DIR rw,relatime - nfs 10.99.0.1:/e rw,${V3NEW/hard,/hard,nconnect=4,}" > "$T/mountinfo"
    run --udev-bdi 0:60
    expect_rc 0; [ "$out" = 15360 ] || fail "printed '$out', expected 15 x 1 MiB from the record"
    expect_err "warning: bg mount $DIR (10.99.0.1:/e) landed with nconnect=4, not the 8 the helper planned"
    expect_err "(the helper's plan for this mount)"
    # a dry run leaves nothing; a record that cannot be written does not stop the mount
    rm -rf "$T/run/mounts"
    run 10.99.0.1:/e "$DIR" -f -o vers=3
    [ -e "$T/run/mounts" ] && fail "a dry run left a record"
    echo x > "$T/run/mounts"
    run 10.99.0.1:/e "$DIR" -o vers=3,bg
    expect_rc 0; expect_silent; expect_exec
    run 10.99.0.1:/e "$DIR" -v -o vers=3,bg
    expect_rc 0; expect_err "cannot leave the plan in $T/run/mounts"
    ;;
*)
    echo "unknown case $CASE"; exit 2 ;;
esac

[ "$failures" = 0 ] && { echo "ok $CASE"; exit 0; }
exit 1
