# Figures, not a timed test (run it by name: lab/run udev-flood): the events per second the
# udev rule sustains when a user makes many FUSE superblocks at once (each a bdi add event of a
# 0:* device, so each runs the rule's program), with an NFS mount table beside them.
# N FUSE mounts are made with udev's event queue stopped, then the queue is started and timed
# until `udevadm settle` returns: without the rule, and with it. Prints "# udev-flood: ..." lines.

. /lab/guest/params
case " $LAB_SCENARIOS " in
*" udev-flood "*) ;;
*) t figures skip "figures only when named: lab/run udev-flood"; return 0 ;;
esac

OURS=/usr/lib/udev/rules.d/99-zz-nfs-tuned.rules
N=2000
FUSE=/tmp/lab/fuse
figure() { echo "# udev-flood: $*"; log "  figure: $*"; }
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

# N FUSE superblocks: mount(2) with the fd of /dev/fuse (mount(8) passes fd= through when no
# mount.fuse exists); the connection is dropped when mount(8) exits, the superblock stays
fuse_mounts() {
	local i
	mkdir -p "$FUSE"
	for i in $(seq 1 "$N"); do
		mkdir -p "$FUSE/$i"
		mount -t fuse -o fd=3,rootmode=40000,user_id=0,group_id=0 lab "$FUSE/$i" 3<>/dev/fuse || return 1
	done
}
fuse_unmount() {
	local i
	for i in $(seq 1 "$N"); do umount -l "$FUSE/$i" 2>/dev/null; done
	rm -rf "$FUSE"
}

# flood LABEL: the queue stopped, N mounts, the queue started, timed until settled
flood() {
	local s ms
	udevadm control --stop-exec-queue
	fuse_mounts || { udevadm control --start-exec-queue; fail "fuse mounts"; return 1; }
	s=$(date +%s%N)
	udevadm control --start-exec-queue
	udevadm settle -t 600
	ms=$(ms_since "$s")
	figure "$1: $N FUSE bdi events handled in $ms ms: $(( N * 1000 / (ms ? ms : 1) )) events/s"
	udevadm control --stop-exec-queue
	fuse_unmount
	udevadm control --start-exec-queue
	udevadm settle -t 600
}

flood_run() {
	need_helper || return
	modprobe fuse 2>/dev/null
	[ -c /dev/fuse ] || { skip "no /dev/fuse"; return; }
	# an NFS mount beside them: nfsfs lists one volume, the mount table has its line
	mount.nfs $SRV:/export/a "$(mp a)" -o vers=3 || { fail "nfs mount"; return 1; }
	conf "[global]" "read_ahead_kb = 2048"
	rm -f $OURS
	udevadm control --reload
	flood "no nfs-tuned rule" || return
	sed "s|@HELPER@|$H|" /lab/99-zz-nfs-tuned.rules.in >$OURS
	udevadm control --reload
	flood "with 99-zz-nfs-tuned.rules ($("$H" -V))" || return
	rm -f $OURS
	umount "$(mp a)"
}

udev_start >>"$LAB_DETAILS" 2>&1
t fuse-flood flood_run
udev_stop
rm -f $OURS
