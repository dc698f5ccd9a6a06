# The CSI path of a Kubernetes node, emulated with real kernel objects (sourced by boot.sh:
# systemd is PID 1, the package is installed on the host, udevd runs its rules).
#
# A "node plugin" container as csi-driver-nfs's is: a mount namespace of its own (unshare
# --mount) and a root of its own, the host's network and PID namespaces, the kubelet's pods
# directory bound in at the same path as a peer of the host's (mountPropagation:
# Bidirectional; the directory is on the host's / made --make-rshared, as kubelet needs), the host's
# /run/nfs-tuned as a hostPath (contrib/kubernetes/csi-driver-nfs-patch.yaml). Its root,
# K8S_ROOT, is made at prepare time from the guest's own Debian tree (/usr hard-linked, /etc
# and /var copied, before the package is installed on the host), and the package is
# installed into it with dpkg, as the Containerfile does; contrib's nfs-tuned-node beside it.
# Its configuration is the node's (k8s_conf), in a ConfigMap volume's layout (..data links).
#
# Every "PV" is of $SRV2 over NFSv3 (a client of its own, apart from the boot's mounts).
K8S_ROOT=/var/lib/lab-csi/root
PODS=/var/lib/kubelet/pods
K8S_SRV=$SRV2
K8S_RA=8192
# daemonset.yaml's ConfigMap: the node's drop-in and the plugin's ConfigMap volume alike
k8s_conf() { printf '[global]\nnconnect_policy = warn\n[server "%s"]\nread_ahead_kb = %s\n' "$K8S_SRV" "$K8S_RA"; }
pv() { echo "$PODS/$1/volumes/kubernetes.io~csi/$2/mount"; }

# prepare (before the package goes onto the host): the plugin's root
k8s_prepare() {
	local deb=$1 d
	rm -rf "$K8S_ROOT" && mkdir -p "$K8S_ROOT" || return
	cp -al /usr "$K8S_ROOT/usr" || return
	for d in /bin /sbin /lib /lib32 /lib64 /libx32; do [ -L "$d" ] && cp -a "$d" "$K8S_ROOT/"; done
	cp -a /etc "$K8S_ROOT/etc" || return
	(cd / && find var -path var/lib/lab-csi -prune -o -print | cpio -pdm --quiet "$K8S_ROOT") || return
	mkdir -p "$K8S_ROOT"/{proc,sys,dev,run/nfs-tuned,tmp,root,host,textfile,mnt} "$K8S_ROOT$PODS" || return
	cp "$deb" "$K8S_ROOT/tmp/" && chroot "$K8S_ROOT" dpkg -i "/tmp/$(basename "$deb")" || return
	rm -f "$K8S_ROOT/tmp/"*.deb
	install -m 0755 /lab/guest/nfs-tuned-node "$K8S_ROOT/usr/local/sbin/nfs-tuned-node" || return
	# a ConfigMap volume: the file a link into ..data, itself a link to the current copy
	d=$K8S_ROOT/etc/nfs-tuned.conf.d
	mkdir -p "$d/..2026_01_01_00_00_00.1" || return
	k8s_conf >"$d/..2026_01_01_00_00_00.1/50-kubernetes.conf"
	ln -s ..2026_01_01_00_00_00.1 "$d/..data" && ln -s ..data/50-kubernetes.conf "$d/50-kubernetes.conf"
	du -sh --apparent-size "$K8S_ROOT" | sed 's/^/the plugin root: /'
}

# the host: the kubelet's pods directory on an rshared mount (kubelet wants its directory on
# one; systemd makes / so), the plugin's root a private mount of its own (what the plugin
# mounts for itself there stays in its namespace), and the node's configuration as
# daemonset.yaml installs it. No bind mount of the pods directory onto itself: in a peer
# group of its own, a PV would not reach udevd's mount namespace (systemd-udevd.service has
# PrivateMounts=yes, a slave of /), and in /'s, every PV would be listed twice on the host
k8s_host() {
	mkdir -p "$PODS" /run/nfs-tuned /etc/nfs-tuned.conf.d || return
	mount --make-rshared / || return
	mountpoint -q "$K8S_ROOT" || { mount --bind "$K8S_ROOT" "$K8S_ROOT" && mount --make-private "$K8S_ROOT"; } || return
	k8s_conf >/etc/nfs-tuned.conf.d/50-kubernetes.conf
}

# the container's side: this shell, in its new mount namespace, then runs the plugin's command
k8s_enter() {
	# on the plugin's private root mount: these mounts stay in its namespace; the pods
	# directory's is a bind of a directory of the host's /, so a peer of it (Bidirectional):
	# what the plugin mounts there reaches the host and udevd
	mount --rbind "$PODS" "$K8S_ROOT$PODS" || return
	mount --bind /run/nfs-tuned "$K8S_ROOT/run/nfs-tuned" || return
	mount -t proc proc "$K8S_ROOT/proc" && mount -t sysfs sysfs "$K8S_ROOT/sys" &&
		mount --rbind /dev "$K8S_ROOT/dev" || return
	exec chroot "$K8S_ROOT" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}

# daemonset.yaml's containers, with its hostPaths and securityContext: "NODE:CONTAINER[:ro]"
K8S_INSTALL_VOLS="/etc/nfs-tuned.conf.d:/host/etc/nfs-tuned.conf.d /etc/udev/rules.d:/host/etc/udev/rules.d
/opt/nfs-tuned:/host/opt/nfs-tuned /usr/lib/udev/rules.d:/host/usr/lib/udev/rules.d:ro"
K8S_STATUS_VOLS="/proc/1:/host/proc/1:ro /run/nfs-tuned:/host/run/nfs-tuned:ro
/etc/nfs-tuned.conf.d:/host/etc/nfs-tuned.conf.d:ro /opt/nfs-tuned:/host/opt/nfs-tuned:ro
/etc/udev/rules.d:/host/etc/udev/rules.d:ro /usr/lib/udev/rules.d:/host/usr/lib/udev/rules.d:ro"

# the DaemonSet's container's side: a PID namespace of its own (no hostPID), the node's network
# namespace, the hostPaths of K8S_VOLS (a directory missing on the node made, as kubelet's
# DirectoryOrCreate), a read-only root, no new privileges and only the capabilities of
# K8S_CAPS (none when empty), then the command with the environment K8S_ENV. The runtime's
# seccomp profile is not emulated
k8s_pod_enter() {
	local v src dst ro caps=-all
	for v in $K8S_VOLS; do
		IFS=: read -r src dst ro <<<"$v"
		if [ -f "$src" ]; then
			mkdir -p "$(dirname "$K8S_ROOT$dst")" && touch "$K8S_ROOT$dst"
		else
			mkdir -p "$src" "$K8S_ROOT$dst"
		fi || return
		mount --bind "$src" "$K8S_ROOT$dst" || return
		[ -z "$ro" ] || mount -o remount,bind,ro "$K8S_ROOT$dst" || return
	done
	mount -t proc proc "$K8S_ROOT/proc" && mount -t sysfs sysfs "$K8S_ROOT/sys" &&
		mount --rbind /dev "$K8S_ROOT/dev" && mount -o remount,bind,ro "$K8S_ROOT" || return
	[ -z "${K8S_CAPS:-}" ] || caps=-all,+${K8S_CAPS//,/,+}
	# shellcheck disable=SC2086 # K8S_ENV: NAME=VALUE words
	exec chroot "$K8S_ROOT" setpriv --no-new-privs --inh-caps=-all --bounding-set="$caps" \
		/usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin ${K8S_ENV:-} "$@"
}
# pod CMD...: CMD in a container of the DaemonSet (RC, OUT, as xrun)
pod() { xrun unshare --mount --pid --fork --propagation unchanged bash -c '. /lab/guest/lib.sh; . /lab/guest/kubernetes.sh; k8s_pod_enter "$@"' pod "$@"; }

# csi CMD...: CMD in a new node plugin container (RC, OUT, as xrun)
csi() { xrun unshare --mount --propagation unchanged bash -c '. /lab/guest/lib.sh; . /lab/guest/kubernetes.sh; k8s_enter "$@"' csi "$@"; }
# csi_mount NAME OPTS EXPORT [-v]: as csi-driver-nfs's NodePublishVolume: mkdir, mount -t nfs
csi_mount() { csi sh -c "mkdir -p '$(pv pod-$1 $1)' && mount -t nfs -o $2 $K8S_SRV:/export/$3 '$(pv pod-$1 $1)' $4"; }

# (1) two PVs of one server, each through its own plugin container, asking different nconnect
k_pv_nconnect() {
	local p1 p2 p3
	p1=$(pv pod-pv1 pv1) p2=$(pv pod-pv2 pv2) p3=$(pv pod-pv3 pv3)
	k8s_host || fail "the kubelet's directory could not be set up" || return
	csi_mount pv1 vers=3,nconnect=4 a
	status_is 0 "the first PV" || return
	out_quiet || return
	# that container is gone; a new one (a plugin restart) mounts the second
	mounted "$p1" "on the host, after its container ended" || return
	csi_mount pv2 vers=3,nconnect=8 b
	status_is 0 "the second PV, under warn" || return
	out_matches "^mount\.nfs-tuned: warning: nconnect=8 cannot take effect: this mount shares the NFS client for $K8S_SRV.* with $p1 \($K8S_SRV:/export/a\), which has 4 connections \(nconnect=4\)" || return
	nconn_is "$p2" 4 "the kernel's: the first PV's" && xprt_is "$p2" 4 || return
	# the refusal: the same under a drop-in of policy refuse in the plugin
	csi sh -c "mkdir -p '$p3' && printf '[global]\nnconnect_policy = refuse\n' >/etc/nfs-tuned.conf.d/60-refuse.conf && mount -t nfs -o vers=3,nconnect=8 $K8S_SRV:/export/c '$p3'; rc=\$?; rm -f /etc/nfs-tuned.conf.d/60-refuse.conf; exit \$rc"
	status_is 32 "the third PV, under refuse" || return
	out_matches '^mount\.nfs-tuned: .*nconnect=8 cannot take effect: this mount shares' || return
	not_mounted "$p3" || return
}

# (2) a host mount of that server made before the plugin's is seen by the plugin's helper,
# which no mount of its namespace shows: /proc/fs/nfsfs and the sunrpc sysfs
k_host_mount_seen() {
	local h=$MNT/k8s-host p
	p=$(pv pod-pv4 pv4)
	mkdir -p "$h"
	xrun mount -t nfs -o vers=3,nconnect=2,port=2050,proto=tcp,mountport=20048 $K8S_SRV:/export/d "$h"
	status_is 0 "the host's mount" || return
	nconn_is "$h" 2 || return
	csi_mount pv4 vers=3,nconnect=6,port=2050,proto=tcp,mountport=20048 e
	status_is 0 || return
	out_matches '^mount\.nfs-tuned: warning: nconnect=6 cannot take effect: .*exists in this network namespace \(/proc/fs/nfsfs\) but no mount of this mount namespace shows it.*it has 2 connections' || return
	nconn_is "$p" 2 && xprt_is "$p" 2 || return
}

# (3) the host's udev rule gives the plugin's mounts their read-ahead, and nothing else. The
# plugin's helper writes it at once (no udevd in its namespaces to wait for); udev's queue is
# held meanwhile, as on a busy node: nfs-utils' nfsrahead then writes its 128, and the host's
# rule (the package's) writes the plan the plugin's helper recorded in the shared run
# directory after it. A FUSE superblock the plugin mounts beside, and the host's own NFS
# mounts, keep theirs
k_udev_readahead() {
	local p f dev ra0 raf0 raf boot0 boot1 i line
	p=$(pv pod-pv5 pv5) f=$(pv pod-pv5 fuse)
	boot0=$(for d in $(nfs_mountpoints | grep "^$MNT/[a-d]$"); do ra_of "$d"; done | tr '\n' ' ')
	udevadm control --stop-exec-queue
	csi_mount pv5 vers=3 g
	ra0=$(ra_of "$p")
	csi sh -c "mkdir -p '$f' && exec 3<>/dev/fuse && mount -i -t fuse -o fd=3,rootmode=40000,user_id=0,group_id=0 labfuse '$f'"
	raf0=$(ra_of "$f")
	udevadm control --start-exec-queue
	udevadm settle -t "$SETTLE" || fail "udev did not settle" || return
	mounted "$p" && mounted "$f" "the FUSE mount" || return
	dev=$(mi_dev "$p") raf=$(ra_of "$f")
	boot1=$(for d in $(nfs_mountpoints | grep "^$MNT/[a-d]$"); do ra_of "$d"; done | tr '\n' ' ')
	log "  PV $dev: $ra0 (the plugin's helper) -> $(ra_of "$p") after udev; FUSE: $raf0 -> $raf; the boot's mounts: $boot0 -> $boot1"
	value_is "$p: read_ahead_kb after udev" "$(ra_of "$p")" "$K8S_RA" || return
	# the rule wrote it after nfsrahead (syslog through journald)
	for i in $(seq 1 25); do
		line=$(journalctl -o cat -t nfs-tuned | grep -F "bdi $dev $p ")
		[ -n "$line" ] && break
		sleep 0.2
	done
	log "  rule: $line; nfsrahead: $(journalctl -o cat -t nfsrahead | grep -F "$p" | tail -n 1)"
	echo "$line" | grep -q "read_ahead_kb 128 -> $K8S_RA (the helper's plan for this mount)" ||
		fail "no line of the host's rule for bdi $dev ($p) writing $K8S_RA after nfsrahead: '$line'" || return
	value_is "the FUSE bdi's read_ahead_kb" "$raf" "$raf0" || return
	[ -z "$(journalctl -o cat -t nfs-tuned | grep -F "$f")" ] || fail "the rule logged for the FUSE mount" || return
	value_is "the boot's mounts' read_ahead_kb" "$boot1" "$boot0" || return
	NOTE="PV: the plugin's helper $ra0, nfsrahead 128, the host's rule $K8S_RA; FUSE $raf0 -> $raf"
}

# (4) the host's nfs-tuned status lists the plugin's mounts with what they asked (the record
# in the shared run directory) and the inheritance; and so does the DaemonSet's
# nfs-tuned-node status, in its container as daemonset.yaml has it (PID 1's directory of /proc
# and the directories it reads as hostPaths, read-only; DAC_OVERRIDE alone)
k_host_status() {
	local p1 p2 tf=/tmp/lab/textfile
	p1=$(pv pod-pv1 pv1) p2=$(pv pod-pv2 pv2)
	srun -r -n -o TARGET,REQ,REQ-FROM,NCONNECT,XPRTS,FINDINGS
	status_is 1 "findings" || return
	out_has "$p1 4 record 4 4" || return
	out_has "$p2 8 record 4 4 nconnect-inherited" || return
	out_matches "^nfs-tuned: warning: \[nconnect-inherited\] $p2 asked for nconnect=8 \(as the helper recorded when it mounted it\) but has 4" || return
	mkdir -p "$tf"
	K8S_VOLS="$K8S_STATUS_VOLS $tf:/textfile" K8S_CAPS=dac_override pod nfs-tuned-node status --once
	status_is 1 "nfs-tuned-node status --once: findings" || return
	grep -q "^nfs_tuned_findings{code=\"nconnect-inherited\",mountpoint=\"$p2\"} 1$" "$tf/nfs-tuned.prom" ||
		fail "the DaemonSet's textfile has no nconnect-inherited for $p2: $(grep findings "$tf/nfs-tuned.prom" | head -n 5)" || return
	grep -q "^nfs_tuned_mount_info{.*mountpoint=\"$p1\"" "$tf/nfs-tuned.prom" ||
		fail "the DaemonSet's textfile has no mount_info of $p1" || return
	cp "$tf/nfs-tuned.prom" /lab/results/kubernetes.prom
}

# (5) the in-tree nfs: volume: kubelet mounts on the host, in a scope of its own
# (systemd-run --scope mount -t nfs): through the host's helper (its config's timeo=123, its
# warning, its record)
k_in_tree() {
	local d=$PODS/pod-intree/volumes/kubernetes.io~nfs/vol
	mkdir -p "$d"
	xrun systemd-run --quiet --scope --description="Kubernetes transient mount for $d" \
		mount -t nfs -o vers=3,nconnect=8 $K8S_SRV:/export/f "$d"
	status_is 0 || return
	out_matches '^mount\.nfs-tuned: warning: nconnect=8 cannot take effect' || return
	value_is "$d: timeo (the host config's)" "$(mi_opt "$d" timeo)" 123 || return
	srun -r -n -o TARGET,REQ,REQ-FROM "$d"
	out_has "$d 8 record" || return
}

# the node's files that install and uninstall touch, as a list to compare
node_files() { find /etc/udev/rules.d /run/udev/rules.d /usr/lib/udev/rules.d /opt/nfs-tuned /etc/nfs-tuned.conf.d -printf '%p %M %s\n' 2>/dev/null | sort; }

# (6) the DaemonSet's install container (daemonset.yaml's hostPaths, no capability), as on a
# node without the package (UDEV_RULE=yes: this one has it): the drop-in, the rule and the
# bundle, whose helper answers udev as the node's own does; a new image (one more vendor
# profile in it) replaces the bundle and keeps the rule; uninstall leaves the node's files
# as they were before install
k_node_lifecycle() {
	local before b1 b2 rule=/etc/udev/rules.d/99-zz-nfs-tuned.rules ino dev want got
	local cm=/tmp/lab/k8s-configmap.conf extra=$K8S_ROOT/usr/lib/nfs-tuned.conf.d/70-lab-update.conf
	# the node before install: no drop-in (k8s_host's, for the checks above, goes)
	rm -f /etc/nfs-tuned.conf.d/50-kubernetes.conf
	mkdir -p /opt/nfs-tuned /tmp/lab && k8s_conf >"$cm" || return
	before=$(node_files)
	local -x K8S_VOLS="$K8S_INSTALL_VOLS $cm:/etc/nfs-tuned-node/nfs-tuned.conf:ro" K8S_ENV=UDEV_RULE=yes
	pod nfs-tuned-node install
	status_is 0 "install" || return
	b1=$(readlink /opt/nfs-tuned/current)
	grep -q '^SUBSYSTEM=="bdi", .*PROGRAM="/opt/nfs-tuned/current/udev-bdi --udev-bdi %k"' "$rule" ||
		fail "no rule running the bundle in $rule: $(grep -v '^#' "$rule" 2>&1)" || return
	cmp -s "$cm" /etc/nfs-tuned.conf.d/50-kubernetes.conf || fail "the node's drop-in is not the ConfigMap's" || return
	# udev's call on the node: for a boot mount's bdi, the bundle answers what the package does
	dev=$(mi_dev "$MNT/a")
	want=$(/usr/sbin/mount.nfs-tuned --udev-bdi "$dev" 2>/dev/null)
	got=$(/opt/nfs-tuned/current/udev-bdi --udev-bdi "$dev" 2>/dev/null)
	value_is "the bundle's answer for bdi $dev ($b1)" "$got" "$want" || return
	[ -n "$want" ] || fail "the package's helper has no read-ahead for bdi $dev" || return
	ino=$(stat -c %i "$rule")
	# a new image: the bundle replaced, the rule as it was (not even rewritten)
	printf '[global]\n' >"$extra"
	pod nfs-tuned-node install
	rm -f "$extra"
	status_is 0 "install of the new image" || return
	out_matches "bundle: /opt/nfs-tuned/b-[0-9a-f]{16} installed" || return
	b2=$(readlink /opt/nfs-tuned/current)
	[ -n "$b2" ] && [ "$b2" != "$b1" ] && [ ! -e "/opt/nfs-tuned/$b1" ] && [ -e "/opt/nfs-tuned/$b2/conf.d/70-lab-update.conf" ] ||
		fail "the bundle $b1 not replaced by the new image's: current '$b2', $(ls -A /opt/nfs-tuned | tr '\n' ' ')" || return
	value_is "the rule's inode after the update" "$(stat -c %i "$rule")" "$ino" || return
	got=$(/opt/nfs-tuned/current/udev-bdi --udev-bdi "$dev" 2>/dev/null)
	value_is "the new bundle's answer for bdi $dev ($b2)" "$got" "$want" || return
	pod nfs-tuned-node uninstall
	status_is 0 "uninstall" || return
	[ "$(node_files)" = "$before" ] ||
		fail "the node's files after uninstall are not as before install: $(diff <(echo "$before") <(node_files) | grep '^[<>]' | tr '\n' ' ')" || return
	NOTE="install $b1, update $b2, uninstall: the node's files as before"
}

k8s_cleanup() {
	local d
	for d in $(awk -v p="$PODS/" 'index($5, p) == 1 { print $5 }' /proc/self/mountinfo | tac) "$MNT/k8s-host" "$K8S_ROOT"; do
		umount -l "$d" 2>/dev/null
	done
	rm -f /etc/nfs-tuned.conf.d/50-kubernetes.conf
}

k8s_checks() {
	LAB_SCENARIO=kubernetes
	echo "# kubernetes ($(cut -d' ' -f1 /proc/uptime) s)"
	[ -x "$K8S_ROOT/usr/sbin/mount.nfs-tuned" ] ||
		{ t plugin-root fail "no node plugin root with the package (see setup.log)"; return; }
	t pv-nconnect-across-plugins k_pv_nconnect
	t host-mount-seen-by-plugin k_host_mount_seen
	t udev-readahead-nfs-only k_udev_readahead
	t host-status-of-plugin-mounts k_host_status
	t in-tree-through-host-helper k_in_tree
	t node-install-update-uninstall k_node_lifecycle
	k8s_cleanup >>"$LAB_DETAILS" 2>&1
}
