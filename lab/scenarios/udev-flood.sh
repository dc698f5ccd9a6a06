# Figures, not a timed test (run it by name: lab/run udev-flood): the events per second the
# udev rule sustains when a user makes many FUSE superblocks at once (each a bdi add event of a
# 0:* device, so each runs the rule's program), with an NFS mount table beside them.
# N FUSE mounts are made with udev's event queue stopped, then the queue is started and the
# events udevd finishes are counted (udevadm monitor) until it settles or a bound passes:
# with no NFS rule, and with the project's rule alone (nfs-utils' masked: it sustains 8 events
# per second here by itself). Prints "# udev-flood: ..." lines.

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

# N FUSE superblocks at once, as any user could make them: mount(2) with the fd of /dev/fuse
# (python's ctypes: N runs of mount(8) take minutes under emulation); the connection goes with
# the fd, the superblock stays until unmounted
fuse_py() { # fuse_py mount|umount
	python3 - "$1" "$FUSE" "$N" <<'PY'
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
what, top, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
for i in range(1, n + 1):
    t = f"{top}/{i}".encode()
    if what == "mount":
        os.makedirs(t, exist_ok=True)
        fd = os.open("/dev/fuse", os.O_RDWR)
        data = f"fd={fd},rootmode=40000,user_id=0,group_id=0".encode()
        if libc.mount(b"lab", t, b"fuse", 0, data) != 0:
            sys.exit(f"mount {t}: {os.strerror(ctypes.get_errno())}")
        os.close(fd)
    else:
        libc.umount2(t, 2)  # MNT_DETACH
PY
}
fuse_mounts() { mkdir -p "$FUSE" && fuse_py mount; }
fuse_unmount() { fuse_py umount; rm -rf "$FUSE"; }

# flood LABEL SECS: the queue stopped, N mounts, the queue started; the bdi add events udevd
# finished (udevadm monitor --udev) within SECS or until settled, per second
flood() {
	local m s ms done mon
	udevadm control --stop-exec-queue
	m=$(date +%s%N)
	fuse_mounts || { udevadm control --start-exec-queue; fail "fuse mounts"; return 1; }
	log "  $N FUSE mounts made in $(ms_since "$m") ms"
	udevadm monitor --udev --subsystem-match=bdi >/tmp/lab/flood-monitor 2>&1 &
	mon=$!
	sleep 1
	s=$(date +%s%N)
	udevadm control --start-exec-queue
	udevadm settle -t "$2"
	ms=$(ms_since "$s")
	kill "$mon" 2>/dev/null; wait "$mon" 2>/dev/null
	done=$(grep -c ' add ' /tmp/lab/flood-monitor)
	figure "$1: $done of $N FUSE bdi add events handled in $ms ms: $(( done * 1000 / (ms ? ms : 1) )) events/s"
	# the rest of the queue and the removals, unmeasured
	rm -f $OURS
	udevadm control --reload
	fuse_unmount
	udevadm settle -t 240
}

flood_run() {
	need_helper || return
	modprobe fuse 2>/dev/null
	[ -c /dev/fuse ] || { skip "no /dev/fuse"; return; }
	# an NFS mount beside them: nfsfs lists one volume, the mount table has its line
	mount.nfs $SRV:/export/a "$(mp a)" -o vers=3 || { fail "nfs mount"; return 1; }
	conf "[global]" "read_ahead_kb = 2048"
	# nfs-utils' own rule (nfsrahead, which reads the mount table for every 0:* device too)
	# masked: 8 events/s with it alone here; the figures are udevd's and the helper's
	ln -sf /dev/null /etc/udev/rules.d/99-nfs.rules
	rm -f $OURS
	udevadm control --reload
	flood "no NFS rule" 60 || return
	sed "s|@HELPER@|$H|" /lab/99-zz-nfs-tuned.rules.in >$OURS
	udevadm control --reload
	flood "99-zz-nfs-tuned.rules alone" 150 || return
	rm -f /etc/udev/rules.d/99-nfs.rules
	udevadm control --reload
	umount "$(mp a)"
}

udev_start >>"$LAB_DETAILS" 2>&1
t fuse-flood flood_run
udev_stop
rm -f $OURS /etc/udev/rules.d/99-nfs.rules
