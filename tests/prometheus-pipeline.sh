#!/bin/bash
# The metrics as a fleet runs them, on loopback: Debian's prometheus-node-exporter with its
# default flags (its own textfile directory flag pointed at a scratch one, a free port), and
# Debian's prometheus scraping it every second with the shipped rules (their for: cut to 1 s:
# the test waits for firing, not for the durations). The textfiles come from the built
# nfs-tuned status run on fixture hosts (tests/lib/status-host.sh): "bad" with every finding
# code but config-error, "badconfig" with that one (a configuration error leaves the rest of
# the configuration unused), "clean" with none. Checked through Prometheus's HTTP API:
#  - for every finding code of src/core/status.h an alert fires, with that code, on a host
#    that has it;
#  - on the clean host nothing fires or waits;
#  - the join of the client figures with the mount points (nfs-tuned(8), PROMETHEUS METRICS)
#    gives one result per NFS mount, a mount point with a space and mount points under /mnt
#    included.
# node_exporter reads the real /proc here: no join with its own series is checked (with its
# defaults it has none for /mnt or /media, nor mountstats: nfs-tuned(8) says why the rules
# need none).
#   tests/prometheus-pipeline.sh NFS-TUNED-BINARY SOURCE-ROOT
# Exit 77 (skip) when prometheus or prometheus-node-exporter is not installed.
set -u
bin=$1 src=$2
for t in prometheus prometheus-node-exporter python3; do
	command -v "$t" >/dev/null || { echo "skip: no $t (apt-get install prometheus prometheus-node-exporter)"; exit 77; }
done
. "$src/tests/lib/harness.sh" # conf
. "$src/tests/lib/status-host.sh"
base=$(mktemp -d "${TMPDIR:-/tmp}/nfs-tuned-pipeline.XXXXXX")
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	rm -rf "$base"
}
trap cleanup EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

V41="vers=4.1,rsize=1048576,wsize=1048576,namlen=255,hard,proto=tcp,timeo=600,retrans=2,clientaddr=10.99.0.2,local_lock=none"
V3="vers=3,rsize=1048576,wsize=1048576,namlen=255,hard,proto=tcp,timeo=600,retrans=2,mountaddr=10.99.0.1,local_lock=none"

host_bad() {
	conf '[server "10.99.0.1"]' 'read_ahead_kb = 15x' '[server "10.99.0.5"]' 'nconnect = 8'
	# nconnect-inherited, krb5-multi-connection, transport-imbalance: /mnt/a set the client up
	SENDS=2000 mount 40 0:53 /mnt/a nfs4 10.99.0.1:/export/a "$V41,nconnect=4,sec=sys,addr=10.99.0.1"
	sed -i '0,/xprt:/s/\(tcp [0-9]* 1 1 0 0\) 2000 2000 0 2000/\1 90000 90000 0 90000/' "$T/mountstats"
	mount 41 0:54 /mnt/b nfs4 10.99.0.1:/export/b "$V41,nconnect=4,sec=krb5p,addr=10.99.0.1"
	record mnt-b spec=10.99.0.1:/export/b target=/mnt/b nconnect_requested=8 nconnect_from=cmdline dev=0:54
	# tls-not-applied: asked for TLS, folded into the plain client
	mount 42 0:55 /mnt/t nfs4 10.99.0.1:/export/t "$V41,nconnect=4,sec=sys,addr=10.99.0.1"
	record mnt-t spec=10.99.0.1:/export/t target=/mnt/t xprtsec=tls dev=0:55
	# nconnect-differs: asked for 2, its client set up by a mount since gone
	mount 43 0:56 /mnt/d nfs4 10.99.0.2:/export/d "$V41,nconnect=4,sec=sys,addr=10.99.0.2"
	record mnt-d spec=10.99.0.2:/export/d target=/mnt/d nconnect_requested=2 nconnect_from=cmdline dev=0:56
	# read-ahead-lost (NFSv3, the config's 15x), read-ahead-overwritten (the helper set 15360)
	mount 44 0:57 /mnt/r nfs 10.99.0.1:/export/r "$V3,sec=sys,addr=10.99.0.1"
	mount 45 0:58 /mnt/o nfs 10.99.0.3:/export/o "$V3,sec=sys,addr=10.99.0.3"
	record mnt-o spec=10.99.0.3:/export/o target=/mnt/o read_ahead_kb=15360 read_ahead_from=cmdline dev=0:58
	ra 0:58 4096
	# config-mismatch: the config gives 10.99.0.5 nconnect=8, the mount has 2
	mount 46 0:59 /mnt/c nfs4 10.99.0.5:/export/c "$V41,nconnect=2,sec=sys,addr=10.99.0.5"
	# transports-down: one of 4 offline in the sunrpc sysfs
	mount 47 0:60 /mnt/x nfs4 10.99.0.6:/export/x "$V41,nconnect=4,sec=sys,addr=10.99.0.6"
	sysfs_xprt 1 0 $((700 + 47 * 16)) 1 "CONNECTED BOUND"
	sysfs_xprt 1 1 41000 0 "CONNECTED BOUND"
	sysfs_xprt 1 2 41001 0 "CONNECTED BOUND"
	sysfs_xprt 1 3 41002 0 "CONNECTED BOUND OFFLINE"
	sed -i 's|^10.99.0.1$|10.99.0.6|' "$T"/sys/kernel/sunrpc/xprt-switches/switch-1/*/dstaddr
	fstab "10.99.0.9:/export/x /mnt/fx nfs vers=4.1,nconnect=2 0 0" \
		"10.99.0.9:/export/y /mnt/fy nfs vers=4.1,nconnect=8 0 0" \
		"10.99.0.9:/export/z /mnt/fz nfs vers=4.1,sec=krb5 0 0" \
		"10.99.0.9:/export/i /mnt/fi nfs vers=4.1,nconnect=99 0 0"
	# the host's files: udev rules that shadow and override, nfsmount.conf per server
	mkdir -p "$T/udev/etc" "$T/udev/lib"
	echo 'SUBSYSTEM=="bdi", PROGRAM="/usr/libexec/nfsrahead %k", ATTR{read_ahead_kb}="%c"' >"$T/udev/lib/99-nfs.rules"
	echo 'KERNEL=="0:*", PROGRAM="/sbin/mount.nfs-tuned --udev-bdi %k", ATTR{read_ahead_kb}="%c"' >"$T/udev/lib/99-zz-nfs-tuned.rules"
	cp "$T/udev/lib/99-nfs.rules" "$T/udev/etc/"
	echo 'SUBSYSTEM=="bdi", ATTR{read_ahead_kb}="4096"' >"$T/udev/etc/99-zzz-tuning.rules"
	printf '%s\n' '[ Server "filer" ]' 'nconnect=8' >"$T/nfsmount.conf"
}
host_badconfig() {
	conf '[global]' 'nconnect = 99'
	mount 40 0:53 /mnt/a nfs4 10.99.0.1:/export/a "$V41,sec=sys,addr=10.99.0.1"
}
# one client, three mount points: under /mnt, with a space, elsewhere
host_clean() {
	mount 40 0:53 /mnt/a nfs4 10.99.0.1:/export/a "$V41,nconnect=4,sec=sys,addr=10.99.0.1"
	mount 41 0:54 '/mnt/with\040space' nfs4 '10.99.0.1:/export/with\040space' "$V41,nconnect=4,sec=sys,addr=10.99.0.1"
	mount 42 0:55 /srv/data nfs4 10.99.0.1:/export/data "$V41,nconnect=4,sec=sys,addr=10.99.0.1"
}

# make_host NAME EXIT: the host's fixture, its textfile written by nfs-tuned status (exit EXIT)
make_host() {
	local rc
	(
		T=$base/$1
		mkdir -p "$T/textfile"
		status_host
		"host_$1"
		"$bin" status --prometheus "$T/textfile/nfs-tuned.prom" 2>"$T/status.err"
	)
	rc=$?
	[ "$rc" = "$2" ] || fail "$1: nfs-tuned status exit $rc, expected $2: $(cat "$base/$1/status.err")"
}
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# query EXPR: the result of an instant query, one line a sample: its labels (JSON) and value
query() {
	python3 - "$prom" "$1" <<-'PY'
	import json, sys, urllib.parse, urllib.request
	url = "http://%s/api/v1/query?%s" % (sys.argv[1], urllib.parse.urlencode({"query": sys.argv[2]}))
	r = json.load(urllib.request.urlopen(url, timeout=5))
	for s in r["data"]["result"]:
	    print(json.dumps(s["metric"], sort_keys=True), s["value"][1])
	PY
}

make_host bad 1
make_host badconfig 1
make_host clean 0

targets=
for h in bad badconfig clean; do
	p=$(free_port)
	# as Debian's unit starts it (ARGS="" in /etc/default/prometheus-node-exporter): the
	# defaults, but for where it listens and its textfile directory
	prometheus-node-exporter --web.listen-address="127.0.0.1:$p" \
		--collector.textfile.directory="$base/$h/textfile" >"$base/$h/node-exporter.log" 2>&1 &
	pids+=($!)
	targets+="      - { targets: ['127.0.0.1:$p'], labels: { host: $h } }"$'\n'
done
sed 's/^\( *for:\).*/\1 1s/' "$src/contrib/prometheus/nfs-tuned.rules.yml" >"$base/rules.yml"
cat >"$base/prometheus.yml" <<EOF2
global: { scrape_interval: 1s, evaluation_interval: 1s }
rule_files: [ $base/rules.yml ]
scrape_configs:
  - job_name: node
    static_configs:
$targets
EOF2
prom=127.0.0.1:$(free_port)
prometheus --config.file="$base/prometheus.yml" --storage.tsdb.path="$base/data" \
	--web.listen-address="$prom" >"$base/prometheus.log" 2>&1 &
pids+=($!)

codes=$(sed -n 's/^#define F_[A-Z0-9_]* "\([a-z0-9-]*\)"$/\1/p' "$src/src/core/status.h" | sort -u)
[ -n "$codes" ] || { echo "FAIL: no finding code in $src/src/core/status.h"; exit 1; }
# firing: the codes whose alert fires on a bad host, one a line; waits until every code's has,
# at most 60 s (three scrapes and evaluations are enough when nothing is wrong)
firing() { query 'ALERTS{alertstate="firing",host=~"bad.*"}' | python3 -c '
import json, sys
for l in sys.stdin:
    m = json.loads(l.rsplit(" ", 1)[0])
    if "code" in m: print(m["code"])' | sort -u; }
for _ in $(seq 60); do
	got=$(firing 2>/dev/null)
	[ "$got" = "$codes" ] && break
	sleep 1
done
missing=$(comm -23 <(echo "$codes") <(echo "$got"))
[ -z "$missing" ] || fail "no alert fires for: $(echo $missing) (firing: $(echo $got)); prometheus log: $(tail -n 3 "$base/prometheus.log")"
for c in $codes; do
	n=$(query "count(ALERTS{alertstate=\"firing\",code=\"$c\"})" | awk '{ print $NF }')
	echo "code $c: ${n:-0} alert(s) firing"
done
# the clean host: nothing firing or pending, in the same evaluations as the bad ones' alerts
clean=$(query 'ALERTS{host="clean"}')
[ -z "$clean" ] || fail "alerts on the clean host: $clean"
[ "$(query 'up{host="clean"}' | awk '{ print $NF }')" = 1 ] || fail "the clean host's node_exporter is not up"
[ "$(query 'nfs_tuned_status_success{host="clean"}' | awk '{ print $NF }')" = 1 ] ||
	fail "the clean host's textfile is not scraped (nfs_tuned_status_success)"

# the documented join: a client's figures on each of its mount points, one per mount
join='nfs_tuned_client_transports_live
  * on(instance, mountaddr, port, protocol, vers) group_right
  group by (instance, mountpoint, mountaddr, port, protocol, vers) (nfs_tuned_mount_info{host="clean"})'
got=$(query "$join" | python3 -c '
import json, sys
for l in sys.stdin:
    m, v = l.rsplit(" ", 1)
    print(json.loads(m)["mountpoint"] + "=" + v.strip())' | sort)
want=$(printf '%s\n' '/mnt/a=4' '/mnt/with space=4' '/srv/data=4')
[ "$got" = "$want" ] || fail "the join of client figures and mount points: '$got', expected '$want'"
echo "join: $(echo "$got" | wc -l) results, one per mount point"

[ $fails = 0 ] && echo "all passed: $(echo "$codes" | wc -l) finding codes alerted on, none on the clean host"
[ $fails = 0 ]
